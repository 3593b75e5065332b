import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Selling: membership plans and their prices, subscriptions, members, coupons, digital products, orders with their
 * items and the payment ledger, the webhook events already applied, and the order-number counter. Money is integer
 * minor units beside an ISO 4217 currency, never a float.
 */
export const commerce: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('membership_plans')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('benefits', 'text', (c) => c.notNull())
      .addColumn('visibility', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('archived_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('plan_courses')
      .addColumn('plan_id', 'text', (c) => c.notNull().references('membership_plans.id').onDelete('cascade'))
      .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('plan_courses_pk', ['plan_id', 'course_id'])
      .execute();
    await db.schema.createIndex('plan_courses_course').on('plan_courses').column('course_id').execute();
    await db.schema
      .createTable('plan_prices')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('plan_id', 'text', (c) => c.notNull().references('membership_plans.id').onDelete('cascade'))
      .addColumn('amount', 'integer', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('interval', 'text', (c) => c.notNull())
      .addColumn('trial_days', 'integer', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('provider_price_id', 'text')
      .addColumn('archived_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('plan_prices_plan').on('plan_prices').columns(['plan_id', 'id']).execute();

    await db.schema
      .createTable('products')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('price_amount', 'integer')
      .addColumn('price_currency', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('published_at', 'text')
      .addColumn('archived_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('products_status').on('products').columns(['status', 'id']).execute();
    await db.schema
      .createTable('product_files')
      .addColumn('product_id', 'text', (c) => c.notNull().references('products.id').onDelete('cascade'))
      .addColumn('asset_id', 'text', (c) => c.notNull().references('assets.id'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('product_files_pk', ['product_id', 'asset_id'])
      .execute();
    await db.schema
      .createTable('plan_products')
      .addColumn('plan_id', 'text', (c) => c.notNull().references('membership_plans.id').onDelete('cascade'))
      .addColumn('product_id', 'text', (c) => c.notNull().references('products.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('plan_products_pk', ['plan_id', 'product_id'])
      .execute();
    await db.schema.createIndex('plan_products_product').on('plan_products').column('product_id').execute();

    await db.schema
      .createTable('coupons')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('code', 'text', (c) => c.notNull().unique())
      .addColumn('percent_off', 'integer')
      .addColumn('amount_off', 'integer')
      .addColumn('currency', 'text')
      .addColumn('applies_to', 'text', (c) => c.notNull())
      .addColumn('starts_at', 'text')
      .addColumn('expires_at', 'text')
      .addColumn('max_redemptions', 'integer')
      .addColumn('times_redeemed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('disabled_at', 'text')
      .addColumn('batch', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('orders')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('number', 'integer', (c) => c.notNull().unique())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('subtotal', 'integer', (c) => c.notNull())
      .addColumn('discount', 'integer', (c) => c.notNull())
      .addColumn('total', 'integer', (c) => c.notNull())
      .addColumn('refunded_amount', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('coupon_id', 'text', (c) => c.references('coupons.id'))
      .addColumn('coupon_code', 'text')
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('provider_ref', 'text')
      .addColumn('subscription_id', 'text')
      .addColumn('failure_reason', 'text')
      .addColumn('paid_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('orders_user').on('orders').columns(['user_id', 'id']).execute();
    await db.schema.createIndex('orders_status').on('orders').columns(['status', 'id']).execute();
    await db.schema.createIndex('orders_coupon').on('orders').columns(['coupon_id', 'id']).execute();
    await db.schema.createIndex('orders_created').on('orders').column('created_at').execute();
    await db.schema.createIndex('orders_provider_ref').on('orders').columns(['provider', 'provider_ref']).execute();
    await db.schema
      .createTable('order_items')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
      .addColumn('item_type', 'text', (c) => c.notNull())
      .addColumn('item_id', 'text', (c) => c.notNull())
      .addColumn('price_id', 'text')
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('unit_amount', 'integer', (c) => c.notNull())
      .addColumn('discount', 'integer', (c) => c.notNull())
      .addColumn('amount', 'integer', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('order_items_order').on('order_items').column('order_id').execute();
    await db.schema.createIndex('order_items_item').on('order_items').columns(['item_id', 'order_id']).execute();
    await db.schema
      .createTable('payments')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('amount', 'integer', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('provider_ref', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('payments_provider_ref', ['provider', 'provider_ref'])
      .execute();
    await db.schema.createIndex('payments_order').on('payments').column('order_id').execute();
    await db.schema.createIndex('payments_created').on('payments').column('created_at').execute();
    await db.schema
      .createTable('coupon_redemptions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('coupon_id', 'text', (c) => c.notNull().references('coupons.id'))
      .addColumn('order_id', 'text', (c) => c.notNull().unique().references('orders.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('amount', 'integer', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('coupon_redemptions_coupon')
      .on('coupon_redemptions')
      .columns(['coupon_id', 'id'])
      .execute();

    await db.schema
      .createTable('product_grants')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('product_id', 'text', (c) => c.notNull().references('products.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('order_id', 'text', (c) => c.references('orders.id'))
      .addColumn('granted_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .addUniqueConstraint('product_grants_product_user', ['product_id', 'user_id'])
      .execute();
    await db.schema.createIndex('product_grants_user').on('product_grants').columns(['user_id', 'id']).execute();

    await db.schema
      .createTable('subscriptions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('plan_id', 'text', (c) => c.notNull().references('membership_plans.id'))
      .addColumn('price_id', 'text', (c) => c.notNull().references('plan_prices.id'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('trial_end', 'text')
      .addColumn('current_period_start', 'text', (c) => c.notNull())
      .addColumn('current_period_end', 'text')
      .addColumn('cancel_at_period_end', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('canceled_at', 'text')
      .addColumn('paused_at', 'text')
      .addColumn('next_price_id', 'text', (c) => c.references('plan_prices.id'))
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('provider_ref', 'text')
      .addColumn('provider_synced_at', 'text')
      .addColumn('order_id', 'text', (c) => c.references('orders.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('subscriptions_provider_ref', ['provider', 'provider_ref'])
      .execute();
    await db.schema.createIndex('subscriptions_user').on('subscriptions').columns(['user_id', 'id']).execute();
    await db.schema.createIndex('subscriptions_status').on('subscriptions').columns(['status', 'id']).execute();
    await db.schema.createIndex('subscriptions_plan').on('subscriptions').columns(['plan_id', 'id']).execute();
    await db.schema.createIndex('subscriptions_period_end').on('subscriptions').column('current_period_end').execute();

    await db.schema
      .createTable('members')
      .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('labels', 'text', (c) => c.notNull())
      .addColumn('newsletter_opt_in', 'integer', (c) => c.notNull())
      .addColumn('note', 'text', (c) => c.notNull())
      .addColumn('comp_plan_id', 'text', (c) => c.references('membership_plans.id'))
      .addColumn('comp_until', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('payment_events')
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('received_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('payment_events_pk', ['provider', 'event_id'])
      .execute();

    await db.schema
      .createTable('counters')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'integer', (c) => c.notNull())
      .execute();
    await db
      .insertInto('counters' as never)
      .values({ name: 'order_number', value: 1000 } as never)
      .execute();
  },
};
