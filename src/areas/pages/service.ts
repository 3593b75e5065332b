// STUB: replaced by the area implementation.
import type { AreaDeps } from '../deps.ts';
import type { PagesStore } from './store.ts';

export function pagesService(deps: AreaDeps & { store: PagesStore }) {
  return { deps };
}

export type PagesService = ReturnType<typeof pagesService>;
