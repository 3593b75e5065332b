import { createHmac } from 'node:crypto';
import ical, { ICalEventStatus } from 'ical-generator';
import type { Executor } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { loadOrCreateSecret } from '../../security/server-secrets.ts';
import { randomToken, sha256 } from '../../security/tokens.ts';
import type { AreaDeps } from '../deps.ts';
import type { SchoolSettings } from '../school-settings.ts';
import type { Event } from './schema.ts';
import type { EventRow, EventsStore } from './store.ts';

/** A feed shows the events that ended at most this long ago, besides every one to come. */
const FEED_PAST_MS = 30 * 86_400_000;
const SECRET = /^[A-Za-z0-9_-]{43}$/;

type Entry = { row: EventRow; joinUrl: string | null; status: ICalEventStatus };

/**
 * The event's iCalendar files: one event (`/events/<slug>.ics`) and each person's private feed of the events they
 * registered for (`/calendar/<secret>.ics`), made with ical-generator. Times are written in UTC (`…Z`): every
 * calendar app reads them and shows them in its user's zone, and no VTIMEZONE needs generating; the event's own zone
 * is named in the description. UID is the event id at the school's host, SEQUENCE rises with each move or cancel (so
 * calendars replace their copy), and a canceled event stays in the feed as CANCELLED. The join URL is written only
 * where the caller sees it right then; feeds never carry it (a feed URL is often handed to a calendar service).
 *
 * The feed secret is an HMAC of the person and a random nonce under a server key, so the account page can show the
 * same URL again without the secret being stored: the table keeps the nonce and the secret's SHA-256 (looked up
 * when the feed is fetched). Resetting draws a new nonce; the old URL is then unknown.
 */
export function eventCalendars(
  deps: AreaDeps & {
    store: EventsStore;
    school: SchoolSettings;
    find: (key: string, ex?: Executor) => Promise<EventRow>;
    toEvent: (ex: Executor, principal: Principal, row: EventRow) => Promise<Event>;
  },
) {
  const { db, clock, store, config, find, toEvent } = deps;
  const baseUrl = config.BASE_URL;
  const host = new URL(baseUrl).hostname;
  let feedKey: Promise<string> | undefined;
  const secretOf = async (userId: string, nonce: string) => {
    feedKey ??= loadOrCreateSecret(db, clock, 'calendar_feed_key', () => randomToken(32)).catch((error) => {
      // A failed read is asked again next time rather than remembered.
      feedKey = undefined;
      throw error;
    });
    return createHmac('sha256', await feedKey)
      .update(`${userId}.${nonce}`)
      .digest('base64url');
  };
  const feedUrl = (secret: string) => `${baseUrl}/calendar/${secret}.ics`;

  async function calendar(name: string, entries: Entry[]) {
    const cal = ical({ name, prodId: { company: 'Lyceum', product: 'events', language: 'EN' } });
    for (const { row, joinUrl, status } of entries) {
      const page = `${baseUrl}/events/${encodeURIComponent(row.slug)}`;
      const notes = [row.description, `Times are those of ${row.timezone}.`, joinUrl ? `Join: ${joinUrl}` : page];
      cal.createEvent({
        id: `${row.id}@${host}`,
        sequence: Number(row.sequence),
        stamp: new Date(row.updated_at),
        created: new Date(row.created_at),
        lastModified: new Date(row.updated_at),
        start: new Date(row.starts_at),
        end: new Date(row.ends_at),
        summary: row.title,
        description: notes.filter(Boolean).join('\n\n'),
        location: row.address ?? joinUrl ?? (row.join_url ? `Online: ${page}` : null),
        url: page,
        status,
      });
    }
    return cal.toString();
  }

  const calendarStatus = (row: EventRow, registration?: string) =>
    row.status === 'canceled'
      ? ICalEventStatus.CANCELLED
      : registration === 'waitlisted'
        ? ICalEventStatus.TENTATIVE
        : ICalEventStatus.CONFIRMED;

  const schoolName = async () => (await deps.school.settings(db)).name;

  function userOf(principal: Principal) {
    if (principal.kind !== 'user') throw errors.accessDenied('Sign in to have a calendar feed.');
    return principal.userId;
  }

  async function newFeed(userId: string) {
    const nonce = randomToken(16);
    const secret = await secretOf(userId, nonce);
    return { user_id: userId, nonce, token_hash: sha256(secret), created_at: clock.now().toISOString() };
  }

  return {
    /** One event as a calendar file, as the caller sees it (the join URL only when they see it now). */
    async eventCalendar(principal: Principal, key: string) {
      const row = await find(key);
      const event = await toEvent(db, principal, row);
      return calendar(`${row.title} — ${await schoolName()}`, [
        { row, joinUrl: event.join_url, status: calendarStatus(row, event.registration?.status) },
      ]);
    },

    /** The caller's private feed URL, made on their first ask and the same afterwards until they reset it. */
    async calendarFeedUrl(principal: Principal) {
      const userId = userOf(principal);
      let feed = await store.feedOf(db, userId);
      if (!feed) {
        await store.createFeed(db, await newFeed(userId));
        feed = await store.feedOf(db, userId);
      }
      return feedUrl(await secretOf(userId, feed?.nonce ?? ''));
    },

    /** A new feed URL for the caller; the old one is not found from now on. */
    async resetCalendarFeed(principal: Principal) {
      const row = await newFeed(userOf(principal));
      await store.replaceFeed(db, row);
      return feedUrl(await secretOf(row.user_id, row.nonce));
    },

    /** The feed a secret opens: the person's events to come and of the last 30 days. */
    async feedCalendar(secret: string) {
      const feed = SECRET.test(secret) ? await store.feedByHash(db, sha256(secret)) : undefined;
      if (!feed) throw errors.notFound('calendar feed');
      const now = clock.now();
      const since = new Date(now.getTime() - FEED_PAST_MS).toISOString();
      const rows = await store.feedEvents(db, feed.user_id, since, now.toISOString());
      return calendar(
        `${await schoolName()} — my events`,
        rows.map((row) => ({ row, joinUrl: null, status: calendarStatus(row, row.registration_status) })),
      );
    },
  };
}
