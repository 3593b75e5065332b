import type { FastifyInstance } from 'fastify';
import type { SessionService } from '../identity/sessions.ts';
import type { ConnectedAppsService } from '../oauth/connected-apps.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import type { MediaUrls } from '../storage/media-urls.ts';
import { accountRoutes } from './account/routes.ts';
import { accountService } from './account/service.ts';
import { accountStore } from './account/store.ts';
import { appearanceRoutes } from './appearance/routes.ts';
import { appearanceService } from './appearance/service.ts';
import { appearanceStore } from './appearance/store.ts';
import { commentsRoutes } from './comments/routes.ts';
import { commentsService } from './comments/service.ts';
import { commentsStore } from './comments/store.ts';
import { courseRoutes } from './courses/routes.ts';
import { coursesService } from './courses/service.ts';
import { coursesStore } from './courses/store.ts';
import { curriculumRoutes } from './curriculum/routes.ts';
import { curriculumService } from './curriculum/service.ts';
import { curriculumStore } from './curriculum/store.ts';
import type { AreaDeps } from './deps.ts';
import { lecturersRoutes } from './lecturers/routes.ts';
import { lecturersService } from './lecturers/service.ts';
import { lecturersStore } from './lecturers/store.ts';
import { pagesRoutes } from './pages/routes.ts';
import { pagesService } from './pages/service.ts';
import { pagesStore } from './pages/store.ts';
import { postsRoutes } from './posts/routes.ts';
import { postsService } from './posts/service.ts';
import { postsStore } from './posts/store.ts';
import { schoolRoutes } from './school/routes.ts';
import { schoolService } from './school/service.ts';
import { schoolStore } from './school/store.ts';
import { storageRoutes } from './storage/routes.ts';
import { storageService } from './storage/service.ts';
import { storageStore } from './storage/store.ts';

/** The one list of API areas: each is built from its store and service here and registers its routes. */
export function buildAreas(
  deps: AreaDeps & {
    sessions: SessionService;
    connectedApps: ConnectedAppsService;
    onCatalogChange: () => void;
    blobs: BlobStore;
    mediaUrls: MediaUrls;
  },
) {
  const storage = storageService({ ...deps, store: storageStore(), blobs: deps.blobs, urls: deps.mediaUrls });
  const courses = coursesService({ ...deps, store: coursesStore(), onChange: deps.onCatalogChange, storage });
  const curriculum = curriculumService({ ...deps, store: curriculumStore(), courses, storage });
  const lecturers = lecturersService({ ...deps, store: lecturersStore(), storage });
  const school = schoolService({ ...deps, store: schoolStore() });
  const appearance = appearanceService({ ...deps, store: appearanceStore(), storage });
  const pages = pagesService({ ...deps, store: pagesStore() });
  const posts = postsService({ ...deps, store: postsStore() });
  const comments = commentsService({ ...deps, store: commentsStore(), posts, curriculum });
  const account = accountService({
    ...deps,
    store: accountStore(),
    sessions: deps.sessions,
    connectedApps: deps.connectedApps,
  });
  return { storage, courses, curriculum, lecturers, school, appearance, pages, posts, comments, account };
}

export type Areas = ReturnType<typeof buildAreas>;

export function registerAreaRoutes(api: FastifyInstance, areas: Areas) {
  courseRoutes(api, areas.courses);
  curriculumRoutes(api, areas.curriculum);
  lecturersRoutes(api, areas.lecturers);
  schoolRoutes(api, areas.school);
  appearanceRoutes(api, areas.appearance);
  pagesRoutes(api, areas.pages);
  postsRoutes(api, areas.posts);
  commentsRoutes(api, areas.comments);
  accountRoutes(api, areas.account);
  storageRoutes(api, areas.storage);
}
