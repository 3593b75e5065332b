import type { Event } from '../../areas/events/schema.ts';
import { eventWhen } from '../../areas/events/when.ts';
import type { Lecturer } from '../../areas/lecturers/schema.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { csrfField } from '../shared/layout.ts';
import { markdownHtml, markdownText } from '../shared/markdown.ts';
import { lecturerPath } from './course-view.ts';

export const eventPath = (slug: string) => `/events/${encodeURIComponent(slug)}`;
export const eventCalendarPath = (slug: string) => `/events/${encodeURIComponent(slug)}.ics`;
export const CALENDAR_FEED_PAGE = '/account/calendar';

const STATUS_LABELS: Record<Event['status'], string> = {
  scheduled: 'Upcoming',
  live: 'Live now',
  ended: 'Ended',
  canceled: 'Canceled',
};

/**
 * The event's time as a <time> element: the text is in the event's own zone (what a visitor without JavaScript reads),
 * and local-time.js rewrites it into the visitor's zone, keeping the event's zone on a line of its own.
 */
export function eventTime(event: Pick<Event, 'starts_at' | 'ends_at' | 'timezone'>, locale: string): SafeHtml {
  return html`<time class="event-time" datetime="${event.starts_at}" data-end="${event.ends_at}" data-zone="${event.timezone}" data-locale="${locale}">${eventWhen(event, event.timezone, locale)}</time>`;
}

const placeText = (event: Event) =>
  event.address && event.online ? `Online and at ${event.address}` : event.address ? event.address : 'Online';

function seatsText(event: Event): string {
  if (event.status === 'canceled' || event.status === 'ended') return '';
  if (event.seats_left === null) return 'Open registration';
  if (event.seats_left === 0)
    return event.waitlisted_count ? `Full, ${event.waitlisted_count} on the waitlist` : 'Full';
  return `${event.seats_left} ${event.seats_left === 1 ? 'seat' : 'seats'} left`;
}

/** Upcoming events as cards: the title (the link), when (in the visitor's zone), where and how many seats are left. */
export function eventListView(data: {
  events: Event[];
  locale: string;
  nextHref: string | null;
  past: boolean;
}): SafeHtml {
  const switchLink = data.past
    ? html`<p><a href="/events">Upcoming events</a></p>`
    : html`<p><a href="/events?when=past">Past events</a></p>`;
  if (!data.events.length)
    return html`<p>${data.past ? 'No events have taken place yet.' : 'No events are planned at the moment.'}</p>${switchLink}`;
  return html`<ul class="cards events">${data.events.map(
    (e) =>
      html`<li class="card"><div class="body"><h2><a href="${eventPath(e.slug)}">${e.title}</a></h2>
<p class="when">${eventTime(e, data.locale)}</p><p class="meta">${placeText(e)}${
        e.status === 'live' || e.status === 'canceled' ? html` · <strong>${STATUS_LABELS[e.status]}</strong>` : ''
      }</p>${seatsText(e) ? html`<p class="meta">${seatsText(e)}</p>` : ''}</div></li>`,
  )}</ul>
${data.nextHref ? html`<nav class="pager" aria-label="More events"><a href="${data.nextHref}" rel="next">Later events</a></nav>` : ''}
${switchLink}`;
}

/** What the event page offers the viewer; the handler decides it from the event and who is looking. */
export type EventAction =
  | { kind: 'sign-in'; href: string; full: boolean }
  | { kind: 'register'; csrf: string; full: boolean }
  | { kind: 'registered'; csrf: string; canLeave: boolean }
  | { kind: 'waitlisted'; csrf: string; position: number | null }
  | { kind: 'closed'; reason: 'canceled' | 'ended' | 'live' };

export type EventData = {
  event: Event;
  lecturers: Lecturer[];
  /** The course whose students may register, when the event is for one. */
  course: { title: string; href: string } | null;
  locale: string;
  action: EventAction;
  staff: boolean;
  /** A problem to show next to the buttons (a refused registration). */
  problem?: string;
};

