import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Uploaded images as the site shows them: an image asset's size (turned upright), its placeholder and whether its
 * variants are made; and the variants themselves, each a width in one format, stored in the blob store beside the
 * original and dropped with it.
 */
export const imageVariants: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('assets').addColumn('width', 'integer').execute();
    await db.schema.alterTable('assets').addColumn('height', 'integer').execute();
    await db.schema.alterTable('assets').addColumn('placeholder', 'text').execute();
    await db.schema
      .alterTable('assets')
      .addColumn('variants', 'text', (c) => c.check(sql`variants in ('made', 'unreadable')`))
      .execute();
    await db.schema
      .createTable('image_variants')
      .addColumn('asset_id', 'text', (c) => c.notNull().references('assets.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('format', 'text', (c) => c.notNull().check(sql`format in ('avif', 'webp', 'jpeg', 'png')`))
      .addColumn('width', 'integer', (c) => c.notNull())
      .addColumn('height', 'integer', (c) => c.notNull())
      .addColumn('byte_size', 'bigint', (c) => c.notNull())
      .addColumn('storage_key', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('image_variants_pk', ['asset_id', 'name'])
      .execute();
  },
};
