import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Plan } from '../../areas/membership-plans/schema.ts';
import type { Principal } from '../../http/principal.ts';
import { markdownText } from '../shared/markdown.ts';
import { metaTags } from '../shared/meta.ts';
import { ListQuery, SlugParams } from '../shared/page-schemas.ts';
import { browse, type SiteDeps, schoolFacts, withQuery } from '../shared/site-deps.ts';
import { summary } from '../shared/text.ts';
import { viewerPrincipal } from '../shared/viewer.ts';
import { type PlanWithCourses, planPath, plansView, planView } from './plans-view.ts';

const PLANS_PAGE_SIZE = 24;

/**
 * The membership plans on the public site: /plans (the public plans on sale) and /plans/<slug> (any active plan, a
 * hidden one too: its link sells it; staff also see archived ones, marked). Who sees which plan is the plans area's
 * rule for the viewer; the included courses are those the courses area lets the viewer see. Each active price has
 * its button to the checkout (`/checkout/plan/<price id>`); a paid one is disabled while no payment provider is
 * configured.
 */
export function registerPlanPages(fastify: FastifyInstance, deps: SiteDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { membershipPlans, courses } = deps.areas;
  const config = { page: true, sharedPage: true };

  /** The plans' courses the viewer may see, each plan's in its order (a draft or private one is left out). */
  async function withCourses(principal: Principal, plans: Plan[]): Promise<PlanWithCourses[]> {
    const seen = await courses.visibleAmong(
      principal,
      plans.flatMap((plan) => plan.included_course_ids),
    );
    const byId = new Map(seen.map((course) => [course.id, course]));
    return plans.map((plan) => ({ plan, courses: plan.included_course_ids.flatMap((id) => byId.get(id) ?? []) }));
  }

  app.get('/plans', { schema: { querystring: ListQuery({}) }, config }, async (request, reply) => {
    const principal = viewerPrincipal(request.viewer);
    const [school, page] = await Promise.all([
      schoolFacts(deps.areas.school),
      browse(
        request.query,
        PLANS_PAGE_SIZE,
        (cursor) => membershipPlans.list(principal, { ...cursor, status: 'active', visibility: 'public' }),
        (cursor) => withQuery('/plans', cursor),
      ),
    ]);
    const plans = await withCourses(principal, page.data);
    const head = metaTags({
      title: 'Membership plans',
      description: `The memberships of ${school.name}.`,
      url: `${deps.baseUrl}/plans`,
      siteName: school.name,
      noindex: Boolean(request.query.after || request.query.before),
    });
    const body = plansView({ ...page, plans, locale: school.locale, takesPayments: deps.areas.orders.takesPayments });
    return deps.pages.send(request, reply, 'Membership plans', body, { head });
  });

  app.get('/plans/:slug', { schema: { params: SlugParams }, config }, async (request, reply) => {
    const principal = viewerPrincipal(request.viewer);
    const plan = await membershipPlans.get(principal, request.params.slug);
    const [school, [data]] = await Promise.all([schoolFacts(deps.areas.school), withCourses(principal, [plan])]);
    const head = metaTags({
      title: plan.name,
      description: summary(markdownText(plan.description) || plan.benefits.join(', ') || plan.name),
      url: `${deps.baseUrl}${planPath(plan.slug)}`,
      siteName: school.name,
      noindex: plan.status !== 'active' || plan.visibility !== 'public',
    });
    const body = planView({ ...data, locale: school.locale, takesPayments: deps.areas.orders.takesPayments });
    return deps.pages.send(request, reply, plan.name, body, { head });
  });
}
