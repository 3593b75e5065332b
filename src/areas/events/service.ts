import { newId } from '../../db/ids.ts';
import type { EventsTable, Executor } from '../../db/tables.ts';
import { containsText } from '../../db/text-match.ts';
import { errors, type FieldError } from '../../http/errors.ts';
import { ANONYMOUS, isStaff, type Principal } from '../../http/principal.ts';
import { TIMEZONES } from '../../identity/schema.ts';
import type { AreaDeps } from '../deps.ts';
import { type ListPage, paginate, paginateBy } from '../pagination.ts';
import type { References } from '../references.ts';
import { withRowLock } from '../row-locks.ts';
import type { SchoolSettings } from '../school-settings.ts';
import { slugRules } from '../slugs.ts';
import type { StudentsService } from '../students/service.ts';
import type { MembershipRule } from '../subscriptions/service.ts';
import { eventCalendars } from './calendar.ts';
import { type EventMail, eventNotices } from './notices.ts';
import { eventRegistrations } from './registrations.ts';
import { eventReminders } from './reminders.ts';
import type { Event, EventCreate, EventListQuery, EventUpdate } from './schema.ts';
import type { EventRow, EventsStore } from './store.ts';

const DEFAULT_JOIN_OPENS_MINUTES = 15;

/**
 * Live events: sessions people register for, with seats, a waitlist, calendars and reminders. Every event is seen by
 * anyone who has its link (public ones are also listed; unlisted ones only to staff); the join URL is shown to staff
 * and, from a set time before the start until the end, to people holding a seat. Registrations: `registrations.ts`;
 * calendars: `calendar.ts`; the reminder job: `reminders.ts`.
 */
