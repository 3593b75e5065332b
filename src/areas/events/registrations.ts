import { newId } from '../../db/ids.ts';
import type { EventRegistrationsTable, Executor } from '../../db/tables.ts';
import { errors, type FieldError } from '../../http/errors.ts';
import { isStaff, type Principal } from '../../http/principal.ts';
import type { AreaDeps } from '../deps.ts';
import { paginate } from '../pagination.ts';
import type { References } from '../references.ts';
import { lockRow, withRowLock } from '../row-locks.ts';
import type { StudentsService } from '../students/service.ts';
import type { MembershipRule } from '../subscriptions/service.ts';
import type { EventNotices } from './notices.ts';
import type { AttendanceInput, Event, Registration, RegistrationCreate, RegistrationListQuery } from './schema.ts';
import type { EventRow, EventsStore } from './store.ts';

type RegistrationRow = EventRegistrationsTable & { email: string; name: string; position: number | string | null };

function toRegistration(row: RegistrationRow): Registration {
  return {
    id: row.id,
    event_id: row.event_id,
    user_id: row.user_id,
    email: row.email,
    name: row.name,
    status: row.status,
    waitlist_position: row.status === 'waitlisted' ? Number(row.position) : null,
    attended: row.attended === null ? null : Number(row.attended) === 1,
    registered_at: row.registered_at,
    promoted_at: row.promoted_at,
    canceled_at: row.canceled_at,
  };
}

/**
 * Who holds a seat at an event and who waits for one. Every change to an event's registrations takes the event's row
 * lock, so the seat count a registration reads is still true when it writes: 20 people registering at once for 5
 * seats give 5 seats and 15 places in line, and two seats freed at once promote the first two in line, each once.
 * The waitlist is first come, first served (id order); a freed seat goes to the first in line in the transaction that
 * freed it. Lowering the capacity bumps nobody; raising it promotes in order.
 */
