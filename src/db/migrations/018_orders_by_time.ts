import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The orders list read by a date range goes in created_at order, ties by id (areas/pagination.ts paginateBy): this
 * index serves that order and its cursor directly. It replaces the created_at-only index, which it covers.
 */
export const ordersByTime: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('orders_created_id').on('orders').columns(['created_at', 'id']).execute();
    await db.schema.dropIndex('orders_created').execute();
  },
};
