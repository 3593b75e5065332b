import type { Insertable, Updateable } from 'kysely';
import type { Executor, OrderItemsTable, OrdersTable, PaymentsTable, RefundRequestsTable } from '../../db/tables.ts';
import type { RevenuePort } from './ports.ts';

export function ordersStore(deps: { revenue: RevenuePort }) {
  return {
    paymentsOf: (ex: Executor, orderId: string) =>
      ex
        .selectFrom('payments')
        .selectAll()
        .where('order_id', '=', orderId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    /**
     * The next order number, taken in the caller's transaction: the counter row's update holds its lock (PostgreSQL)
     * or the one writer (SQLite) until the order commits, so numbers are sequential and never reused.
     */
    nextNumber: async (trx: Executor) => {
      const row = await trx
        .updateTable('counters')
        .set((eb) => ({ value: eb('value', '+', 1) }))
        .where('name', '=', 'order_number')
        .returning('value')
        .executeTakeFirstOrThrow();
      return Number(row.value);
    },

    insertOrder: async (ex: Executor, row: Insertable<OrdersTable>) => {
      await ex.insertInto('orders').values(row).execute();
    },

    insertItems: async (ex: Executor, rows: Insertable<OrderItemsTable>[]) => {
      if (rows.length) await ex.insertInto('order_items').values(rows).execute();
    },

    /**
     * Records a charge or refund in the ledger (a provider reference recorded before is a unique violation), and adds
     * it to the revenue rollup the analytics read, in the same transaction (one of its own when `ex` is not one).
     */
    insertPayment: async (ex: Executor, row: Insertable<PaymentsTable>) => {
      const record = async (trx: Executor) => {
        await trx.insertInto('payments').values(row).execute();
        await deps.revenue.add(trx, row);
      };
      await (ex.isTransaction ? record(ex) : ex.transaction().execute(record));
    },

    paymentRecorded: async (ex: Executor, provider: PaymentsTable['provider'], ref: string) =>
      (await ex
        .selectFrom('payments')
        .select('id')
        .where('provider', '=', provider)
        .where('provider_ref', '=', ref)
        .executeTakeFirst()) !== undefined,

    /** Orders with their customer's e-mail and name, for lists and single reads. */
    withCustomer: (ex: Executor) =>
      ex
        .selectFrom('orders')
        .innerJoin('users', 'users.id', 'orders.user_id')
        .selectAll('orders')
        .select(['users.email as customer_email', 'users.name as customer_name']),

    /** Locks the order's row for a state change (PostgreSQL; SQLite has one writer) and returns it. */
    lockOrder: (trx: Executor, id: string) =>
      trx
        .updateTable('orders')
        .set((eb) => ({ updated_at: eb.ref('updated_at') }))
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),

    updateOrder: async (ex: Executor, id: string, changes: Updateable<OrdersTable>) => {
      await ex.updateTable('orders').set(changes).where('id', '=', id).execute();
    },

    /** The ledger's charge of an order (its provider reference is what a refund names). */
    charge: (ex: Executor, orderId: string) =>
      ex
        .selectFrom('payments')
        .selectAll()
        .where('order_id', '=', orderId)
        .where('kind', '=', 'charge')
        .executeTakeFirst(),

    /** Whether the ledger holds the refund the provider calls `ref` for this order. */
    refundRecorded: async (ex: Executor, orderId: string, ref: string) =>
      (await ex
        .selectFrom('payments')
        .select('id')
        .where('order_id', '=', orderId)
        .where('kind', '=', 'refund')
        .where('provider_ref', '=', ref)
        .executeTakeFirst()) !== undefined,

    /** What refunds asked since `since` and not yet reported or refused hold of an order's money. */
    pendingRefunds: async (ex: Executor, orderId: string, since: string) => {
      const row = await ex
        .selectFrom('refund_requests')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('held'))
        .where('order_id', '=', orderId)
        .where('status', '=', 'pending')
        .where('created_at', '>', since)
        .executeTakeFirstOrThrow();
      return Number(row.held);
    },

    insertRefundRequest: async (ex: Executor, row: RefundRequestsTable) => {
      await ex.insertInto('refund_requests').values(row).execute();
    },

    /** Moves a pending refund request on (reported, refused, or given the provider's reference). */
    updateRefundRequest: async (ex: Executor, id: string, changes: Updateable<RefundRequestsTable>) => {
      await ex
        .updateTable('refund_requests')
        .set(changes)
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .execute();
    },

    findOrder: (ex: Executor, id: string) =>
      ex.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst(),

    items: (ex: Executor, orderIds: string[]) =>
      orderIds.length
        ? ex.selectFrom('order_items').selectAll().where('order_id', 'in', orderIds).orderBy('id').execute()
        : Promise.resolve([]),
  };
}

export type OrdersStore = ReturnType<typeof ordersStore>;
