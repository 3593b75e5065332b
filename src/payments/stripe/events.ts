import type Stripe from 'stripe';
import type { PaymentEvent, ProviderSubscriptionState } from '../provider.ts';
import { fromStripeCurrency, fromStripeTime, idOf } from './client.ts';

/** The objects an event names but does not carry, read from Stripe's API when a translation needs them. */
export type StripeLookups = {
  subscription(id: string): Promise<Stripe.Subscription>;
  paymentIntent(id: string): Promise<Stripe.PaymentIntent>;
  /** The invoice a PaymentIntent paid, if it paid one (a subscription's charge). */
  invoiceOfPaymentIntent(id: string): Promise<Stripe.Invoice | null>;
  /** A charge's refunds, newest first (as Stripe lists them). */
  refundsOfCharge(chargeId: string): Promise<Stripe.Refund[]>;
};

/**
 * What a Stripe event means to the school: zero or more PaymentEvents. Pure but for the lookups it is given; an event
 * it does not act on (another type, an unpaid session, a renewal's refund) is nothing.
 */
export async function toPaymentEvents(event: Stripe.Event, lookups: StripeLookups): Promise<PaymentEvent[]> {
  const at = fromStripeTime(event.created);
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return sessionPaid(event.data.object, at, lookups);
    case 'checkout.session.async_payment_failed': {
      const session = event.data.object;
      const orderId = orderOfSession(session);
      return orderId
        ? [
            {
              kind: 'checkout_failed',
              orderId,
              checkoutRef: session.id,
              reason: 'The payment did not go through.',
              at,
            },
          ]
        : [];
    }
    case 'checkout.session.expired': {
      const session = event.data.object;
      const orderId = orderOfSession(session);
      return orderId ? [{ kind: 'checkout_expired', orderId, checkoutRef: session.id, at }] : [];
    }
    case 'charge.refunded':
      return chargeRefunded(event.data.object, at, lookups);
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const state = subscriptionState(event.data.object, at);
      return state ? [{ kind: 'subscription_state', state }] : [];
    }
    case 'invoice.paid':
      return renewalPaid(event.data.object, at);
    case 'invoice.payment_failed': {
      const invoice = event.data.object;
      const subscriptionRef = subscriptionOfInvoice(invoice);
      // The first invoice is paid through Checkout, whose own events tell how that went.
      if (!subscriptionRef || invoice.billing_reason === 'subscription_create') return [];
      return [{ kind: 'renewal_failed', subscriptionRef, invoiceRef: invoice.id, at }];
    }
    default:
      return [];
  }
}

const orderOfSession = (session: Stripe.Checkout.Session) =>
  session.metadata?.order_id ?? session.client_reference_id ?? null;

async function sessionPaid(
  session: Stripe.Checkout.Session,
  at: string,
  lookups: StripeLookups,
): Promise<PaymentEvent[]> {
  const orderId = orderOfSession(session);
  // `unpaid`: a delayed payment method (a bank debit) is still on its way; async_payment_succeeded will tell.
  if (!orderId || (session.payment_status !== 'paid' && session.payment_status !== 'no_payment_required')) return [];
  const amount = session.amount_total ?? 0;
  const base = {
    kind: 'checkout_paid',
    orderId,
    checkoutRef: session.id,
    amount,
    currency: fromStripeCurrency(session.currency ?? ''),
    at,
  } as const;
  if (session.mode !== 'subscription') return [{ ...base, paymentRef: idOf(session.payment_intent) }];
  const subscriptionId = idOf(session.subscription);
  if (!subscriptionId) return [];
  const subscription =
    typeof session.subscription === 'object' && session.subscription
      ? session.subscription
      : await lookups.subscription(subscriptionId);
  const state = subscriptionState(subscription, at);
  return [
    {
      ...base,
      // Nothing was charged during a trial; else the subscription's first invoice is the money taken.
      paymentRef: amount > 0 ? (idOf(session.invoice) ?? idOf(subscription.latest_invoice)) : null,
      ...(state ? { subscription: state } : {}),
    },
  ];
}

/**
 * A subscription as Stripe reports it. `incomplete` (the first payment not made yet) is no state of the school's:
 * Checkout's own events say whether it was paid.
 */
