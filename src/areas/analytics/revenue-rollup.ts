import type { Executor, PaymentsTable } from '../../db/tables.ts';

const SLOT_MS = 15 * 60_000;

/** The 15-minute UTC slot an instant falls in, as stored in revenue_slots: `YYYY-MM-DDTHH:MM`. */
export const revenueSlotOf = (instant: string | Date): string =>
  new Date(Math.floor(new Date(instant).getTime() / SLOT_MS) * SLOT_MS).toISOString().slice(0, 16);

/**
 * Adds one ledger row to the revenue rollup (see migration 015). Call it in the transaction that records the payment,
 * so the rollup and the ledger never disagree: orders/store.ts insertPayment does.
 */
export async function addToRevenueRollup(
  ex: Executor,
  payment: Pick<PaymentsTable, 'kind' | 'amount' | 'currency' | 'created_at'>,
) {
  const charged = payment.kind === 'charge' ? payment.amount : 0;
  const refunded = payment.kind === 'refund' ? payment.amount : 0;
  await ex
    .insertInto('revenue_slots')
    .values({ slot: revenueSlotOf(payment.created_at), currency: payment.currency, charged, refunded })
    .onConflict((oc) =>
      oc.columns(['slot', 'currency']).doUpdateSet((eb) => ({
        charged: eb('revenue_slots.charged', '+', eb.ref('excluded.charged')),
        refunded: eb('revenue_slots.refunded', '+', eb.ref('excluded.refunded')),
      })),
    )
    .execute();
}