export function eventRegistrations(
  deps: AreaDeps & {
    store: EventsStore;
    notices: EventNotices;
    memberships: Pick<MembershipRule, 'activePlanIds'>;
    students: Pick<StudentsService, 'holdsCourse'>;
    /** Which of the people, courses, plans and lecturers an event names exist. */
    references: References;
    find: (key: string, ex?: Executor) => Promise<EventRow>;
    reread: (trx: Executor, id: string) => Promise<EventRow>;
    toEvent: (ex: Executor, principal: Principal, row: EventRow) => Promise<Event>;
  },
) {
  const { db, clock, store, notices, memberships, find, reread, toEvent } = deps;
  const now = () => clock.now().toISOString();
  const notFound = () => errors.notFound('event');

  const registrationRow = async (ex: Executor, id: string) =>
    (await store.withPeople(ex).where('event_registrations.id', '=', id).executeTakeFirstOrThrow()) as RegistrationRow;

  /** Everyone registered or waitlisted, as people to write to: those a move or a cancel is told to. */
  const people = async (ex: Executor, eventId: string, only?: string[]) => {
    let q = store
      .withContacts(ex)
      .where('event_registrations.event_id', '=', eventId)
      .where('event_registrations.status', '!=', 'canceled');
    if (only) q = q.where('event_registrations.id', 'in', only);
    return (await q.orderBy('event_registrations.id').execute()).map((row) => ({
      id: row.user_id,
      email: row.email,
      name: row.name,
    }));
  };

  /** Gives the free seats to the first in line, in order, and tells them. */
  async function promote(trx: Executor, event: EventRow) {
    const free =
      event.capacity === null
        ? Number.MAX_SAFE_INTEGER
        : Number(event.capacity) - (await store.countRegistered(trx, event.id));
    if (free <= 0) return;
    const next = await store.firstWaitlisted(trx, event.id, Math.min(free, 100_000));
    const at = now();
    for (const row of next) await store.updateRegistration(trx, row.id, { status: 'registered', promoted_at: at });
    if (next.length)
      await notices.send(
        trx,
        'event_promoted',
        event,
        await people(
          trx,
          event.id,
          next.map((r) => r.id),
        ),
      );
  }

  /** Why `userId` may not register for `event` (a course or plan condition), or undefined when they may. */
  async function ineligible(ex: Executor, event: EventRow, userId: string): Promise<string | undefined> {
    if (event.course_id) {
      if (!(await deps.students.holdsCourse(ex, userId, event.course_id)))
        return 'Only students enrolled in its course may register for this event.';
    }
    if (event.plan_id && !(await memberships.activePlanIds(ex, userId, now())).includes(event.plan_id)) {
      return 'Only members holding its plan may register for this event.';
    }
    return undefined;
  }

  /**
   * Registers `userId` under the event's lock: a seat while there is one, else a place in line. A live registration
   * is returned as it is (registering again changes nothing). Only before the start, and not for a canceled event.
   */
  async function place(trx: Executor, eventId: string, userId: string, checkEligible: boolean) {
    const event = await reread(trx, eventId);
    if (event.status === 'canceled') throw errors.conflict('This event is canceled.');
    if (event.status !== 'scheduled')
      throw errors.conflict(`This event has ${event.status === 'live' ? 'started' : 'ended'}; registration is closed.`);
    const existing = await store.liveRegistration(trx, eventId, userId);
    if (existing) return { created: false, id: existing.id, event };
    const reason = checkEligible ? await ineligible(trx, event, userId) : undefined;
    if (reason) throw errors.conflict(reason);
    const seated = event.capacity === null || (await store.countRegistered(trx, eventId)) < Number(event.capacity);
    const row: EventRegistrationsTable = {
      id: newId('reg'),
      event_id: eventId,
      user_id: userId,
      status: seated ? 'registered' : 'waitlisted',
      attended: null,
      registered_at: now(),
      promoted_at: null,
      canceled_at: null,
      cancel_reason: null,
      reminded_at: null,
    };
    await store.insertRegistration(trx, row);
    const written = await registrationRow(trx, row.id);
    await notices.send(trx, seated ? 'event_registered' : 'event_waitlisted', event, [
      { id: userId, email: written.email, name: written.name, position: Number(written.position) },
    ]);
    return { created: true, id: row.id, event };
  }

  /** Ends a live registration under the event's lock and gives a freed seat to the first in line (before the start). */
  async function release(trx: Executor, event: EventRow, registration: EventRegistrationsTable) {
    await store.updateRegistration(trx, registration.id, {
      status: 'canceled',
      canceled_at: now(),
      cancel_reason: 'unregistered',
    });
    if (registration.status === 'registered' && event.status === 'scheduled') await promote(trx, event);
  }

  const signedIn = (principal: Principal) => {
    if (principal.kind !== 'user') throw errors.accessDenied('Sign in to register for events.');
    return principal.userId;
  };

  /**
   * Ends every seat and place in line `userId` holds for an event that has not started, each under its event's lock,
   * a freed seat going to the first in line: part of deleting their account, in its transaction. Past registrations
   * stay, as the record of who came.
   */
  async function releaseAllOf(trx: Executor, userId: string) {
    for (const { event_id: id } of await store.upcomingRegistrationsOf(trx, userId, now())) {
      if (!(await lockRow(trx, 'events', id))) continue;
      // Read again under the lock: the seat may have been given up, or the event begun, meanwhile.
      const [event, live] = [await reread(trx, id), await store.liveRegistration(trx, id, userId)];
      if (event.status === 'scheduled' && live) await release(trx, event, live);
    }
  }

  return {
    promote,
    people,
    releaseAllOf,

    operations: {
      /** The caller registers themselves (staff and owners need meet no course or plan condition). */
      async register(principal: Principal, key: string): Promise<Event> {
        const userId = signedIn(principal);
        const { id } = await find(key);
        return withRowLock(db, 'events', id, notFound, async (trx) => {
          const { event } = await place(trx, id, userId, !isStaff(principal));
          return toEvent(trx, principal, event);
        });
      },

      /** The caller gives up their seat or place in line (before the start); not registered: nothing changes. */
      async unregister(principal: Principal, key: string): Promise<Event> {
        const userId = signedIn(principal);
        const { id } = await find(key);
        return withRowLock(db, 'events', id, notFound, async (trx) => {
          const event = await reread(trx, id);
          const mine = await store.liveRegistration(trx, id, userId);
          if (mine) {
            if (event.status !== 'scheduled') {
              throw errors.conflict(
                `This event has ${event.status === 'live' ? 'started' : 'ended'}; it can no longer be left.`,
              );
            }
            await release(trx, event, mine);
          }
          return toEvent(trx, principal, await reread(trx, id));
        });
      },

      /** Staff register a person: 201 with a new registration, 200 with the live one they had. */
      async addRegistration(eventId: string, input: RegistrationCreate) {
        // The event first: an unknown event is 404 whatever the body says (read before the lock: SQLite's one
        // connection is the writer's).
        await find(eventId);
        if (!(await deps.references.existing(db, 'user', [input.user_id])).has(input.user_id)) {
          const message = `No user ${input.user_id}.`;
          throw errors.invalidRequest(message, [{ field: 'user_id', code: 'not_found', message }]);
        }
        return withRowLock(db, 'events', eventId, notFound, async (trx) => {
          const placed = await place(trx, eventId, input.user_id, false);
          const item = toRegistration(await registrationRow(trx, placed.id));
          await deps.writes.made(trx, item, placed.created ? 'created' : 'existing');
          return { created: placed.created, item };
        });
      },

      /** Staff end a registration (kept as history, canceled); ending it again changes nothing. */
      removeRegistration: (eventId: string, registrationId: string) =>
        withRowLock(db, 'events', eventId, notFound, async (trx) => {
          const row = await store.registrationById(trx, eventId, registrationId);
          if (!row) throw errors.notFound('registration');
          if (row.status !== 'canceled') await release(trx, await reread(trx, eventId), row);
          return toRegistration(await registrationRow(trx, registrationId));
        }),

      /** An event's registrations, newest first like every list: staff see all of them, anyone else only their own. */
      async listRegistrations(principal: Principal, key: string, query: RegistrationListQuery) {
        const event = await find(key);
        let q = store.withPeople(db).where('event_registrations.event_id', '=', event.id);
        if (query.status) q = q.where('event_registrations.status', '=', query.status);
        if (query.attended !== undefined) q = q.where('event_registrations.attended', '=', query.attended ? 1 : 0);
        if (query.user_id) q = q.where('event_registrations.user_id', '=', query.user_id);
        if (!isStaff(principal)) {
          q = q.where('event_registrations.user_id', '=', principal.kind === 'user' ? principal.userId : '');
        }
        const page = await paginate(q, query, 'event_registrations.id', 'event_registrations.registered_at');
        return { ...page, data: page.data.map((row) => toRegistration(row as RegistrationRow)) };
      },

      /**
       * Records who came, once the event has started: each record names a registration (by its id, or by the
       * person's user id) that is not canceled. All or nothing: any record naming none is a 400 naming it.
       */
      recordAttendance: (eventId: string, input: AttendanceInput) =>
        withRowLock(db, 'events', eventId, notFound, async (trx) => {
          const event = await reread(trx, eventId);
          if (event.status === 'scheduled' || event.status === 'canceled') {
            throw errors.conflict(`Attendance is recorded once an event has started; this one is ${event.status}.`);
          }
          // Seat holders only: a waitlisted person had no seat to come to (analytics counts seat holders).
          const rows = (await store
            .withContacts(trx)
            .where('event_registrations.event_id', '=', eventId)
            .where('event_registrations.status', '=', 'registered')
            .execute()) as RegistrationRow[];
          const byId = new Map(rows.map((r) => [r.id, r]));
          const byUser = new Map(rows.map((r) => [r.user_id, r]));
          const fields: FieldError[] = [];
          const named = input.records.map((record, i) => {
            const field = `records[${i}]`;
            if ((record.registration_id === undefined) === (record.user_id === undefined)) {
              fields.push({
                field,
                code: 'one_of',
                message: `${field}: give registration_id or user_id (one of them).`,
              });
              return undefined;
            }
            const row = record.registration_id ? byId.get(record.registration_id) : byUser.get(record.user_id ?? '');
            if (!row) fields.push({ field, code: 'not_found', message: `${field}: nobody holding a seat by that id.` });
            return row && { row, attended: record.attended };
          });
          if (fields.length) throw errors.invalidRequest(fields.map((f) => f.message).join(' '), fields);
          const data: Registration[] = [];
          for (const entry of named) {
            if (!entry) continue;
            const attended = entry.attended ? 1 : 0;
            await store.updateRegistration(trx, entry.row.id, { attended });
            entry.row.attended = attended;
            data.push(toRegistration(entry.row));
          }
          return { data };
        }),
    },
  };
}
