import type { Executor } from '../../db/tables.ts';

export function stripeStore() {
  return {
    /** What Stripe needs to make a Price of a plan price: its interval and the plan's name (the product). */
    planPrice: (ex: Executor, priceId: string) =>
      ex
        .selectFrom('plan_prices')
        .innerJoin('membership_plans', 'membership_plans.id', 'plan_prices.plan_id')
        .select(['plan_prices.interval', 'membership_plans.name as plan_name'])
        .where('plan_prices.id', '=', priceId)
        .executeTakeFirst(),

    /** Keeps the Stripe Price made for a plan price; a price that has one keeps it (plan prices are never edited). */
    savePriceId: async (ex: Executor, priceId: string, providerPriceId: string) => {
      await ex
        .updateTable('plan_prices')
        .set({ provider_price_id: providerPriceId })
        .where('id', '=', priceId)
        .where('provider_price_id', 'is', null)
        .execute();
    },

    /** Whether a Stripe event was applied already (a re-sent webhook is answered without asking Stripe anything). */
    eventApplied: async (ex: Executor, eventId: string) =>
      (await ex
        .selectFrom('payment_events')
        .select('event_id')
        .where('provider', '=', 'stripe')
        .where('event_id', '=', eventId)
        .executeTakeFirst()) !== undefined,
  };
}

export type StripeStore = ReturnType<typeof stripeStore>;
