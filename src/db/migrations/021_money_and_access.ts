import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Money that moves once and access that follows a rule:
 * - `refund_requests`: a refund staff asked for, decided under the order's row lock and kept as `pending` until the
 *   provider reports it (`applied`) or refuses it (`failed`), so refunds asked at once can never promise more than
 *   was paid;
 * - `idempotency_keys.pending`: the answer committed with a write that a provider call follows (a checkout, a refund)
 *   is provisional until that call's answer replaces it; a copy arriving meanwhile is told to retry;
 * - `membership_plans.includes_all_courses`: a plan of every published course, now and to come, as a rule rather than
 *   a list.
 */
export const moneyAndAccess: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('refund_requests')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
      .addColumn('amount', 'integer', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('provider_ref', 'text')
      .addColumn('requested_by', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('refund_requests_order')
      .on('refund_requests')
      .columns(['order_id', 'status'])
      .execute();
    await db.schema
      .alterTable('idempotency_keys')
      .addColumn('pending', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('membership_plans')
      .addColumn('includes_all_courses', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