export function subscriptionState(subscription: Stripe.Subscription, at: string): ProviderSubscriptionState | null {
  const status = schoolStatus(subscription);
  const item = subscription.items.data[0];
  if (!status || !item) return null;
  return {
    reference: subscription.id,
    status,
    currentPeriodStart: fromStripeTime(item.current_period_start),
    currentPeriodEnd: fromStripeTime(item.current_period_end),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    trialEnd: subscription.trial_end ? fromStripeTime(subscription.trial_end) : null,
    providerPriceId: item.price.id,
    at,
  };
}

function schoolStatus(subscription: Stripe.Subscription): ProviderSubscriptionState['status'] | null {
  switch (subscription.status) {
    case 'trialing':
      return 'trialing';
    case 'active':
      // Stripe keeps a subscription whose collection is paused "active"; to the school it gives no access then.
      return subscription.pause_collection ? 'paused' : 'active';
    case 'past_due':
      return 'past_due';
    case 'paused':
      return 'paused';
    case 'canceled':
    case 'unpaid':
    case 'incomplete_expired':
      return 'canceled';
    default:
      return null;
  }
}

const subscriptionOfInvoice = (invoice: Stripe.Invoice) => idOf(invoice.parent?.subscription_details?.subscription);

function renewalPaid(invoice: Stripe.Invoice, at: string): PaymentEvent[] {
  const subscriptionRef = subscriptionOfInvoice(invoice);
  if (!subscriptionRef || invoice.billing_reason !== 'subscription_cycle') return [];
  // A cycle invoice's own period is the one that just ended; its subscription line names the period it pays for.
  const line = invoice.lines.data.find((l) => l.parent?.type === 'subscription_item_details') ?? invoice.lines.data[0];
  return [
    {
      kind: 'renewal_paid',
      subscriptionRef,
      invoiceRef: invoice.id,
      amount: invoice.amount_paid,
      currency: fromStripeCurrency(invoice.currency),
      periodStart: fromStripeTime(line?.period.start ?? invoice.period_end),
      periodEnd: fromStripeTime(line?.period.end ?? invoice.period_end),
      at: invoice.status_transitions.paid_at ? fromStripeTime(invoice.status_transitions.paid_at) : at,
    },
  ];
}

/**
 * Each refund of the charge, oldest first, as one report: the ledger records each once by its id, so the event of
 * an earlier refund arriving late, or a copy of one, counts nothing, and refunds made in Stripe's dashboard are
 * recorded too. Failed and canceled refunds gave nothing back.
 */
async function chargeRefunded(charge: Stripe.Charge, at: string, lookups: StripeLookups): Promise<PaymentEvent[]> {
  const orderId = await orderOfCharge(charge, lookups);
  if (!orderId) return [];
  const listed = charge.refunds && !charge.refunds.has_more ? charge.refunds.data : undefined;
  const refunds = (listed ?? (await lookups.refundsOfCharge(charge.id)))
    .filter((r) => r.status !== 'failed' && r.status !== 'canceled')
    .reverse();
  // Stripe lists a refund before it reports the charge refunded; none means the event is ahead of the API: fail, so
  // Stripe sends it again later.
  if (refunds.length === 0 && charge.amount_refunded > 0)
    throw new Error(`Stripe reports charge ${charge.id} refunded but lists no refund of it`);
  return refunds.map((refund) => ({
    kind: 'refunded' as const,
    orderId,
    refundRef: refund.id,
    amount: refund.amount,
    currency: fromStripeCurrency(refund.currency),
    requestId: refund.metadata?.refund_request_id ?? null,
    at,
  }));
}

/**
 * The order a charge paid for: named on the charge, else on its PaymentIntent (a one-time checkout), else on the
 * subscription whose first invoice it paid. Read from Stripe, so a refund that arrives before the payment's own event
 * still finds its order. A renewal's charge names no order of the school's.
 */
async function orderOfCharge(charge: Stripe.Charge, lookups: StripeLookups): Promise<string | null> {
  if (charge.metadata?.order_id) return charge.metadata.order_id;
  const intentId = idOf(charge.payment_intent);
  if (!intentId) return null;
  const intent = typeof charge.payment_intent === 'object' ? charge.payment_intent : null;
  const metadata = (intent ?? (await lookups.paymentIntent(intentId))).metadata;
  if (metadata?.order_id) return metadata.order_id;
  const invoice = await lookups.invoiceOfPaymentIntent(intentId);
  if (invoice?.billing_reason !== 'subscription_create') return null;
  return invoice.parent?.subscription_details?.metadata?.order_id ?? null;
}
