// STUB: replaced by the area implementation.
import type { AreaDeps } from '../deps.ts';
import type { AppearanceStore } from './store.ts';

export function appearanceService(deps: AreaDeps & { store: AppearanceStore }) {
  return { deps };
}

export type AppearanceService = ReturnType<typeof appearanceService>;
