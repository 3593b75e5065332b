import type { FastifyInstance } from 'fastify';
import { courseRoutes } from './courses/routes.ts';
import { coursesService } from './courses/service.ts';
import { coursesStore } from './courses/store.ts';
import type { AreaDeps } from './deps.ts';

/** The one list of API areas: each is built from its store and service here and registers its routes. */
export function registerAreas(api: FastifyInstance, deps: AreaDeps) {
  const courses = coursesService({ ...deps, store: coursesStore() });
  courseRoutes(api, courses);
  return { courses };
}
