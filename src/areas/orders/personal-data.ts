import type { Executor } from '../../db/tables.ts';

/**
 * A person's orders with what they bought, for the export of their own data. Deleting an account keeps them: the
 * books must hold every sale, and the buyer is then the anonymised person.
 */
export async function ordersOfPerson(ex: Executor, userId: string) {
  const orders = await ex
    .selectFrom('orders')
    .select([
      'id',
      'number',
      'status',
      'currency',
      'subtotal',
      'discount',
      'total',
      'refunded_amount',
      'coupon_code',
      'created_at',
      'paid_at',
    ])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
  const items =
    orders.length === 0
      ? []
      : await ex
          .selectFrom('order_items')
          .select(['order_id', 'item_type', 'title', 'amount'])
          .where(
            'order_id',
            'in',
            orders.map((o) => o.id),
          )
          .orderBy('id')
          .execute();
  return orders.map((order) => ({
    ...order,
    items: items.filter((i) => i.order_id === order.id).map(({ order_id: _, ...item }) => item),
  }));
}