export function eventsService(
  deps: AreaDeps & {
    store: EventsStore;
    mail: EventMail;
    /** Who holds which plan now (an event may be for one plan's members). */
    memberships: Pick<MembershipRule, 'activePlanIds'>;
    /** Who studies which course now (an event may be for one course's students). */
    students: Pick<StudentsService, 'holdsCourse'>;
    /** Which of the people, courses, plans and lecturers an event names exist. */
    references: References;
    school: SchoolSettings;
  },
) {
  const { db, clock, store, config } = deps;
  const now = () => clock.now().toISOString();
  const notFound = () => errors.notFound('event');
  const notices = eventNotices({ mail: deps.mail, school: deps.school, baseUrl: config.BASE_URL });

  /** The events as `principal` sees them at `at`: counts, lecturers, their own registration and the join URL. */
  async function toEvents(ex: Executor, principal: Principal, rows: EventRow[], at = now()): Promise<Event[]> {
    const ids = rows.map((r) => r.id);
    const [lecturers, counts, own] = await Promise.all([
      store.lecturers(ex, ids),
      store.counts(ex, ids),
      principal.kind === 'user' ? store.ownRegistrations(ex, principal.userId, ids) : Promise.resolve([]),
    ]);
    const staff = isStaff(principal);
    return rows.map((row) => {
      const count = (status: string) =>
        Number(counts.find((c) => c.event_id === row.id && c.status === status)?.n ?? 0);
      const registered = count('registered');
      const mine = own.find((r) => r.event_id === row.id);
      const joinOpensAt = row.join_url
        ? new Date(Date.parse(row.starts_at) - row.join_opens_minutes * 60_000).toISOString()
        : null;
      const seated = mine?.status === 'registered' && row.status !== 'canceled';
      const joinShown =
        staff || (seated && joinOpensAt !== null && at >= joinOpensAt && at < row.ends_at) ? row.join_url : null;
      return {
        id: row.id,
        title: row.title,
        slug: row.slug,
        description: row.description,
        starts_at: row.starts_at,
        ends_at: row.ends_at,
        timezone: row.timezone,
        address: row.address,
        online: row.join_url !== null,
        join_url: joinShown,
        join_opens_at: joinOpensAt,
        capacity: row.capacity === null ? null : Number(row.capacity),
        registered_count: registered,
        waitlisted_count: count('waitlisted'),
        seats_left: row.capacity === null ? null : Math.max(0, Number(row.capacity) - registered),
        lecturer_ids: lecturers.filter((l) => l.event_id === row.id).map((l) => l.lecturer_id),
        course_id: row.course_id,
        plan_id: row.plan_id,
        visibility: row.visibility,
        status: row.status,
        registration: mine
          ? {
              id: mine.id,
              status: mine.status,
              waitlist_position: mine.status === 'waitlisted' ? Number(mine.position) : null,
              registered_at: mine.registered_at,
            }
          : null,
        canceled_at: row.canceled_at,
        created_at: row.created_at,
        updated_at: row.updated_at,
      };
    });
  }
  const toEvent = async (ex: Executor, principal: Principal, row: EventRow) =>
    (await toEvents(ex, principal, [row]))[0] as Event;

  /** The event `key` (id or slug) names: every event is seen by whoever has its link. */
  async function find(key: string, ex: Executor = db) {
    const row = await store.findByIdOrSlug(ex, key, now());
    if (!row) throw notFound();
    return row;
  }
  /** The event as it is now, read again in the transaction that changed it. */
  const reread = async (trx: Executor, id: string) => find(id, trx);

  const slugs = slugRules('event', (slug, exceptId) => store.slugTaken(db, slug, exceptId));

  /** Where it takes place is a join URL or an address (or both): an event with neither cannot be attended. */
  const placeRefused = (place: { address?: string | null; join_url?: string | null }): FieldError[] =>
    place.address || place.join_url
      ? []
      : [
          {
            field: 'join_url',
            code: 'required',
            message: 'Give a join_url (online), an address (in person), or both.',
          },
        ];

  const timesRefused = (times: { starts_at: string; ends_at: string }): FieldError[] =>
    Date.parse(times.ends_at) <= Date.parse(times.starts_at)
      ? [{ field: 'ends_at', code: 'before_start', message: 'ends_at must be after starts_at.' }]
      : [];

  /**
   * Refuses, with every field at once, what cannot be written: a blank title, an end not after the start, an unknown
   * zone, and ids that name nothing. Reads outside any transaction (SQLite's one connection is held by a writing one):
   * an update checks its merged times apart, under the lock (`timesRefused`).
   */
  async function check(input: EventUpdate, created?: EventCreate) {
    const fields: FieldError[] = created ? [...timesRefused(created), ...placeRefused(created)] : [];
    if (input.title !== undefined && !input.title.trim()) {
      fields.push({ field: 'title', code: 'blank', message: 'Give the event a title.' });
    }
    if (input.timezone !== undefined && !TIMEZONES.has(input.timezone)) {
      fields.push({
        field: 'timezone',
        code: 'unknown_zone',
        message: `"${input.timezone}" is not a time zone; use an IANA name such as Europe/Berlin.`,
      });
    }
    const refs = [
      ['course_id', 'course', input.course_id ? [input.course_id] : []],
      ['plan_id', 'plan', input.plan_id ? [input.plan_id] : []],
      ['lecturer_ids', 'lecturer', input.lecturer_ids ?? []],
    ] as const;
    for (const [field, kind, ids] of refs) {
      const found = await deps.references.existing(db, kind, [...ids]);
      for (const id of ids) {
        if (!found.has(id))
          fields.push({ field, code: 'not_found', message: `No ${field.replace(/_ids?$/, '')} ${id}.` });
      }
    }
    if (fields.length) throw errors.invalidRequest(fields.map((f) => f.message).join(' '), fields);
  }

  const registrations = eventRegistrations({ ...deps, notices, find, reread, toEvent });
  const reminders = eventReminders({ ...deps, notices });
  const calendars = eventCalendars({ ...deps, find, toEvent });

  async function list(principal: Principal, query: EventListQuery) {
    const at = now();
    let q = store.eventsAt(db, at);
    if (!isStaff(principal)) q = q.where('events.visibility', '=', 'public');
    if (query.status) q = q.where(store.statusAt(at), '=', query.status);
    if (query.course_id) q = q.where('events.course_id', '=', query.course_id);
    if (query.q) q = q.where(containsText('events.title', query.q));
    if (query.when === 'upcoming') q = q.where('events.ends_at', '>', at).where('events.canceled_at', 'is', null);
    if (query.when === 'past') q = q.where('events.ends_at', '<=', at).where('events.canceled_at', 'is', null);
    let page: ListPage<EventRow>;
    if (query.when) {
      if (query.created_after) q = q.where('events.created_at', '>', new Date(query.created_after).toISOString());
      if (query.created_before) q = q.where('events.created_at', '<', new Date(query.created_before).toISOString());
      page = (await paginateBy(q, query, {
        table: 'events',
        column: 'starts_at',
        descending: query.when === 'past',
      })) as ListPage<EventRow>;
    } else {
      page = (await paginate(q, query, 'events.id', 'events.created_at')) as ListPage<EventRow>;
    }
    return { ...page, data: await toEvents(db, principal, page.data, at) };
  }

  return {
    list,

    get: async (principal: Principal, key: string) => toEvent(db, principal, await find(key)),

    async create(input: EventCreate) {
      await check(input, input);
      const slug = await slugs.choose(input.slug, input.title.trim());
      const at = now();
      const row: EventsTable = {
        id: newId('evt'),
        title: input.title.trim(),
        slug,
        description: input.description ?? '',
        starts_at: new Date(input.starts_at).toISOString(),
        ends_at: new Date(input.ends_at).toISOString(),
        timezone: input.timezone ?? (await deps.school.settings(db)).timezone,
        address: input.address ?? null,
        join_url: input.join_url ?? null,
        join_opens_minutes: input.join_opens_minutes ?? DEFAULT_JOIN_OPENS_MINUTES,
        capacity: input.capacity ?? null,
        course_id: input.course_id ?? null,
        plan_id: input.plan_id ?? null,
        visibility: input.visibility ?? 'public',
        sequence: 0,
        canceled_at: null,
        created_at: at,
        updated_at: at,
      };
      return slugs.write(slug, () =>
        db.transaction().execute(async (trx) => {
          await store.insert(trx, row);
          await store.replaceLecturers(trx, row.id, input.lecturer_ids ?? []);
          await reminders.schedule(trx, row);
          const created = await toEvent(trx, ANONYMOUS, await reread(trx, row.id));
          // Staff made it: they see the join URL.
          const shown = { ...created, join_url: row.join_url };
          await deps.writes.made(trx, shown);
          return shown;
        }),
      );
    },

    async update(principal: Principal, id: string, input: EventUpdate) {
      await check(input);
      await slugs.assertFree(input.slug, id);
      return slugs.write(input.slug, () =>
        withRowLock(db, 'events', id, notFound, async (trx) => {
          const row = await reread(trx, id);
          if (row.status === 'canceled') throw errors.conflict('A canceled event cannot be changed.');
          const starts_at = input.starts_at ? new Date(input.starts_at).toISOString() : row.starts_at;
          const ends_at = input.ends_at ? new Date(input.ends_at).toISOString() : row.ends_at;
          const refused = [
            ...timesRefused({ starts_at, ends_at }),
            ...placeRefused({
              address: input.address === undefined ? row.address : input.address,
              join_url: input.join_url === undefined ? row.join_url : input.join_url,
            }),
          ];
          if (refused.length) throw errors.invalidRequest(refused.map((f) => f.message).join(' '), refused);
          const moved = starts_at !== row.starts_at || ends_at !== row.ends_at;
          // scheduled → live → ended follows the clock: a started event's times are the record of when it was held.
          if (moved && row.status !== 'scheduled')
            throw errors.conflict(
              `This event has ${row.status === 'live' ? 'started' : 'ended'}; its times can no longer change.`,
            );
          const changes: Partial<EventsTable> = { updated_at: now(), starts_at, ends_at };
          if (input.title !== undefined) changes.title = input.title.trim();
          for (const key of [
            'slug',
            'description',
            'timezone',
            'address',
            'join_url',
            'join_opens_minutes',
            'capacity',
            'course_id',
            'plan_id',
            'visibility',
          ] as const) {
            if (input[key] !== undefined) Object.assign(changes, { [key]: input[key] });
          }
          if (moved) changes.sequence = Number(row.sequence) + 1;
          await store.update(trx, id, changes);
          if (input.lecturer_ids) await store.replaceLecturers(trx, id, input.lecturer_ids);
          const after = await reread(trx, id);
          if (moved) {
            await store.clearReminders(trx, id);
            await reminders.schedule(trx, after);
            await notices.send(trx, 'event_moved', after, await registrations.people(trx, id), row);
          }
          if (input.capacity !== undefined && after.status === 'scheduled') await registrations.promote(trx, after);
          return toEvent(trx, principal, await reread(trx, id));
        }),
      );
    },

    /** Deletes an event nobody ever registered for, under its lock (which every registration takes). */
    delete: (id: string) =>
      withRowLock(db, 'events', id, notFound, async (trx) => {
        if (await store.deleteUnregistered(trx, id)) return;
        throw errors.conflict(
          `People have registered for this event, so it is kept; cancel it instead (POST /api/v1/events/${id}/cancel).`,
        );
      }),

    /** Cancels a scheduled event: every registered and waitlisted person is told, and their registrations end. */
    cancel: (principal: Principal, id: string) =>
      withRowLock(db, 'events', id, notFound, async (trx) => {
        const row = await reread(trx, id);
        if (row.status === 'canceled') return toEvent(trx, principal, row);
        if (row.status !== 'scheduled') throw errors.conflict(`A ${row.status} event cannot be canceled.`);
        const at = now();
        const people = await registrations.people(trx, id);
        await store.update(trx, id, { canceled_at: at, updated_at: at, sequence: Number(row.sequence) + 1 });
        await store.cancelAll(trx, id, at);
        const after = await reread(trx, id);
        await notices.send(trx, 'event_canceled', after, people);
        return toEvent(trx, principal, after);
      }),

    /** Public events not yet over and not canceled, soonest first, as anonymous callers see them. */
    async upcomingPublic(limit: number) {
      const at = now();
      const rows = (await store
        .eventsAt(db, at)
        .where('events.visibility', '=', 'public')
        .where('events.canceled_at', 'is', null)
        .where('events.ends_at', '>', at)
        .orderBy('events.starts_at')
        .orderBy('events.id')
        .limit(limit)
        .execute()) as EventRow[];
      return toEvents(db, ANONYMOUS, rows, at);
    },

    ...registrations.operations,
    ...calendars,
    /** Gives up a person's seats and places in line for upcoming events, in the caller's transaction (account deletion). */
    releaseSeatsOf: registrations.releaseAllOf,
    /** Sends the reminders an event owes (the job's work, callable again: each person gets theirs once). */
    remind: reminders.remind,
  };
}

export type EventsService = ReturnType<typeof eventsService>;
