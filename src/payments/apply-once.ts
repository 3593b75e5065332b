import type { Db } from '../db/tables.ts';
import type { PaymentEvent, PaymentEventSink } from './provider.ts';

/**
 * Applies a provider's event exactly once: the row in payment_events and the changes it causes commit together, so a
 * copy of the event (a re-sent webhook, ten concurrent deliveries) either waits for the first and finds it recorded,
 * or fails on the primary key and changes nothing. Returns whether this call applied it.
 */
export async function applyOnce(
  db: Db,
  sink: PaymentEventSink,
  event: { provider: 'test' | 'stripe'; id: string; type: string; at: string; changes: PaymentEvent[] },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('payment_events')
      .values({ provider: event.provider, event_id: event.id, type: event.type, received_at: event.at })
      .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
      .returning('event_id')
      .executeTakeFirst();
    if (!inserted) return false;
    for (const change of event.changes) await sink(trx, change);
    return true;
  });
}
