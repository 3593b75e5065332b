import type { EventsTable, Executor } from '../../db/tables.ts';
import type { AreaDeps } from '../deps.ts';
import type { EventNotices } from './notices.ts';
import type { EventsStore } from './store.ts';

export const REMIND = 'events.remind';
/** The reminder goes out this long before the start. */
export const REMINDER_LEAD_MS = 24 * 3_600_000;

type Payload = { event_id: string; starts_at: string };

/**
 * The reminder before an event: a durable job due a day before the start, written with the event (and again with
 * each move). The job carries the start it was made for; once the event has moved, been canceled or started, the job
 * does nothing (the move made its own). Each seat holder is marked reminded by a conditional update in the
 * transaction that queues their message, so a job run twice, or by two instances, sends each person one reminder.
 */
export function eventReminders(deps: AreaDeps & { store: EventsStore; notices: EventNotices }) {
  const { db, clock, jobs, store, notices } = deps;

  async function remind(payload: Payload) {
    const at = clock.now().toISOString();
    const event = await store.findByIdOrSlug(db, payload.event_id, at);
    if (!event || event.id !== payload.event_id) return { sent: 0, reason: 'gone' };
    if (event.starts_at !== payload.starts_at) return { sent: 0, reason: 'moved' };
    if (event.status !== 'scheduled') return { sent: 0, reason: event.status };
    const due = await store
      .withPeople(db)
      .where('event_registrations.event_id', '=', event.id)
      .where('event_registrations.status', '=', 'registered')
      .where('event_registrations.reminded_at', 'is', null)
      .orderBy('event_registrations.id')
      .execute();
    let sent = 0;
    for (const person of due) {
      await db.transaction().execute(async (trx) => {
        if (!(await store.markReminded(trx, person.id, clock.now().toISOString()))) return;
        await notices.send(trx, 'event_reminder', event, [
          { id: person.user_id, email: person.email, name: person.name },
        ]);
        sent += 1;
      });
    }
    return { sent };
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
