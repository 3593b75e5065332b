import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { loadConfig } from '../../src/config.ts';
import { connectDatabase } from '../../src/db/connect.ts';
import { preparedDatabaseUrl } from '../support/database-templates.ts';
import { type Engine, engines, freshDatabaseUrl } from '../support/databases.ts';

/**
 * Every test server starts on a copy of the run's prepared database (test/support/database-templates.ts), not on one
 * it migrates itself: the copy must be exactly what migrating an empty database makes — every table, column, index,
 * constraint and trigger — plus the secrets the server keeps, or the tests would test another schema than the school's.
 */
async function describeSchema(engine: Engine, url: string) {
  const database = connectDatabase(loadConfig({ DATABASE_URL: url }).database);
  const { db } = database;
  try {
    const secrets = (await db.selectFrom('server_secrets').select('name').orderBy('name').execute()).map((r) => r.name);
    const migrations = (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows;
    if (engine === 'sqlite') {
      const objects = await sql<{ type: string; name: string; sql: string | null }>`
        select type, name, sql from sqlite_master order by type, name`.execute(db);
      return { secrets, migrations, objects: objects.rows };
    }
    const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s ?? '';
    const mine = (text: string | null) => text?.replaceAll(`${schema}.`, '') ?? null;
    const columns = await sql<Record<string, string>>`
      select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns
      where table_schema = current_schema() order by table_name, ordinal_position`.execute(db);
    const indexes = await sql<{ indexname: string; indexdef: string }>`
      select indexname, indexdef from pg_indexes where schemaname = current_schema() order by indexname`.execute(db);
    const constraints = await sql<{ conname: string; def: string }>`
      select c.conname, pg_get_constraintdef(c.oid) as def from pg_constraint c
      join pg_namespace n on n.oid = c.connamespace where n.nspname = current_schema() order by c.conname`.execute(db);
    const triggers = await sql<{ tgname: string; def: string }>`
      select t.tgname, pg_get_triggerdef(t.oid) as def from pg_trigger t join pg_class r on r.oid = t.tgrelid
      join pg_namespace n on n.oid = r.relnamespace where n.nspname = current_schema() and not t.tgisinternal
      order by t.tgname`.execute(db);
    return {
      secrets,
      migrations,
      columns: columns.rows.map((c) => ({ ...c, column_default: mine(c.column_default ?? null) })),
      indexes: indexes.rows.map((i) => ({ ...i, indexdef: mine(i.indexdef) })),
      constraints: constraints.rows.map((c) => ({ ...c, def: mine(c.def) })),
      triggers: triggers.rows.map((t) => ({ ...t, def: mine(t.def) })),
    };
  } finally {
    await database.close();
  }
}

for (const engine of engines) {
  describe(`the prepared test database (${engine})`, () => {
    test('is what migrating an empty database makes, with the server secrets a first start stores', async () => {
      const migrated = await freshDatabaseUrl(engine);
      const database = connectDatabase(loadConfig({ DATABASE_URL: migrated }).database);
      await database.migrate();
      await database.close();
      const expected = await describeSchema(engine, migrated);
      const prepared = await describeSchema(engine, await preparedDatabaseUrl(engine));
      assert.deepEqual(prepared.secrets, ['cookie_key', 'oidc_cookie_key', 'oidc_signing_keys']);
      assert.deepEqual({ ...prepared, secrets: [] }, { ...expected, secrets: [] });
      assert.ok(expected.migrations.length > 20, 'the migrations ran');
    });

    test('each copy is a database of its own', async () => {
      const [a, b] = [await preparedDatabaseUrl(engine), await preparedDatabaseUrl(engine)];
      assert.notEqual(a, b);
      const first = connectDatabase(loadConfig({ DATABASE_URL: a }).database);
      try {
        await first.db.deleteFrom('server_secrets').execute();
      } finally {
        await first.close();
      }
      assert.equal((await describeSchema(engine, b)).secrets.length, 3);
    });
  });
}