/** The join box: the link when the viewer may see it, else when it will appear. */
function joinBox(data: EventData): SafeHtml {
  const { event } = data;
  if (!event.online || event.status === 'canceled' || event.status === 'ended') return html``;
  if (event.join_url)
    return html`<p class="join"><a class="button" href="${event.join_url}" rel="noopener noreferrer">Join the event</a></p>`;
  if (data.action.kind === 'registered' && event.join_opens_at)
    return html`<p class="meta">The link to join appears here from ${eventTime(
      { starts_at: event.join_opens_at, ends_at: event.join_opens_at, timezone: event.timezone },
      data.locale,
    )}.</p>`;
  return html``;
}

const calendarLinks = (event: Event) =>
  html`<p><a href="${eventCalendarPath(event.slug)}" download>Add to calendar (.ics)</a> · <a href="${CALENDAR_FEED_PAGE}">Subscribe to all your events</a></p>`;

/**
 * The event's .ics for anyone who may come: a visitor can hold the date before deciding or signing in (the file
 * carries the join link only for people registered). A registered person gets it with the feed, in the box above.
 */
function calendarOffer(data: EventData): SafeHtml {
  const upcoming = data.event.status === 'scheduled' || data.event.status === 'live';
  if (!upcoming || data.action.kind === 'registered') return html``;
  return html`<p><a href="${eventCalendarPath(data.event.slug)}" download>Add to calendar</a></p>`;
}

function actionBox(data: EventData): SafeHtml {
  const { event, action } = data;
  const form = (path: string, csrf: string, label: string, secondary = false) =>
    html`<form method="post" action="${eventPath(event.slug)}/${path}">${csrfField(csrf)}<button type="submit"${
      secondary ? html` class="secondary"` : ''
    }>${label}</button></form>`;
  switch (action.kind) {
    case 'sign-in':
      return html`<p><a class="button" href="${action.href}">Sign in to ${action.full ? 'join the waitlist' : 'register'}</a></p>`;
    case 'register':
      return html`${action.full ? html`<p>The event is full. Join the waitlist and you get a seat as soon as one frees up, in order.</p>` : ''}${form(
        'register',
        action.csrf,
        action.full ? 'Join the waitlist' : 'Register',
      )}`;
    case 'registered':
      return html`<p><strong>You are registered.</strong></p>${joinBox(data)}${calendarLinks(event)}${
        action.canLeave ? form('unregister', action.csrf, 'Cancel my registration', true) : ''
      }`;
    case 'waitlisted':
      return html`<p><strong>You are on the waitlist${
        action.position ? html`, number ${action.position}` : ''
      }.</strong> We e-mail you when a seat is yours.</p>${form('unregister', action.csrf, 'Leave the waitlist', true)}`;
    case 'closed':
      return html`<p>${
        action.reason === 'canceled'
          ? 'This event was canceled.'
          : action.reason === 'ended'
            ? 'This event has ended.'
            : 'This event has started; registration is closed.'
      }</p>`;
  }
}

function notice(data: EventData): SafeHtml {
  const { event } = data;
  if (event.status === 'canceled') return html`<p class="warning">This event was canceled.</p>`;
  if (event.status === 'live') return html`<p class="notice">This event is live now.</p>`;
  if (event.status === 'ended') return html`<p class="notice">This event has ended.</p>`;
  return html``;
}

/** An event's page: when and where, who leads it, the description, and the viewer's registration box. */
export function eventView(data: EventData): SafeHtml {
  const { event } = data;
  const seats = seatsText(event);
  return html`${notice(data)}
<div class="course-head"><section aria-labelledby="about-heading">
<p class="when">${eventTime(event, data.locale)}</p>
<p class="meta">${placeText(event)}${seats ? html` · ${seats}` : ''}</p>
${data.course ? html`<p>For the students of <a href="${data.course.href}">${data.course.title}</a>.</p>` : ''}
<h2 id="about-heading">About this event</h2>
${event.description.trim() ? markdownHtml(event.description) : html`<p>No description yet.</p>`}
${
  data.lecturers.length
    ? html`<h2>With</h2><ul class="posts">${data.lecturers.map(
        (l) => html`<li><a href="${lecturerPath(l.id)}">${l.name}</a>${l.title ? html`, ${l.title}` : ''}</li>`,
      )}</ul>`
    : ''
}</section>
<aside class="buy" aria-label="Registration">${data.problem ? html`<p class="error" role="alert">${data.problem}</p>` : ''}${actionBox(data)}${calendarOffer(data)}${
    data.staff
      ? html`<p class="meta">Staff view: ${event.registered_count} registered, ${event.waitlisted_count} waitlisted.</p>${
          event.join_url && data.action.kind !== 'registered'
            ? html`<p class="meta">Join link: <a href="${event.join_url}">${event.join_url}</a></p>`
            : ''
        }`
      : ''
  }</aside></div>`;
}

