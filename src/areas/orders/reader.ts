import type { Selectable } from 'kysely';
import type { Executor, OrderItemsTable, OrdersTable } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import { isStaff, type Principal } from '../../http/principal.ts';
import type { AreaDeps } from '../deps.ts';
import { paginate, paginateBy } from '../pagination.ts';
import type { Order, OrderListQuery } from './schema.ts';
import type { OrdersStore } from './store.ts';

type OrderRow = Selectable<OrdersTable> & { customer_email: string; customer_name: string };

const money = (amount: number, currency: string) => ({ amount: Number(amount), currency });

export function toOrder(row: OrderRow, items: OrderItemsTable[]): Order {
  return {
    id: row.id,
    number: Number(row.number),
    user_id: row.user_id,
    customer: { email: row.customer_email, name: row.customer_name },
    kind: row.kind,
    status: row.status,
    items: items.map((item) => ({
      item_type: item.item_type,
      item_id: item.item_id,
      price_id: item.price_id,
      title: item.title,
      unit_price: money(item.unit_amount, item.currency),
      discount: money(item.discount, item.currency),
      amount: money(item.amount, item.currency),
    })),
    subtotal: money(row.subtotal, row.currency),
    discount: money(row.discount, row.currency),
    total: money(row.total, row.currency),
    refunded_amount: money(row.refunded_amount, row.currency),
    coupon_id: row.coupon_id,
    coupon_code: row.coupon_code,
    subscription_id: row.subscription_id,
    provider: row.provider,
    failure_reason: row.failure_reason,
    paid_at: row.paid_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * The one rule of whose orders a caller sees: staff and owners every order; a student their own (their
 * `orders:read` token lists their purchases); nobody else any. The list query and the single read both go by it.
 */
export const visibleOrders = (principal: Principal): 'all' | string | undefined =>
  isStaff(principal) ? 'all' : principal.kind === 'user' ? principal.userId : undefined;

/** Orders as the API reads them: made by the checkout and the renewals, never written through this area's routes. */
export function ordersReader(deps: Pick<AreaDeps, 'db'> & { store: OrdersStore }) {
  const { db, store } = deps;

  async function withItems(ex: Executor, rows: OrderRow[]) {
    const items = await store.items(
      ex,
      rows.map((r) => r.id),
    );
    return rows.map((row) =>
      toOrder(
        row,
        items.filter((i) => i.order_id === row.id),
      ),
    );
  }

  /** The order `id` if `principal` may see it; else 404. */
  async function read(ex: Executor, principal: Principal, id: string) {
    const visible = visibleOrders(principal);
    let q = store.withCustomer(ex).where('orders.id', '=', id);
    if (visible === undefined) throw errors.notFound('order');
    if (visible !== 'all') q = q.where('orders.user_id', '=', visible);
    const row = await q.executeTakeFirst();
    if (!row) throw errors.notFound('order');
    return (await withItems(ex, [row]))[0] as Order;
  }

  return {
    read,
    withItems,

    async list(principal: Principal, query: OrderListQuery) {
      const visible = visibleOrders(principal);
      if (visible === undefined) return { data: [], has_more: false, next_cursor: null };
      let q = store.withCustomer(db);
      if (visible !== 'all') q = q.where('orders.user_id', '=', visible);
      if (query.user_id) q = q.where('orders.user_id', '=', query.user_id);
      if (query.status) q = q.where('orders.status', '=', query.status);
      if (query.kind) q = q.where('orders.kind', '=', query.kind);
      if (query.coupon_id) q = q.where('orders.coupon_id', '=', query.coupon_id);
      if (query.currency) q = q.where('orders.currency', '=', query.currency);
      if (query.item_id) {
        const itemId = query.item_id;
        q = q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('order_items')
              .select('order_items.id')
              .whereRef('order_items.order_id', '=', 'orders.id')
              .where('order_items.item_id', '=', itemId),
          ),
        );
      }
      // A date range is read in created_at order (an index range), not walked in id order from the newest order.
      const ranged = query.created_after !== undefined || query.created_before !== undefined;
      if (ranged && query.created_after)
        q = q.where('orders.created_at', '>', new Date(query.created_after).toISOString());
      if (ranged && query.created_before)
        q = q.where('orders.created_at', '<', new Date(query.created_before).toISOString());
      const page = ranged
        ? await paginateBy(q, query, { table: 'orders', column: 'created_at', descending: query.sort !== 'created_at' })
        : await paginate(q, query, 'orders.id', 'orders.created_at');
      return { ...page, data: await withItems(db, page.data) };
    },
  };
}

export type OrdersReader = ReturnType<typeof ordersReader>;
