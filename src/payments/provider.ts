import type { Executor } from '../db/tables.ts';

/** What a checkout asks the provider to charge: one order, in one currency, with its lines as sold. */
export type CheckoutRequest = {
  order: { id: string; number: number; currency: string; subtotal: number; discount: number; total: number };
  customer: { id: string; email: string; name: string };
  /** The order's lines after the discount (what the buyer sees on the provider's page). */
  lines: { title: string; amount: number }[];
  /** Present when the order buys a recurring plan price: the provider runs the subscription and reports renewals. */
  recurring?: {
    planId: string;
    planName: string;
    priceId: string;
    /** The provider's own price id, once one was made for this price. */
    providerPriceId: string | null;
    interval: 'month' | 'year';
    /** The price of every period (the first may be discounted by the coupon). */
    amount: number;
    trialDays: number;
  };
  /** Where the buyer lands after paying (the receipt) and after giving up (back to the review). */
  successUrl: string;
  cancelUrl: string;
};

export type RefundRequest = {
  orderId: string;
  checkoutRef: string;
  amount: number;
  currency: string;
  requestId: string;
};

export type SubscriptionChange =
  | { kind: 'cancel'; atPeriodEnd: boolean }
  | { kind: 'resume' }
  | { kind: 'pause' }
  | { kind: 'change_price'; price: { id: string; providerPriceId: string | null; amount: number; currency: string } };

/**
 * A payment provider, behind the one small interface the checkout and the subscriptions speak. It takes money and
 * says so later through events (PaymentEvent), never through a return value: a webhook (stripe) or the built-in
 * page's buttons (test) are the only places an order becomes paid.
 */
export type PaymentProvider = {
  name: 'test' | 'stripe';
  /** Opens a hosted checkout for the order; the buyer is sent to `url`. `reference` is stored as the order's provider_ref. */
  startCheckout(request: CheckoutRequest): Promise<{ reference: string; url: string }>;
  /**
   * Asks for `amount` of a paid order back; the refund is applied when its event arrives, naming `requestId` (the
   * school's refund request, also the provider's idempotency key, so a repeated call is one refund). Answers the
   * provider's reference of the refund.
   */
  refund(request: RefundRequest): Promise<{ reference: string }>;
  /** Mirrors a change staff or the subscriber made to a subscription the provider runs (`reference`). */
  changeSubscription(reference: string, change: SubscriptionChange): Promise<void>;
};

/**
 * What a provider reports, in the school's terms. Each event is applied once (payment_events), in its own
 * transaction, whatever order they arrive in: states are compared, never assumed.
 */
export type PaymentEvent =
  | {
      kind: 'checkout_paid';
      orderId: string;
      checkoutRef: string;
      /** The provider's reference of the money taken (Stripe PaymentIntent or Invoice); null when nothing was charged (a trial). */
      paymentRef: string | null;
      amount: number;
      currency: string;
      at: string;
      subscription?: ProviderSubscriptionState;
    }
  | { kind: 'checkout_failed'; orderId: string; checkoutRef: string; reason: string; at: string }
  | { kind: 'checkout_expired'; orderId: string; checkoutRef: string; at: string }
  | {
      kind: 'refunded';
      orderId: string;
      /**
       * One refund, by the provider's reference, which the ledger records once: a late or repeated report of it
       * counts nothing, and no report can take the order's refunds past what was paid.
       */
      refundRef: string;
      /** This refund's own amount (not the order's cumulative one). */
      amount: number;
      currency: string;
      /** The school's refund request it answers, when the school asked for it (not one made in the provider's dashboard). */
      requestId: string | null;
      at: string;
    }
  | { kind: 'subscription_state'; state: ProviderSubscriptionState }
  | {
      kind: 'renewal_paid';
      subscriptionRef: string;
      invoiceRef: string;
      amount: number;
      currency: string;
      periodStart: string;
      periodEnd: string;
      at: string;
    }
  | { kind: 'renewal_failed'; subscriptionRef: string; invoiceRef: string; at: string };

/** A subscription as the provider sees it at `at`; an older state never overwrites a newer one. */
export type ProviderSubscriptionState = {
  reference: string;
  status: 'trialing' | 'active' | 'past_due' | 'paused' | 'canceled';
  currentPeriodStart: string;
  currentPeriodEnd: string;
  cancelAtPeriodEnd: boolean;
  trialEnd: string | null;
  /** The provider's price id now in force (a plan change). */
  providerPriceId: string | null;
  at: string;
};

/** Applies one provider event inside the transaction that also records it as applied. */
export type PaymentEventSink = (trx: Executor, event: PaymentEvent) => Promise<void>;
