import type { FastifyInstance } from 'fastify';
import type { SetupService } from '../../identity/setup.ts';
import type { PageRenderer } from '../shared/page-context.ts';
import type { SiteDeps } from '../shared/site-deps.ts';
import { registerCoursePages } from './course-pages.ts';
import { registerEventPages } from './event-pages.ts';
import { registerHomePage } from './home-page.ts';
import { registerPeopleAndPostPages } from './people-and-posts.ts';
import { registerPlanPages } from './plan-pages.ts';
import { registerProductPages } from './product-pages.ts';
import { registerSchoolPages } from './school-pages.ts';

/**
 * The school's public website: home, catalog, courses and their lessons, products, events, lecturers, posts, pages
 * (with their forms) and plans.
 */
export function registerPublicSite(
  app: FastifyInstance,
  deps: SiteDeps & { setup: SetupService; render: PageRenderer },
) {
  deps.pages.install(app);
  deps.share.register(app);
  registerHomePage(app, deps);
  registerCoursePages(app, deps);
  registerProductPages(app, deps);
  registerPeopleAndPostPages(app, deps);
  registerSchoolPages(app, deps);
  registerPlanPages(app, deps);
  registerEventPages(app, deps);
}
