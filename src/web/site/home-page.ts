import type { FastifyInstance } from 'fastify';
import type { SetupService } from '../../identity/setup.ts';
import { html } from '../../text/html.ts';
import { metaTags } from '../shared/meta.ts';
import type { PageRenderer } from '../shared/page-context.ts';
import { type SiteDeps, schoolFacts } from '../shared/site-deps.ts';
import { summary } from '../shared/text.ts';
import { viewerPrincipal } from '../shared/viewer.ts';
import { homeView } from './home-view.ts';

const FEATURED = 6;
const NEWEST = 6;
const LATEST_POSTS = 3;

/**
 * The school's home page, for everyone: its description, the public courses most of the latest enrollments went to
 * ("Popular courses": the school has no featured flag, and what others enroll in now is the useful signal), the newest ones, and the latest
 * posts. Before first-run setup it says where the setup link is.
 */
export function registerHomePage(app: FastifyInstance, deps: SiteDeps & { setup: SetupService; render: PageRenderer }) {
  const { courses, posts } = deps.areas;
  app.get('/', { config: { page: true, sharedPage: true } }, async (request, reply) => {
    if (await deps.setup.needed()) {
      return deps.render(
        request,
        reply,
        'Welcome to Lyceum',
        html`<p>This school is not set up yet. The one-time setup link is in the server's log; open it to create the school and its owner account.</p>`,
      );
    }
    const principal = viewerPrincipal(request.viewer);
    const [school, featured, newest, latest] = await Promise.all([
      schoolFacts(deps.areas.school),
      courses.mostEnrolled(FEATURED),
      courses.list(principal, { status: 'published', visibility: 'public', limit: NEWEST }),
      posts.list(principal, { status: 'published', limit: LATEST_POSTS }),
    ]);
    const viewer = request.viewer;
    // "back" only for someone who signed in before this visit: not on the first page after signing up.
    const back = viewer && (await deps.areas.account.signedInBefore(viewer.id, request.sessionCreatedAt ?? ''));
    const greeting = viewer ? html`<p>Welcome${back ? ' back' : ''}, ${viewer.name}.</p>` : '';
    const body = html`${greeting}${homeView({
      description: school.description,
      featured,
      newest: newest.data,
      posts: latest.data,
      locale: school.locale,
    })}`;
    const head = metaTags({
      title: school.name,
      description: summary(school.description || `Online courses from ${school.name}.`),
      url: `${deps.baseUrl}/`,
      siteName: school.name,
      jsonLd: {
        '@context': 'https://schema.org',
        '@type': 'EducationalOrganization',
        name: school.name,
        url: deps.baseUrl,
      },
    });
    return deps.pages.send(request, reply, school.name, body, { head });
  });
}
