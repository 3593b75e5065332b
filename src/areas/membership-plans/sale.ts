import type { Executor } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import { plansStore } from './store.ts';

const store = plansStore();

/** A plan price as the checkout sells it. */
export type PriceForSale = {
  plan: { id: string; name: string; slug: string };
  price: {
    id: string;
    amount: number;
    currency: string;
    interval: 'month' | 'year' | 'one_time';
    trial_days: number;
    /** The payment provider's own price, once its adapter made one (setProviderPriceId). */
    provider_price_id: string | null;
  };
};

/**
 * The price `priceId` and its plan, if it is on sale: the price and its plan both active (a hidden plan sells by its
 * link). Anything else — unknown, archived price, archived plan — is 404 `price`. Read on the checkout's transaction.
 */
export async function priceForSale(ex: Executor, priceId: string): Promise<PriceForSale> {
  const row = await store.priceOnSale(ex, priceId);
  if (!row) throw errors.notFound('price');
  return {
    plan: { id: row.plan_id, name: row.plan_name, slug: row.plan_slug },
    price: {
      id: row.id,
      amount: Number(row.amount),
      currency: row.currency,
      interval: row.interval,
      trial_days: Number(row.trial_days),
      provider_price_id: row.provider_price_id,
    },
  };
}

/** Keeps the payment provider's price made for `priceId` (the Stripe adapter's), so it is made once. */
export async function setProviderPriceId(ex: Executor, priceId: string, providerPriceId: string): Promise<void> {
  if (!(await store.setProviderPriceId(ex, priceId, providerPriceId))) throw errors.notFound('price');
}
