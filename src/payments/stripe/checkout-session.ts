import type Stripe from 'stripe';
import type { CheckoutRequest } from '../provider.ts';
import { toStripeCurrency } from './client.ts';

/**
 * The Checkout Session that charges one order: a payment of its lines as sold, or a subscription to its plan price.
 * The order id rides on the session and on what Stripe makes from it (the PaymentIntent, the subscription), so every
 * later event can be traced back to the order without the school's database.
 */
export function checkoutSessionParams(
  request: CheckoutRequest,
  couponId: string | null,
): Stripe.Checkout.SessionCreateParams {
  const currency = toStripeCurrency(request.order.currency);
  const orderMetadata = { order_id: request.order.id, order_number: String(request.order.number) };
  const common = {
    customer_email: request.customer.email,
    client_reference_id: request.order.id,
    metadata: orderMetadata,
    success_url: request.successUrl,
    cancel_url: request.cancelUrl,
  };
  const recurring = request.recurring;
  if (!recurring) {
    return {
      ...common,
      mode: 'payment',
      line_items: request.lines.map((line) => ({
        quantity: 1,
        price_data: { currency, unit_amount: line.amount, product_data: { name: line.title } },
      })),
      payment_intent_data: { metadata: orderMetadata },
    };
  }
  return {
    ...common,
    mode: 'subscription',
    line_items: [
      recurring.providerPriceId
        ? { quantity: 1, price: recurring.providerPriceId }
        : {
            quantity: 1,
            price_data: {
              currency,
              unit_amount: recurring.amount,
              recurring: { interval: recurring.interval },
              product_data: { name: recurring.planName },
            },
          },
    ],
    subscription_data: {
      ...(recurring.trialDays > 0 ? { trial_period_days: recurring.trialDays } : {}),
      metadata: { ...orderMetadata, plan_id: recurring.planId, price_id: recurring.priceId },
    },
    ...(couponId ? { discounts: [{ coupon: couponId }] } : {}),
  };
}

/** The first period's discount of a subscription order, as a coupon Stripe applies once. */
export function firstPeriodCoupon(request: CheckoutRequest): Stripe.CouponCreateParams | null {
  if (!request.recurring || request.order.discount <= 0) return null;
  return {
    duration: 'once',
    amount_off: Math.min(request.order.discount, request.recurring.amount),
    currency: toStripeCurrency(request.order.currency),
    max_redemptions: 1,
    name: `Order ${request.order.number}`,
    metadata: { order_id: request.order.id },
  };
}
