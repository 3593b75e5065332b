import type { EventsTable, Executor } from '../../db/tables.ts';
import { ApiError, errors } from '../../http/errors.ts';
import type { AreaDeps } from '../deps.ts';
import { withRowLock } from '../row-locks.ts';
import type { EventNotices } from './notices.ts';
import type { EventsStore } from './store.ts';

export const REMIND = 'events.remind';
/** The reminder goes out this long before the start. */
export const REMINDER_LEAD_MS = 24 * 3_600_000;

type Payload = { event_id: string; starts_at: string };
/** How many reminders one transaction queues. */
const BATCH = 200;

/**
 * The reminder before an event: a durable job due a day before the start, written with the event (and again with
 * each move). The job carries the start it was made for; once the event has moved, been canceled or started, the job
 * does nothing (the move made its own). Each seat holder is marked reminded by a conditional update in the
 * transaction that queues their message, so a job run twice, or by two instances, sends each person one reminder.
 */
export function eventReminders(deps: AreaDeps & { store: EventsStore; notices: EventNotices }) {
  const { db, clock, jobs, store, notices } = deps;
  const gone = () => errors.notFound('event');

  /**
   * One batch under the event's row lock, which a move or a cancel also takes: the start is checked in the
   * transaction that marks and queues, so a move landing mid-run can never have its new reminder skipped for people
   * told the old time. Undefined once there is nothing left to send (or the event moved, was canceled or started).
   */
  const batch = (payload: Payload) =>
    withRowLock(db, 'events', payload.event_id, gone, async (trx, event) => {
      const at = clock.now().toISOString();
      if (event.starts_at !== payload.starts_at) return { stop: 'moved' };
      if (event.canceled_at !== null) return { stop: 'canceled' };
      if (event.starts_at <= at) return { stop: 'started' };
      const due = await store
        .withContacts(trx)
        .where('event_registrations.event_id', '=', event.id)
        .where('event_registrations.status', '=', 'registered')
        .where('event_registrations.reminded_at', 'is', null)
        .orderBy('event_registrations.id')
        .limit(BATCH)
        .execute();
      const marked = new Set(
        await store.markReminded(
          trx,
          due.map((p) => p.id),
          at,
        ),
      );
      const people = due.filter((p) => marked.has(p.id)).map((p) => ({ id: p.user_id, email: p.email, name: p.name }));
      await notices.send(trx, 'event_reminder', event, people);
      return { sent: people.length, more: due.length === BATCH };
    });

  async function remind(payload: Payload) {
    let sent = 0;
    for (;;) {
      let result: Awaited<ReturnType<typeof batch>>;
      try {
        result = await batch(payload);
      } catch (error) {
        if (error instanceof ApiError && error.code === 'not_found') return { sent, reason: 'gone' };
        throw error;
      }
      if ('stop' in result) return { sent, reason: result.stop };
      sent += result.sent;
      if (!result.more) return { sent };
    }
  }
  jobs.handle(REMIND, remind);

  return {
    remind,
    /** Queues the reminder for the event's current start, in the transaction that set it. */
    async schedule(trx: Executor, event: Pick<EventsTable, 'id' | 'starts_at'>) {
      const payload: Payload = { event_id: event.id, starts_at: event.starts_at };
      await jobs.enqueue(trx, REMIND, payload, { runAt: new Date(Date.parse(event.starts_at) - REMINDER_LEAD_MS) });
    },
  };
}
