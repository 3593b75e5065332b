import type { FastifyInstance } from 'fastify';
import type { Course } from '../../areas/courses/schema.ts';
import type { SetupService } from '../../identity/setup.ts';
import { html } from '../../text/html.ts';
import { metaTags } from '../shared/meta.ts';
import type { PageRenderer } from '../shared/page-context.ts';
import { type SiteDeps, schoolFacts } from '../shared/site-deps.ts';
import { summary } from '../shared/text.ts';
import { viewerPrincipal } from '../shared/viewer.ts';
import { homeHero, homeView } from './home-view.ts';

const FEATURED = 6;
const NEWEST = 6;
const LECTURERS = 4;
const EVENTS = 3;
const LATEST_POSTS = 3;

/**
 * The school's home page, for everyone: a hero with the school's promise and its call to action, then the parts the
 * owner chose in the appearance (home.sections), in their order. The featured courses are the owner's pick; without
 * one, the public courses most of the latest enrollments went to (what others enroll in now), and without
 * enrollments, the newest. Before first-run setup it says where the setup link is.
 */
export function registerHomePage(app: FastifyInstance, deps: SiteDeps & { setup: SetupService; render: PageRenderer }) {
  const { courses, posts, lecturers, events, appearance } = deps.areas;
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
    const { home } = await appearance.get();
    const wants = new Set(home.sections);
    const none = { data: [] as never[] };
    const [school, picked, popular, newest, people, upcoming, latest] = await Promise.all([
      schoolFacts(deps.areas.school),
      home.featured_course_ids.length ? courses.visibleAmong(principal, home.featured_course_ids) : [],
      home.featured_course_ids.length ? [] : courses.mostEnrolled(FEATURED),
      courses.list(principal, { status: 'published', visibility: 'public', limit: NEWEST }),
      wants.has('lecturers') ? lecturers.list(principal, { status: 'active', limit: LECTURERS }) : none,
      wants.has('events') ? events.list(principal, { when: 'upcoming', limit: EVENTS }) : none,
      wants.has('posts') ? posts.list(principal, { status: 'published', limit: LATEST_POSTS }) : none,
    ]);
    // Staff see drafts through visibleAmong; the home page shows what visitors see.
    const published = (list: Course[]) => list.filter((c) => c.status === 'published');
    const chosen = published(picked).length ? published(picked) : popular;
    const featured = chosen.length ? chosen : newest.data;
    const viewer = request.viewer;
    // "back" only for someone who signed in before this visit: not on the first page after signing up.
    const back = viewer && (await deps.areas.account.signedInBefore(viewer.id, request.sessionCreatedAt ?? ''));
    const pictures = await deps.pictures([
      ...[...featured, ...newest.data, ...latest.data].map((item) => item.cover_url),
      ...people.data.map((l) => l.avatar_url),
    ]);
    const data = {
      pictures,
      schoolName: school.name,
      description: school.description,
      home,
      featured,
      // New courses beside featured ones that are themselves the newest would say the same twice.
      newest: featured === newest.data ? [] : newest.data,
      lecturers: people.data,
      events: upcoming.data,
      posts: latest.data,
      locale: school.locale,
      dates: school.dates,
      ...(viewer ? { greeting: `Welcome${back ? ' back' : ''}, ${viewer.name}.` } : {}),
    };
    const head = metaTags({
      title: school.name,
      description: summary(home.text || school.description || `Online courses from ${school.name}.`),
      url: `${deps.baseUrl}/`,
      siteName: school.name,
      jsonLd: {
        '@context': 'https://schema.org',
        '@type': 'EducationalOrganization',
        name: school.name,
        url: deps.baseUrl,
      },
    });
    return deps.pages.send(request, reply, school.name, homeView(data), { head, banner: homeHero(data) });
  });
}
