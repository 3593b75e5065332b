import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * A plan's courses and products keep the order staff gave them (its page lists them so). A subscription the school
 * renews itself keeps the time its periods are counted from, so a short month does not move every later renewal.
 * Lookups the membership areas make often: the subscription an order started (a refund ends it, a repeated payment
 * event finds it), and the people a plan is comped to (their access follows the plan's course list).
 */
export const memberships: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('plan_courses')
      .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('plan_products')
      .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('subscriptions').addColumn('billing_anchor', 'text').execute();
    await db.schema.createIndex('subscriptions_order').on('subscriptions').column('order_id').execute();
    await db.schema.createIndex('members_comp_plan').on('members').columns(['comp_plan_id', 'user_id']).execute();
  },
};
