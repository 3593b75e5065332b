import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { Event } from '../../areas/events/schema.ts';
import { ApiError } from '../../http/errors.ts';
import { isStaff, type Principal } from '../../http/principal.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { coursePath } from '../shared/course-cards.ts';
import { markdownText } from '../shared/markdown.ts';
import { metaTags } from '../shared/meta.ts';
import { ownAsset, serveAssets } from '../shared/own-assets.ts';
import type { PageRenderer } from '../shared/page-context.ts';
import { ButtonBody, Key, ListQuery, PageQuery, SlugParams, Text } from '../shared/page-schemas.ts';
import { formPage, signInGate } from '../shared/sign-in-gate.ts';
import { one, type SiteDeps, schoolFacts, visibleLecturers, withQuery } from '../shared/site-deps.ts';
import { summary } from '../shared/text.ts';
import { viewerPrincipal } from '../shared/viewer.ts';
import {
  CALENDAR_FEED_PAGE,
  calendarFeedView,
  type EventAction,
  type EventData,
  eventJsonLd,
  eventListView,
  eventPath,
  eventView,
} from './events-view.ts';

export const EVENTS_PAGE_SIZE = 12;
const CALENDAR_TYPE = 'text/calendar; charset=utf-8';
const ICS = /\.ics$/;

/** A refusal the person can act on (full, not eligible, already started): shown on the page rather than as an error. */
const refusal = (error: unknown) =>
  error instanceof ApiError && (error.code === 'conflict' || error.code === 'invalid_request') ? error : undefined;

/** The course an event is for, as the viewer may see it (a link), or null. */
async function courseOf(deps: SiteDeps, principal: Principal, event: Event): Promise<EventData['course']> {
  if (!event.course_id) return null;
  try {
    const course = await deps.areas.courses.get(principal, event.course_id);
    return { title: course.title, href: coursePath(course.slug) };
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') return { title: 'a course', href: '/courses' };
    throw error;
  }
}

/** What the registration box offers: decided from the event (with the viewer's own registration) and who is looking. */
function actionFor(event: Event, request: FastifyRequest, reply: FastifyReply): EventAction {
  const own = event.registration;
  const open = event.status === 'scheduled';
  if (own?.status === 'registered' && (open || event.status === 'live'))
    return { kind: 'registered', csrf: reply.generateCsrf(), canLeave: open };
  if (own?.status === 'waitlisted' && open)
    return { kind: 'waitlisted', csrf: reply.generateCsrf(), position: own.waitlist_position };
  if (event.status !== 'scheduled') return { kind: 'closed', reason: event.status };
  const full = event.seats_left === 0;
  if (!request.viewer)
    return { kind: 'sign-in', href: `/signin?return_to=${encodeURIComponent(eventPath(event.slug))}`, full };
  return { kind: 'register', csrf: reply.generateCsrf(), full };
}

/**
 * The events: upcoming (/events) and past (/events?when=past), an event's page (/events/<slug>) with its registration
 * box, its .ics file (/events/<slug>.ics), registering and unregistering from the page, the private calendar feed
 * (/calendar/<secret>.ics) and the page that shows and replaces its address (/account/calendar). Who sees what, who
 * may register, and when the join link shows are the events service's rules for the viewer; anything else is 404.
 */
