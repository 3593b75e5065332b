// STUB: replaced by the area implementation.

import type { CoursesService } from '../courses/service.ts';
import type { AreaDeps } from '../deps.ts';
import type { CurriculumStore } from './store.ts';

export function curriculumService(deps: AreaDeps & { store: CurriculumStore } & { courses: CoursesService }) {
  return { deps };
}

export type CurriculumService = ReturnType<typeof curriculumService>;
