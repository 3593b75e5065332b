import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

const oneOf = (column: string, values: string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;

/** Uploaded files (assets), and the asset each course cover, lesson, lecturer avatar and school logo may name. */
export const storage: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('assets')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('purpose', 'text', (c) =>
        c.notNull().check(oneOf('purpose', ['image', 'video', 'audio', 'pdf', 'download'])),
      )
      .addColumn('filename', 'text', (c) => c.notNull())
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('byte_size', 'bigint', (c) => c.notNull())
      .addColumn('sha256', 'text')
      .addColumn('expected_sha256', 'text')
      .addColumn('status', 'text', (c) => c.notNull().check(oneOf('status', ['pending', 'ready', 'failed'])))
      .addColumn('failure_reason', 'text')
      .addColumn('storage_key', 'text')
      .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('assets_status').on('assets').columns(['status', 'id']).execute();

    for (const [table, column] of [
      ['courses', 'cover_asset_id'],
      ['lessons', 'asset_id'],
      ['lecturers', 'avatar_asset_id'],
      ['appearance', 'logo_asset_id'],
    ] as const) {
      await db.schema
        .alterTable(table)
        .addColumn(column, 'text', (c) => c.references('assets.id').onDelete('set null'))
        .execute();
    }
  },
};