export function registerEventPages(fastify: FastifyInstance, deps: SiteDeps & { render: PageRenderer }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { events } = deps.areas;
  const config = { page: true, sharedPage: true };
  const localTime = ownAsset('local-time.js', 'text/javascript; charset=utf-8');
  serveAssets(app, [localTime]);
  const withLocalTime = (body: SafeHtml) => html`${body}\n<script src="${localTime.href}" defer></script>`;

  app.get(
    '/events',
    { schema: { querystring: ListQuery({ when: Type.Optional(Text(10)) }) }, config },
    async (request, reply) => {
      const principal = viewerPrincipal(request.viewer);
      const past = one(request.query.when) === 'past';
      const after = one(request.query.after);
      const [school, page] = await Promise.all([
        schoolFacts(deps.areas.school),
        events.list(principal, {
          when: past ? 'past' : 'upcoming',
          limit: EVENTS_PAGE_SIZE,
          ...(after ? { starting_after: after } : {}),
        }),
      ]);
      const nextHref =
        page.has_more && page.next_cursor
          ? withQuery('/events', { when: past ? 'past' : undefined, after: page.next_cursor })
          : null;
      const title = past ? 'Past events' : 'Events';
      const head = metaTags({
        title,
        description: past ? `Events ${school.name} has held.` : `Live sessions of ${school.name} you can register for.`,
        url: `${deps.baseUrl}/events${past ? '?when=past' : ''}`,
        siteName: school.name,
        noindex: Boolean(after),
      });
      const body = eventListView({ events: page.data, locale: school.locale, nextHref, past });
      return deps.pages.send(request, reply, title, withLocalTime(body), { head });
    },
  );

  async function showEvent(
    request: FastifyRequest,
    reply: FastifyReply,
    slug: string,
    problem?: { message: string; status: number },
  ) {
    const principal = viewerPrincipal(request.viewer);
    const event = await events.get(principal, slug);
    const [school, lecturers, course] = await Promise.all([
      schoolFacts(deps.areas.school),
      visibleLecturers(deps.areas.lecturers, principal, event.lecturer_ids),
      courseOf(deps, principal, event),
    ]);
    const data: EventData = {
      event,
      lecturers,
      course,
      locale: school.locale,
      action: actionFor(event, request, reply),
      staff: isStaff(principal),
      problem: problem?.message,
    };
    const head = metaTags({
      title: event.title,
      description: summary(markdownText(event.description) || event.title),
      url: `${deps.baseUrl}${eventPath(event.slug)}`,
      siteName: school.name,
      noindex: event.visibility !== 'public',
      jsonLd: eventJsonLd(data, { baseUrl: deps.baseUrl, schoolName: school.name }),
    });
    const body = withLocalTime(eventView(data));
    if (problem) return deps.render(request, reply, event.title, body, problem.status);
    return deps.pages.send(request, reply, event.title, body, { head });
  }

  app.get('/events/:slug', { schema: { params: SlugParams }, config }, async (request, reply) => {
    const { slug } = request.params;
    if (!ICS.test(slug)) return showEvent(request, reply, slug);
    const name = slug.replace(ICS, '');
    const calendar = await events.eventCalendar(viewerPrincipal(request.viewer), name);
    return reply
      .type(CALENDAR_TYPE)
      .header('content-disposition', `attachment; filename="${name.replace(/[^a-z0-9-]/g, '')}.ics"`)
      .header('cache-control', request.viewer ? 'private, no-store' : 'public, no-cache')
      .send(calendar);
  });

  const signedIn = signInGate();
  const signedInConfig = { page: true };

  for (const action of ['register', 'unregister'] as const) {
    app.post(
      `/events/:slug/${action}`,
      {
        schema: { params: SlugParams, body: ButtonBody },
        config: signedInConfig,
        preHandler: [signInGate(formPage), app.csrfProtection],
      },
      async (request, reply) => {
        const principal = viewerPrincipal(request.viewer);
        let event: Event;
        try {
          event = await events[action](principal, request.params.slug);
        } catch (error) {
          const refused = refusal(error);
          if (!refused) throw error;
          return showEvent(request, reply, request.params.slug, { message: refused.message, status: 409 });
        }
        // The seats left on the shared (signed-out) page changed.
        deps.pages.forget();
        return reply.redirect(eventPath(event.slug), 303);
      },
    );
  }

  app.get(
    '/calendar/:file',
    { schema: { params: Type.Object({ file: Key }) }, config: { page: true } },
    async (request, reply) => {
      const secret = request.params.file.replace(ICS, '');
      if (secret === request.params.file) return reply.callNotFound();
      const calendar = await events.feedCalendar(secret);
      // Calendar apps poll the feed; a secret address must not be kept by shared caches nor indexed.
      return reply
        .type(CALENDAR_TYPE)
        .header('cache-control', 'private, no-cache')
        .header('x-robots-tag', 'noindex')
        .header('referrer-policy', 'no-referrer')
        .send(calendar);
    },
  );

  app.get(
    CALENDAR_FEED_PAGE,
    {
      schema: { querystring: PageQuery({ reset: Type.Optional(Text(10)) }) },
      config: signedInConfig,
      preHandler: signedIn,
    },
    async (request, reply) => {
      const feedUrl = await events.calendarFeedUrl(viewerPrincipal(request.viewer));
      const body = calendarFeedView({ feedUrl, csrf: reply.generateCsrf(), reset: one(request.query.reset) === '1' });
      return deps.render(request, reply, 'Your calendar', body);
    },
  );

  app.post(
    `${CALENDAR_FEED_PAGE}/reset`,
    { schema: { body: ButtonBody }, config: signedInConfig, preHandler: [signInGate(formPage), app.csrfProtection] },
    async (request, reply) => {
      await events.resetCalendarFeed(viewerPrincipal(request.viewer));
      return reply.redirect(`${CALENDAR_FEED_PAGE}?reset=1`, 303);
    },
  );
}
