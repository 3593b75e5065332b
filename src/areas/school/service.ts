// STUB: replaced by the area implementation.
import type { AreaDeps } from '../deps.ts';
import type { SchoolStore } from './store.ts';

export function schoolService(deps: AreaDeps & { store: SchoolStore }) {
  return { deps };
}

export type SchoolService = ReturnType<typeof schoolService>;
