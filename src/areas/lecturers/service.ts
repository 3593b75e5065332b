// STUB: replaced by the area implementation.
import type { AreaDeps } from '../deps.ts';
import type { LecturersStore } from './store.ts';

export function lecturersService(deps: AreaDeps & { store: LecturersStore }) {
  return { deps };
}

export type LecturersService = ReturnType<typeof lecturersService>;
