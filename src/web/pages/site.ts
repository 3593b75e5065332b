import type { FastifyInstance } from 'fastify';
import type { SetupService } from '../../identity/setup.ts';
import type { PageRenderer } from '../page-context.ts';
import { registerCoursePages } from './course-pages.ts';
import { registerEventPages } from './event-pages.ts';
import { registerHomePage } from './home-page.ts';
import { registerPeopleAndPostPages } from './people-and-posts.ts';
import { registerPlanPages } from './plan-pages.ts';
import { registerProductPages } from './product-pages.ts';
import type { SiteDeps } from './site-deps.ts';

/** The school's public website: home, catalog, courses and their lessons, products, events, lecturers, posts, pages and plans. */
export function registerPublicSite(
  app: FastifyInstance,
  deps: SiteDeps & { setup: SetupService; render: PageRenderer },
) {
  deps.pages.install(app);
  registerHomePage(app, deps);
  registerCoursePages(app, deps);
  registerProductPages(app, deps);
  registerPeopleAndPostPages(app, deps);
  registerPlanPages(app, deps);
  registerEventPages(app, deps);
}
