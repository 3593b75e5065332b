import type { Db } from '../db/tables.ts';
import { randomToken } from '../security/tokens.ts';
import type { Clock } from '../time/clock.ts';
import { applyOnce } from './apply-once.ts';
import type { PaymentEventSink, PaymentProvider } from './provider.ts';

/** The path of the built-in test payment page of a checkout. */
export const testPaymentPath = (reference: string) => `/pay/test/${encodeURIComponent(reference)}`;

/**
 * The `test` provider: a payment page served by the school itself, clearly marked as a test, whose Pay and Decline
 * buttons report what a real provider's webhook would (through the same exactly-once path), and a refund that is
 * reported at once. It takes no money, so the configuration refuses it on an https school unless allowed. It runs no
 * subscription of its own: the subscriptions area renews them on the school's clock.
 */
export function testProvider(deps: { db: Db; clock: Clock; baseUrl: string; sink: PaymentEventSink }) {
  const { db, clock } = deps;
  const now = () => clock.now().toISOString();
  const report = (id: string, type: string, changes: Parameters<typeof applyOnce>[2]['changes']) =>
    applyOnce(db, deps.sink, { provider: 'test', id, type, at: now(), changes });

  const provider = {
    name: 'test',
    async startCheckout() {
      const reference = `tps_${randomToken(18)}`;
      return { reference, url: `${deps.baseUrl}${testPaymentPath(reference)}` };
    },
    /** Reported at once, as the refund's own amount under the request's id: nothing read, so nothing stale. */
    async refund(request) {
      await report(request.requestId, 'refund', [
        {
          kind: 'refunded',
          orderId: request.orderId,
          refundRef: request.requestId,
          amount: request.amount,
          currency: request.currency,
          requestId: request.requestId,
          at: now(),
        },
      ]);
      return { reference: request.requestId };
    },
    async changeSubscription() {},
  } satisfies PaymentProvider;

  return {
    ...provider,

    /** The order a test checkout pays for (by its reference), if it is one. */
    orderOf: (reference: string) =>
      db
        .selectFrom('orders')
        .selectAll()
        .where('provider', '=', 'test')
        .where('provider_ref', '=', reference)
        .executeTakeFirst(),

    /** The test page's reference of an order still waiting for its payment. */
    referenceOf: async (orderId: string) =>
      (
        await db
          .selectFrom('orders')
          .select('provider_ref')
          .where('id', '=', orderId)
          .where('provider', '=', 'test')
          .executeTakeFirst()
      )?.provider_ref ?? undefined,

    /** The page's Pay button: the checkout is paid (once, however often it is pressed). */
    pay: (order: { id: string; total: number; currency: string }, reference: string) =>
      report(`${reference}:completed`, 'checkout.completed', [
        {
          kind: 'checkout_paid',
          orderId: order.id,
          checkoutRef: reference,
          paymentRef: order.total > 0 ? `${reference}:charge` : null,
          amount: order.total,
          currency: order.currency,
          at: now(),
        },
      ]),

    /** The page's Decline button: the card is refused, the order fails and nothing is granted. */
    decline: (order: { id: string }, reference: string) =>
      report(`${reference}:declined`, 'checkout.declined', [
        {
          kind: 'checkout_failed',
          orderId: order.id,
          checkoutRef: reference,
          reason: 'The card was declined (test payment).',
          at: now(),
        },
      ]),
  };
}

export type TestProvider = ReturnType<typeof testProvider>;
