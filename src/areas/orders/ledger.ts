import type { Insertable } from 'kysely';
import { newId } from '../../db/ids.ts';
import type { Executor, OrdersTable } from '../../db/tables.ts';
import type { RenewalCharge } from '../subscriptions/service.ts';
import type { OrdersStore } from './store.ts';

/**
 * Records what a renewal took in the transaction that renews: the order (numbered like every order), its item and the
 * charge in the ledger. Returns the order, or undefined when the provider's reference was recorded before.
 */
export async function recordRenewal(trx: Executor, store: OrdersStore, charge: RenewalCharge) {
  if (charge.paymentRef && (await store.paymentRecorded(trx, charge.provider, charge.paymentRef))) return undefined;
  const orderId = newId('ord');
  const order: Insertable<OrdersTable> = {
    id: orderId,
    number: await store.nextNumber(trx),
    user_id: charge.userId,
    kind: 'renewal',
    status: 'paid',
    currency: charge.price.currency,
    subtotal: charge.price.amount,
    discount: 0,
    total: charge.price.amount,
    refunded_amount: 0,
    coupon_id: null,
    coupon_code: null,
    provider: charge.provider,
    provider_ref: charge.paymentRef,
    subscription_id: charge.subscriptionId,
    failure_reason: null,
    paid_at: charge.at,
    created_at: charge.at,
    updated_at: charge.at,
  };
  await store.insertOrder(trx, order);
  await store.insertPayment(trx, {
    id: newId('pay'),
    order_id: orderId,
    kind: 'charge',
    amount: charge.price.amount,
    currency: charge.price.currency,
    provider: charge.provider,
    provider_ref: charge.paymentRef,
    created_at: charge.at,
  });
  await store.insertItems(trx, [
    {
      id: newId('oit'),
      order_id: orderId,
      item_type: 'plan',
      item_id: charge.plan.id,
      price_id: charge.price.id,
      title: charge.plan.name,
      unit_amount: charge.price.amount,
      discount: 0,
      amount: charge.price.amount,
      currency: charge.price.currency,
    },
  ]);
  return order;
}

/** The ledger as the subscriptions area records renewals in it (its RenewalLedger port). */
export const renewalLedger = (store: OrdersStore) => ({
  recordRenewal: (trx: Executor, charge: RenewalCharge) => recordRenewal(trx, store, charge),
});
