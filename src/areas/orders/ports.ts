import type { Executor } from '../../db/tables.ts';
import type { Money } from '../../http/schemas.ts';
import type { PaymentEvent, ProviderSubscriptionState } from '../../payments/provider.ts';

/**
 * What the checkout needs of the areas that own the things it sells. Each is called inside the order's transaction,
 * so the payment, the order's state and the access it grants commit together.
 */
export type SaleLine = { item_type: 'course' | 'plan' | 'product'; item_id: string; amount: number; currency: string };

export type CouponPort = {
  preview(
    ex: Executor,
    input: { code: string; lines: SaleLine[]; now: string },
  ): Promise<{ coupon: { id: string; code: string }; discounts: number[] }>;
  hold(
    trx: Executor,
    input: { code: string; userId: string; orderId: string; lines: SaleLine[]; now: string },
  ): Promise<{ coupon: { id: string; code: string }; discounts: number[] }>;
  confirm(trx: Executor, orderId: string): Promise<void>;
  release(trx: Executor, orderId: string): Promise<void>;
};

export type PlanPort = {
  priceForSale(
    ex: Executor,
    priceId: string,
  ): Promise<{
    plan: { id: string; name: string; slug: string };
    price: {
      id: string;
      amount: number;
      currency: string;
      interval: 'month' | 'year' | 'one_time';
      trial_days: number;
      provider_price_id: string | null;
    };
  }>;
};

export type ProductPort = {
  holds(ex: Executor, userId: string, productId: string): Promise<boolean>;
  forSale(ex: Executor, key: string): Promise<{ id: string; title: string; slug: string; price: Money | null }>;
  grant(
    trx: Executor,
    input: { productId: string; userId: string; source: 'order' | 'manual'; orderId: string | null },
  ): Promise<unknown>;
  revokeForOrder(trx: Executor, orderId: string): Promise<void>;
};

export type SubscriptionPort = {
  /** Whether the person has a subscription to the plan that is not over (paused too): they cannot buy it twice. */
  subscribesTo(ex: Executor, userId: string, planId: string): Promise<boolean>;
  startFromOrder(
    trx: Executor,
    input: {
      userId: string;
      priceId: string;
      orderId: string;
      provider: 'none' | 'test' | 'stripe';
      providerRef: string | null;
      state?: ProviderSubscriptionState;
    },
  ): Promise<{ id: string }>;
  endForRefund(trx: Executor, orderId: string): Promise<void>;
  /** Reopens, from the plans a person holds, the courses a refund closed that a plan still pays for. */
  syncAccess(trx: Executor, userId: string): Promise<void>;
  applyProviderEvent(trx: Executor, event: PaymentEvent): Promise<void>;
};

/** The analytics area's revenue rollup: each ledger row is added to it in the transaction that records the row. */
export type RevenuePort = {
  add(
    trx: Executor,
    payment: { kind: 'charge' | 'refund'; amount: number; currency: string; created_at: string },
  ): Promise<void>;
};

/** The people who buy: the identity layer's users. */
export type BuyerPort = {
  findById(ex: Executor, id: string): Promise<{ id: string; email: string; name: string } | undefined>;
};
