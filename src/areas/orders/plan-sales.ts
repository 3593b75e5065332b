import type { Executor } from '../../db/tables.ts';

/** Whether an order item sold plan `planId` (any order, paid or not): such a plan is kept as the record of the sale. */
export const planSold = async (ex: Executor, planId: string) =>
  (await ex
    .selectFrom('order_items')
    .select('id')
    .where('item_type', '=', 'plan')
    .where('item_id', '=', planId)
    .executeTakeFirst()) !== undefined;
