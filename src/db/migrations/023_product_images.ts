import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * A digital product's picture, as a post's cover: the address of an uploaded image (public for good) or of one
 * elsewhere; null while it has none.
 */
export const productImages: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('products').addColumn('image_url', 'text').execute();
  },
};
