import { sql, type Updateable } from 'kysely';
import type { CalendarFeedsTable, EventRegistrationsTable, EventsTable, Executor, Timestamp } from '../../db/tables.ts';
import type { EventStatus } from './schema.ts';

/**
 * The one rule of an event's state, in SQL so lists filter by it and every read carries it: canceled once canceled;
 * otherwise scheduled before its start, live until its end, then ended.
 */
const statusAt = (now: Timestamp) =>
  sql<EventStatus>`(case when ${sql.ref('events.canceled_at')} is not null then 'canceled' when ${sql.ref('events.starts_at')} > ${now} then 'scheduled' when ${sql.ref('events.ends_at')} > ${now} then 'live' else 'ended' end)`;

export type EventRow = EventsTable & { status: EventStatus };

export function eventsStore() {
  const eventsAt = (ex: Executor, now: Timestamp) =>
    ex.selectFrom('events').selectAll('events').select(statusAt(now).as('status'));

  return {
    statusAt,
    eventsAt,

    findByIdOrSlug: (ex: Executor, key: string, now: Timestamp) =>
      eventsAt(ex, now)
        .where((eb) => eb.or([eb('events.id', '=', key), eb('events.slug', '=', key)]))
        .executeTakeFirst() as Promise<EventRow | undefined>,

    slugTaken: async (ex: Executor, slug: string, exceptId?: string) => {
      let query = ex.selectFrom('events').select('id').where('slug', '=', slug);
      if (exceptId) query = query.where('id', '!=', exceptId);
      return (await query.executeTakeFirst()) !== undefined;
    },

    insert: async (ex: Executor, row: EventsTable) => {
      await ex.insertInto('events').values(row).execute();
    },

    update: async (ex: Executor, id: string, changes: Updateable<EventsTable>) => {
      await ex.updateTable('events').set(changes).where('id', '=', id).execute();
    },

    /** Deletes the event only when nobody ever registered for it; returns whether it did. */
    deleteUnregistered: async (ex: Executor, id: string) => {
      const result = await ex
        .deleteFrom('events')
        .where('id', '=', id)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('event_registrations').select('id').where('event_id', '=', id))),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    lecturers: (ex: Executor, eventIds: string[]) =>
      eventIds.length === 0
        ? Promise.resolve([])
        : ex
            .selectFrom('event_lecturers')
            .select(['event_id', 'lecturer_id'])
            .where('event_id', 'in', eventIds)
            .orderBy('event_id')
            .orderBy('position')
            .execute(),

    replaceLecturers: async (ex: Executor, eventId: string, lecturerIds: string[]) => {
      await ex.deleteFrom('event_lecturers').where('event_id', '=', eventId).execute();
      if (lecturerIds.length) {
        await ex
          .insertInto('event_lecturers')
          .values(lecturerIds.map((lecturer_id, position) => ({ event_id: eventId, lecturer_id, position })))
          .execute();
      }
    },

    /** How many registered and waitlisted registrations each of `eventIds` has. */
    counts: (ex: Executor, eventIds: string[]) =>
      eventIds.length === 0
        ? Promise.resolve([])
        : ex
            .selectFrom('event_registrations')
            .select(['event_id', 'status', (eb) => eb.fn.countAll<number | string>().as('n')])
            .where('event_id', 'in', eventIds)
            .where('status', '!=', 'canceled')
            .groupBy(['event_id', 'status'])
            .execute(),

    /** `userId`'s live registrations among `eventIds`, each with its place in its waitlist (waitlisted only). */
    ownRegistrations: (ex: Executor, userId: string, eventIds: string[]) =>
      eventIds.length === 0
        ? Promise.resolve([])
        : ex
            .selectFrom('event_registrations as r')
            .selectAll('r')
            .select((eb) =>
              eb
                .selectFrom('event_registrations as w')
                .select(eb.fn.countAll<number | string>().as('ahead'))
                .whereRef('w.event_id', '=', 'r.event_id')
                .where('w.status', '=', 'waitlisted')
                .whereRef('w.id', '<=', 'r.id')
                .as('position'),
            )
            .where('r.user_id', '=', userId)
            .where('r.event_id', 'in', eventIds)
            .where('r.status', '!=', 'canceled')
            .execute(),

    liveRegistration: (ex: Executor, eventId: string, userId: string) =>
      ex
        .selectFrom('event_registrations')
        .selectAll()
        .where('event_id', '=', eventId)
        .where('user_id', '=', userId)
        .where('status', '!=', 'canceled')
        .executeTakeFirst(),

    /** A person's seats and places in line for events that have not started, oldest first. */
    upcomingRegistrationsOf: (ex: Executor, userId: string, now: Timestamp) =>
      ex
        .selectFrom('event_registrations')
        .innerJoin('events', 'events.id', 'event_registrations.event_id')
        .selectAll('event_registrations')
        .where('event_registrations.user_id', '=', userId)
        .where('event_registrations.status', '!=', 'canceled')
        .where(statusAt(now), '=', 'scheduled')
        .orderBy('event_registrations.id')
        .execute(),

    registrationById: (ex: Executor, eventId: string, id: string) =>
      ex
        .selectFrom('event_registrations')
        .selectAll()
        .where('event_id', '=', eventId)
        .where('id', '=', id)
        .executeTakeFirst(),

    insertRegistration: async (ex: Executor, row: EventRegistrationsTable) => {
      await ex.insertInto('event_registrations').values(row).execute();
    },

    updateRegistration: async (ex: Executor, id: string, changes: Updateable<EventRegistrationsTable>) => {
      await ex.updateTable('event_registrations').set(changes).where('id', '=', id).execute();
    },

    countRegistered: async (ex: Executor, eventId: string) => {
      const row = await ex
        .selectFrom('event_registrations')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('event_id', '=', eventId)
        .where('status', '=', 'registered')
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** The first `n` waitlisted registrations of the event, in waitlist order. */
    firstWaitlisted: (ex: Executor, eventId: string, n: number) =>
      ex
        .selectFrom('event_registrations')
        .selectAll()
        .where('event_id', '=', eventId)
        .where('status', '=', 'waitlisted')
        .orderBy('id')
        .limit(n)
        .execute(),

    /**
     * Registrations with the person's e-mail and name, without the waitlist place (notices, reminders, attendance):
     * counting places is a query per row, too much under the event's lock at thousands of seats.
     */
    withContacts: (ex: Executor) =>
      ex
        .selectFrom('event_registrations')
        .innerJoin('users', 'users.id', 'event_registrations.user_id')
        .selectAll('event_registrations')
        .select(['users.email', 'users.name'])
        .select(sql<number | null>`null`.as('position')),

    /** Registrations with the person's e-mail and name and their place in the waitlist (lists and single reads). */
    withPeople: (ex: Executor) =>
      ex
        .selectFrom('event_registrations')
        .innerJoin('users', 'users.id', 'event_registrations.user_id')
        .selectAll('event_registrations')
        .select(['users.email', 'users.name'])
        .select((eb) =>
          eb
            .selectFrom('event_registrations as w')
            .select(eb.fn.countAll<number | string>().as('ahead'))
            .whereRef('w.event_id', '=', 'event_registrations.event_id')
            .where('w.status', '=', 'waitlisted')
            .whereRef('w.id', '<=', 'event_registrations.id')
            .as('position'),
        ),

    /** Marks the registrations reminded unless they already were; the ids this call marked (the once-only guard). */
    markReminded: async (ex: Executor, ids: string[], at: Timestamp) =>
      ids.length === 0
        ? []
        : (
            await ex
              .updateTable('event_registrations')
              .set({ reminded_at: at })
              .where('id', 'in', ids)
              .where('status', '=', 'registered')
              .where('reminded_at', 'is', null)
              .returning('id')
              .execute()
          ).map((r) => r.id),

    /** Cancels every live registration of the event (it was canceled). */
    cancelAll: async (ex: Executor, eventId: string, at: Timestamp) => {
      await ex
        .updateTable('event_registrations')
        .set({ status: 'canceled', canceled_at: at, cancel_reason: 'event_canceled' })
        .where('event_id', '=', eventId)
        .where('status', '!=', 'canceled')
        .execute();
    },

    /** A moved event's reminder is owed again to everyone registered. */
    clearReminders: async (ex: Executor, eventId: string) => {
      await ex
        .updateTable('event_registrations')
        .set({ reminded_at: null })
        .where('event_id', '=', eventId)
        .where('status', '!=', 'canceled')
        .execute();
    },

    /**
     * The events in a person's calendar feed that end after `since`: those they hold a live registration for, and
     * those they were registered for when the event was canceled (so calendars show the cancellation).
     */
    feedEvents: (ex: Executor, userId: string, since: Timestamp, now: Timestamp) =>
      eventsAt(ex, now)
        .innerJoin('event_registrations as r', 'r.event_id', 'events.id')
        .select('r.status as registration_status')
        .where('r.user_id', '=', userId)
        .where((eb) => eb.or([eb('r.status', '!=', 'canceled'), eb('r.cancel_reason', '=', 'event_canceled')]))
        .where('events.ends_at', '>', since)
        .orderBy('events.starts_at')
        .limit(500)
        .execute() as Promise<(EventRow & { registration_status: EventRegistrationsTable['status'] })[]>,

    /** What events are written with: the school's name, locale and time zone. */

    feedOf: (ex: Executor, userId: string) =>
      ex.selectFrom('calendar_feeds').selectAll().where('user_id', '=', userId).executeTakeFirst(),

    feedByHash: (ex: Executor, hash: string) =>
      ex.selectFrom('calendar_feeds').selectAll().where('token_hash', '=', hash).executeTakeFirst(),

    /** Makes the person's feed unless they have one (two first asks at once: the first write wins, both read it). */
    createFeed: async (ex: Executor, row: CalendarFeedsTable) => {
      await ex
        .insertInto('calendar_feeds')
        .values(row)
        .onConflict((oc) => oc.column('user_id').doNothing())
        .execute();
    },

    /** Replaces the person's feed secret (the old URL stops working). */
    replaceFeed: async (ex: Executor, row: CalendarFeedsTable) => {
      await ex
        .insertInto('calendar_feeds')
        .values(row)
        .onConflict((oc) =>
          oc
            .column('user_id')
            .doUpdateSet({ nonce: row.nonce, token_hash: row.token_hash, created_at: row.created_at }),
        )
        .execute();
    },
  };
}

export type EventsStore = ReturnType<typeof eventsStore>;
