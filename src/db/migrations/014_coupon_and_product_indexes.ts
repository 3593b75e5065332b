import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Indexes for the coupons and digital products areas: a batch of bulk-created coupons is listed and exported by its
 * name; a product's grants are listed newest first; a refunded order's grants are found by the order.
 */
export const couponAndProductIndexes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('coupons_batch').on('coupons').columns(['batch', 'id']).execute();
    await db.schema.createIndex('product_grants_product').on('product_grants').columns(['product_id', 'id']).execute();
    await db.schema.createIndex('product_grants_order').on('product_grants').column('order_id').execute();
  },
};
