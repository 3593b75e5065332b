import type Stripe from 'stripe';
import type { Db } from '../../db/tables.ts';
import { ApiError, errors } from '../../http/errors.ts';
import type { CheckoutRequest, PaymentProvider, RefundRequest, SubscriptionChange } from '../provider.ts';
import { checkoutSessionParams, firstPeriodCoupon } from './checkout-session.ts';
import { idOf, toStripeCurrency } from './client.ts';
import { stripeStore } from './store.ts';

export type StripeProviderDeps = {
  stripe: Stripe;
  db: Db;
  /** Keeps the Stripe Price made for a plan price, so it is made once; by default in plan_prices.provider_price_id. */
  savePriceId?: (priceId: string, providerPriceId: string) => Promise<void>;
  log?: (message: string, fields: Record<string, unknown>) => void;
};

/**
 * The `stripe` payment provider: Checkout Sessions for one-time orders and subscriptions, refunds, and subscription
 * changes mirrored to Stripe. Nothing here marks anything paid, refunded or changed in the school: the webhook does,
 * when Stripe's event arrives (see webhook.ts).
 */
export function stripeProvider(deps: StripeProviderDeps): PaymentProvider {
  const { stripe } = deps;
  const store = stripeStore();

  /** Stripe's answer to a call failing: the operator's log gets Stripe's words, the caller one sentence. */
  const calling = async <T>(what: string, call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      if (error instanceof ApiError) throw error;
      const e = error as { type?: string; code?: string; message?: string; requestId?: string; statusCode?: number };
      deps.log?.(`Stripe refused or did not answer: ${what}`, {
        type: e.type,
        code: e.code,
        status: e.statusCode,
        request_id: e.requestId,
        detail: e.message,
      });
      throw new ApiError('service_unavailable', 'The payment provider could not take this request now; try again.');
    }
  };

  async function startCheckout(request: CheckoutRequest) {
    return calling(`checkout of order ${request.order.id}`, async () => {
      const couponParams = firstPeriodCoupon(request);
      const coupon = couponParams
        ? await stripe.coupons.create(couponParams, { idempotencyKey: `lyceum-coupon-${request.order.id}` })
        : null;
      const session = await stripe.checkout.sessions.create(checkoutSessionParams(request, coupon?.id ?? null), {
        idempotencyKey: `lyceum-checkout-${request.order.id}`,
      });
      if (!session.url) throw new Error(`Checkout Session ${session.id} has no url`);
      return { reference: session.id, url: session.url };
    });
  }

  /** The PaymentIntent that took an order's money: the session's own, or the one that paid a subscription's first invoice. */
  async function chargedPaymentIntent(checkoutRef: string): Promise<string | null> {
    const session = await stripe.checkout.sessions.retrieve(checkoutRef, { expand: ['invoice.payments'] });
    const direct = idOf(session.payment_intent);
    if (direct) return direct;
    const invoice = typeof session.invoice === 'object' ? session.invoice : null;
    const paid = invoice?.payments?.data.find((p) => p.status === 'paid' && p.payment.type === 'payment_intent');
    return idOf(paid?.payment.payment_intent);
  }

  async function refund(request: RefundRequest) {
    return calling(`refund of order ${request.orderId}`, async () => {
      const paymentIntent = await chargedPaymentIntent(request.checkoutRef);
      if (!paymentIntent) throw errors.conflict('Nothing was charged for this order, so nothing can be refunded.');
      // The school's refund request names the refund: a repeated call (a retry after a lost answer) is one refund,
      // and its webhook names the request it answers.
      const refund = await stripe.refunds.create(
        {
          payment_intent: paymentIntent,
          amount: request.amount,
          metadata: { order_id: request.orderId, refund_request_id: request.requestId },
        },
        { idempotencyKey: `lyceum-refund-${request.requestId}` },
      );
      return { reference: refund.id };
    });
  }

  /** The Stripe Price of a plan price, made (once) when the plan price has none yet. */
  async function stripePriceOf(price: Extract<SubscriptionChange, { kind: 'change_price' }>['price']) {
    if (price.providerPriceId) return price.providerPriceId;
    const plan = await store.planPrice(deps.db, price.id);
    if (!plan || plan.interval === 'one_time') throw errors.notFound('recurring plan price');
    const created = await stripe.prices.create(
      {
        currency: toStripeCurrency(price.currency),
        unit_amount: price.amount,
        recurring: { interval: plan.interval },
        product_data: { name: plan.plan_name },
        metadata: { price_id: price.id },
      },
      { idempotencyKey: `lyceum-price-${price.id}` },
    );
    await (deps.savePriceId ?? ((id, ref) => store.savePriceId(deps.db, id, ref)))(price.id, created.id);
    return created.id;
  }

  async function changeSubscription(reference: string, change: SubscriptionChange) {
    return calling(`${change.kind} of subscription ${reference}`, async () => {
      switch (change.kind) {
        case 'cancel':
          if (change.atPeriodEnd) await stripe.subscriptions.update(reference, { cancel_at_period_end: true });
          else await stripe.subscriptions.cancel(reference);
          return;
        case 'resume':
          await stripe.subscriptions.update(reference, { cancel_at_period_end: false, pause_collection: '' });
          return;
        case 'pause':
          await stripe.subscriptions.update(reference, { pause_collection: { behavior: 'void' } });
          return;
        case 'change_price': {
          const subscription = await stripe.subscriptions.retrieve(reference);
          const item = subscription.items.data[0];
          if (!item) throw errors.notFound('subscription item');
          const price = await stripePriceOf(change.price);
          // No proration: the period already paid stays as it was; the next one is charged at the new price.
          await stripe.subscriptions.update(reference, {
            items: [{ id: item.id, price }],
            proration_behavior: 'none',
          });
          return;
        }
      }
    });
  }

  return { name: 'stripe', startCheckout, refund, changeSubscription };
}
