import type { Executor } from '../../db/tables.ts';

/** What each of `ids` costs and how often (archived prices too: a subscription keeps the price it was sold). */
export const priceTerms = (ex: Executor, ids: string[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : ex.selectFrom('plan_prices').select(['id', 'amount', 'currency', 'interval']).where('id', 'in', ids).execute();
