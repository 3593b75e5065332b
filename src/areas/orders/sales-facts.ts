import type { Executor, OrderItemsTable } from '../../db/tables.ts';

/** What other areas ask of the orders: whether any order names a thing, which then has to be kept. */
export function salesFacts() {
  return {
    /** Whether any order was placed with the coupon. */
    namesCoupon: async (ex: Executor, couponId: string) =>
      (await ex.selectFrom('orders').select('id').where('coupon_id', '=', couponId).limit(1).executeTakeFirst()) !==
      undefined,

    /** Whether any order has a line for the item. */
    namesItem: async (ex: Executor, itemType: OrderItemsTable['item_type'], itemId: string) =>
      (await ex
        .selectFrom('order_items')
        .select('id')
        .where('item_type', '=', itemType)
        .where('item_id', '=', itemId)
        .limit(1)
        .executeTakeFirst()) !== undefined,
  };
}
