import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * What the lesson player needs: where each student stopped in each video or audio lesson (to resume there), a
 * lesson's caption files and poster image, and `captions` as a purpose of uploads (WebVTT files).
 */
export const playbackPositions: Migration = {
  async up(db: Kysely<unknown>) {
    // First: on SQLite it commits what the migration lock's transaction holds, which must be nothing of this one yet.
    await allowCaptionsPurpose(db);
    await db.schema
      .createTable('playback_positions')
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('lesson_id', 'text', (c) => c.notNull().references('lessons.id').onDelete('cascade'))
      .addColumn('position_s', 'integer', (c) => c.notNull())
      .addColumn('duration_s', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('playback_positions_pk', ['user_id', 'lesson_id'])
      .execute();
    await db.schema
      .alterTable('lessons')
      .addColumn('poster_asset_id', 'text', (c) => c.references('assets.id').onDelete('set null'))
      .execute();
    // JSON: [{ asset_id, language, label }], in the order the player offers them.
    await db.schema.alterTable('lessons').addColumn('captions', 'text').execute();
  },
};

const WITH_CAPTIONS = sql`"purpose" in ('image', 'video', 'audio', 'pdf', 'download', 'captions')`;

/** Widens the check on assets.purpose by 'captions'; what was allowed stays allowed. */
async function allowCaptionsPurpose(db: Kysely<unknown>) {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const found = await sql<{ name: string }>`
      select conname as name from pg_constraint
      where conrelid = 'assets'::regclass and contype = 'c' and pg_get_constraintdef(oid) like '%purpose%'`.execute(db);
    for (const { name } of found.rows) await sql`alter table assets drop constraint ${sql.id(name)}`.execute(db);
    await sql`alter table assets add constraint assets_purpose_check check (${WITH_CAPTIONS})`.execute(db);
    return;
  }
  await rebuildSqliteAssets(db);
}

/**
 * SQLite changes a CHECK only by making the table anew (sqlite.org/lang_altertable.html, "other kinds of table schema
 * changes"), and that must run with foreign keys off: with them on, dropping the old table would first set every
 * reference to an asset (course covers, lesson files, avatars, logos) to null. SQLite ignores that switch inside a
 * transaction, so the migration lock's transaction (sqlite-dialect.ts) is committed first — this runs before anything
 * else of the migration, so nothing of it is in there — and taken again at the end, for the migrator to record this
 * migration in. The new table is the old one's own statement with the wider check, so columns added to
 * assets by any earlier migration come along.
 */
async function rebuildSqliteAssets(db: Kysely<unknown>) {
  const table = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'assets'`
    .execute(db)
    .then((r) => r.rows[0]?.sql ?? '');
  if (table.includes("'captions'")) return;
  const widened = table
    .replace(/^CREATE TABLE "?assets"?/i, 'CREATE TABLE "assets_rebuilt"')
    .replace(/"purpose" in \([^)]*\)/, WITH_CAPTIONS.compile(db).sql);
  if (!widened.includes("'captions'")) throw new Error('026: the check on assets.purpose was not found');
  const others = await sql<{ sql: string }>`
    select sql from sqlite_master where tbl_name = 'assets' and type in ('index', 'trigger') and sql is not null`
    .execute(db)
    .then((r) => r.rows.map((row) => row.sql));
  await sql`commit`.execute(db);
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin immediate`.execute(db);
    try {
      await sql.raw(widened).execute(db);
      await sql`insert into assets_rebuilt select * from assets`.execute(db);
      await sql`drop table assets`.execute(db);
      await sql`alter table assets_rebuilt rename to assets`.execute(db);
      for (const statement of others) await sql.raw(statement).execute(db);
      const broken = await sql`pragma foreign_key_check`.execute(db);
      if (broken.rows.length) throw new Error(`026: ${broken.rows.length} references broke while rebuilding assets`);
      await sql`commit`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
    }
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
    await sql`begin immediate`.execute(db);
  }
}