/** The offset of a time zone at an instant as "+01:00", for local date-times search engines read. */
function offsetOf(at: Date, timeZone: string): string {
  const name =
    new Intl.DateTimeFormat('en', { timeZone, timeZoneName: 'longOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-]\d{2}):?(\d{2})?/.exec(name);
  return match ? `${match[1]}:${match[2] ?? '00'}` : '+00:00';
}

/** An instant as the event zone's local date-time with its offset ("2026-12-01T18:00:00+01:00"). */
export function localIso(timestamp: string, timeZone: string): string {
  const at = new Date(timestamp);
  const offset = offsetOf(at, timeZone);
  const sign = offset.startsWith('-') ? -1 : 1;
  const [hours, minutes] = offset.slice(1).split(':').map(Number) as [number, number];
  const local = new Date(at.getTime() + sign * (hours * 60 + minutes) * 60_000);
  return `${local.toISOString().slice(0, 19)}${offset}`;
}

/** schema.org Event (https://schema.org/Event), as search engines read it from the page. */
export function eventJsonLd(
  data: Pick<EventData, 'event' | 'lecturers'>,
  site: { baseUrl: string; schoolName: string },
): Record<string, unknown> {
  const { event } = data;
  const url = `${site.baseUrl}${eventPath(event.slug)}`;
  const online = { '@type': 'VirtualLocation', url };
  const place = event.address ? { '@type': 'Place', name: event.address, address: event.address } : undefined;
  const full = event.seats_left === 0;
  return {
    '@context': 'https://schema.org',
    '@type': 'Event',
    '@id': url,
    url,
    name: event.title,
    description: markdownText(event.description) || event.title,
    startDate: localIso(event.starts_at, event.timezone),
    endDate: localIso(event.ends_at, event.timezone),
    eventStatus:
      event.status === 'canceled' ? 'https://schema.org/EventCancelled' : 'https://schema.org/EventScheduled',
    eventAttendanceMode:
      event.online && place
        ? 'https://schema.org/MixedEventAttendanceMode'
        : place
          ? 'https://schema.org/OfflineEventAttendanceMode'
          : 'https://schema.org/OnlineEventAttendanceMode',
    location: event.online && place ? [online, place] : (place ?? online),
    organizer: { '@type': 'Organization', name: site.schoolName, url: site.baseUrl },
    ...(data.lecturers.length
      ? {
          performer: data.lecturers.map((l) => ({
            '@type': 'Person',
            name: l.name,
            url: `${site.baseUrl}${lecturerPath(l.id)}`,
          })),
        }
      : {}),
    ...(event.capacity ? { maximumAttendeeCapacity: event.capacity } : {}),
    offers: {
      '@type': 'Offer',
      price: '0',
      url,
      availability: full ? 'https://schema.org/SoldOut' : 'https://schema.org/InStock',
    },
  };
}

/** The calendar feed page: the person's private feed address, how to use it, and a way to replace it. */
export function calendarFeedView(data: { feedUrl: string; csrf: string; reset: boolean }): SafeHtml {
  const webcal = data.feedUrl.replace(/^https?:/, 'webcal:');
  return html`${data.reset ? html`<p class="notice" role="status">Your calendar address was replaced: the old one no longer works.</p>` : ''}
<p>Every event you register for, in your calendar app: subscribe to this private address and new registrations,
changes and cancellations show up by themselves.</p>
<p><label for="feed-url">Your calendar address</label><br><input id="feed-url" type="text" readonly value="${data.feedUrl}" size="60"></p>
<p><a class="button" href="${webcal}">Subscribe in your calendar app</a></p>
<p class="meta">Keep this address to yourself: anyone who has it sees your events. If it got out, replace it.</p>
<form method="post" action="${CALENDAR_FEED_PAGE}/reset">${csrfField(data.csrf)}<button type="submit" class="secondary">Replace the address</button></form>`;
}
