import type { Executor } from '../../db/tables.ts';
import type { PriceTerms, RecurringFacts } from './ports.ts';

export type RecurringChange = { at: string | null; currency: string; interval: 'month' | 'year'; amount: number };

/**
 * Monthly recurring revenue's changes, per currency and price interval: what the subscriptions paying at `first`
 * pay per interval (`at` null), then each start (+) and stop (-) of paying after `first` up to `last`, in time
 * order. A subscription to a month or year price pays from its creation, or the end of its trial, until it is
 * canceled or paused. The table keeps no history of states, so an earlier pause that was resumed, or the price
 * before a plan change, is not seen. The subscriptions count per price; the prices say what each costs.
 */
export async function recurringChanges(
  ex: Executor,
  owners: { subscriptions: RecurringFacts; prices: PriceTerms },
  first: string,
  last: string,
): Promise<RecurringChange[]> {
  const paying = await owners.subscriptions.payingChanges(ex, first, last);
  const terms = new Map(
    (await owners.prices(ex, [...new Set(paying.map((p) => p.price_id))])).flatMap((price) =>
      price.interval === 'one_time' ? [] : [[price.id, { ...price, interval: price.interval }] as const],
    ),
  );
  const opening = new Map<string, RecurringChange>();
  const changes: RecurringChange[] = [];
  for (const { at, price_id, n } of paying) {
    const price = terms.get(price_id);
    if (!price) continue;
    const { currency, interval } = price;
    if (at) changes.push({ at, currency, interval, amount: n * price.amount });
    else {
      const key = `${currency} ${interval}`;
      opening.set(key, { at: null, currency, interval, amount: (opening.get(key)?.amount ?? 0) + n * price.amount });
    }
  }
  return [...opening.values(), ...changes];
}
