import type { Selectable } from 'kysely';
import { newId } from '../../db/ids.ts';
import type { Executor, OrdersTable } from '../../db/tables.ts';
import type { PaymentEvent, ProviderSubscriptionState } from '../../payments/provider.ts';
import type { Clock } from '../../time/clock.ts';
import type { StudentsService } from '../students/service.ts';
import type { CouponPort, ProductPort, SubscriptionPort } from './ports.ts';
import type { OrdersStore } from './store.ts';

type OrderRow = Selectable<OrdersTable>;

/** Tells the buyer what they bought, in the transaction that made the order paid. */
export type ReceiptMail = (trx: Executor, orderId: string) => Promise<void>;

/**
 * What a payment does, and what a refund undoes, always inside the transaction that changes the order's state: the
 * ledger's charge, the order paid, the access it grants (the course enrollment with source "order", the product's
 * grant, the plan's subscription), the coupon's redemption confirmed and the receipt queued — or none of them.
 */
export function fulfilment(deps: {
  clock: Clock;
  store: OrdersStore;
  students: Pick<StudentsService, 'openCourse' | 'closeCourse'>;
  products: Pick<ProductPort, 'grant' | 'revokeForOrder'> | undefined;
  subscriptions: Pick<SubscriptionPort, 'startFromOrder' | 'endForRefund' | 'syncAccess'> | undefined;
  coupons: Pick<CouponPort, 'confirm' | 'release'> | undefined;
  receipt: ReceiptMail;
}) {
  const { store } = deps;

  async function grant(trx: Executor, order: OrderRow, subscription: ProviderSubscriptionState | undefined) {
    for (const item of await store.items(trx, [order.id])) {
      if (item.item_type === 'course') {
        await deps.students.openCourse(trx, order.user_id, item.item_id, { source: 'order', expiresAt: null });
      } else if (item.item_type === 'product') {
        await deps.products?.grant(trx, {
          productId: item.item_id,
          userId: order.user_id,
          source: 'order',
          orderId: order.id,
        });
      } else if (item.price_id && deps.subscriptions && order.kind === 'purchase') {
        const started = await deps.subscriptions.startFromOrder(trx, {
          userId: order.user_id,
          priceId: item.price_id,
          orderId: order.id,
          provider: order.provider,
          providerRef: subscription?.reference ?? null,
          state: subscription,
        });
        await store.updateOrder(trx, order.id, { subscription_id: started.id });
      }
    }
  }

  async function takeBack(trx: Executor, order: OrderRow) {
    for (const item of await store.items(trx, [order.id])) {
      if (item.item_type === 'course') await deps.students.closeCourse(trx, order.user_id, item.item_id, 'order');
    }
    await deps.products?.revokeForOrder(trx, order.id);
    await deps.subscriptions?.endForRefund(trx, order.id);
    // Access is the union of what grants it: what the order gave and a plan the person holds still gives reopens.
    await deps.subscriptions?.syncAccess(trx, order.user_id);
  }

  /** Makes a pending (or, when money arrived late, a failed or canceled) order paid, with everything that follows. */
  async function markPaid(
    trx: Executor,
    order: OrderRow,
    payment: { paymentRef: string | null; amount: number; at: string; subscription?: ProviderSubscriptionState },
  ) {
    await store.updateOrder(trx, order.id, {
      status: 'paid',
      paid_at: payment.at,
      failure_reason: null,
      updated_at: payment.at,
    });
    if (payment.amount > 0 && order.provider !== 'none')
      await store.insertPayment(trx, {
        id: newId('pay'),
        order_id: order.id,
        kind: 'charge',
        amount: payment.amount,
        currency: order.currency,
        provider: order.provider,
        provider_ref: payment.paymentRef,
        created_at: payment.at,
      });
    await grant(trx, order, payment.subscription);
    await deps.coupons?.confirm(trx, order.id);
    await deps.receipt(trx, order.id);
  }

  /**
   * Records one refund in the ledger, once (by the provider's reference), and never past what was paid: the order's
   * row lock is held, so reports of several refunds arriving at once are summed, not overwritten. A full refund takes
   * back what the order granted.
   */
  async function refunded(trx: Executor, order: OrderRow, event: Extract<PaymentEvent, { kind: 'refunded' }>) {
    let current = order;
    if (current.status === 'pending' || current.status === 'failed' || current.status === 'canceled') {
      // The refund's report came before the payment's: the money was taken, so the order was paid first.
      await markPaid(trx, current, { paymentRef: null, amount: Number(current.total), at: event.at });
      current = (await store.findOrder(trx, order.id)) as OrderRow;
    }
    if (event.requestId)
      await store.updateRefundRequest(trx, event.requestId, {
        status: 'applied',
        provider_ref: event.refundRef,
        updated_at: event.at,
      });
    if (await store.refundRecorded(trx, order.id, event.refundRef)) return;
    const already = Number(current.refunded_amount);
    const total = Number(current.total);
    const amount = Math.min(event.amount, total - already);
    if (amount <= 0) return;
    await store.insertPayment(trx, {
      id: newId('pay'),
      order_id: order.id,
      kind: 'refund',
      amount,
      currency: current.currency,
      provider: current.provider === 'none' ? 'test' : current.provider,
      provider_ref: event.refundRef,
      created_at: event.at,
    });
    const full = already + amount >= total;
    await store.updateOrder(trx, order.id, {
      refunded_amount: already + amount,
      status: full ? 'refunded' : 'partially_refunded',
      updated_at: event.at,
    });
    if (full) await takeBack(trx, current);
  }

  return {
    markPaid,

    /** Applies an order's provider event (checkout paid, failed or expired; refunds) under the order's row lock. */
    async apply(trx: Executor, event: PaymentEvent) {
      if (
        event.kind !== 'checkout_paid' &&
        event.kind !== 'checkout_failed' &&
        event.kind !== 'checkout_expired' &&
        event.kind !== 'refunded'
      )
        return false;
      const order = await store.lockOrder(trx, event.orderId);
      if (!order) return true;
      if (event.kind === 'refunded') {
        await refunded(trx, order, event);
      } else if (event.kind === 'checkout_paid') {
        if (order.status === 'pending' || order.status === 'failed' || order.status === 'canceled')
          await markPaid(trx, order, {
            paymentRef: event.paymentRef,
            amount: event.amount,
            at: event.at,
            subscription: event.subscription,
          });
      } else if (order.status === 'pending') {
        await store.updateOrder(trx, order.id, {
          status: event.kind === 'checkout_failed' ? 'failed' : 'canceled',
          failure_reason: event.kind === 'checkout_failed' ? event.reason : 'The checkout expired before it was paid.',
          updated_at: event.at,
        });
        await deps.coupons?.release(trx, order.id);
      }
      return true;
    },
  };
}

export type Fulfilment = ReturnType<typeof fulfilment>;
