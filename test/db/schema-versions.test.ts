import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { loadConfig } from '../../src/config.ts';
import { connectDatabase, type Database } from '../../src/db/connect.ts';
import { migrationProvider } from '../../src/db/migrations/index.ts';
import { engines, freshDatabaseUrl } from '../support/databases.ts';
import { runScript } from '../support/process.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/** Runs a command of the school (as npm runs it) on a database. */
const run = (script: string, env: Record<string, string>) => runScript(script, [], env);

for (const engine of engines) {
  describe(`the schema's version against the code's (${engine})`, () => {
    let url: string;
    let database: Database;
    let last: string;
    before(async () => {
      url = await freshDatabaseUrl(engine);
      database = connectDatabase(loadConfig({ DATABASE_URL: url }).database);
      const names = Object.keys(await migrationProvider.getMigrations()).sort();
      last = names.at(-1) ?? '';
      const own =
        engine === 'postgres'
          ? (await sql<{ s: string }>`select current_schema() as s`.execute(database.db)).rows[0]?.s
          : undefined;
      // The database as the version before this one left it.
      const migrator = new Migrator({ db: database.db, provider: migrationProvider, migrationTableSchema: own });
      const { error } = await migrator.migrateTo(names.at(-2) ?? '');
      assert.equal(error, undefined);
    });
    after(() => database.close());

    test('behind: an instance that does not migrate starts but is not ready until `npm run migrate` ran', async () => {
      assert.deepEqual(await database.schema(), { pending: [last], unknown: [] });
      let server: TestServer | undefined;
      try {
        server = await startTestServer(engine, { MIGRATE_ON_START: 'false' }, { databaseUrl: url });
        assert.equal((await fetch(`${server.url}/healthz`)).status, 200, 'alive');
        const behind = await fetch(`${server.url}/readyz`);
        assert.equal(behind.status, 503);
        const said = ((await behind.json()) as { error_description: string }).error_description;
        assert.match(said, new RegExp(`schema is behind this version \\(${last} not applied\\); run npm run migrate`));

        const migrated = await run('src/migrate.ts', { DATABASE_URL: url });
        assert.equal(migrated.code, 0, migrated.out);
        assert.equal(migrated.out, `applied: ${last}\n`);
        assert.equal((await fetch(`${server.url}/readyz`)).status, 200, 'ready once migrated, without a restart');
        const again = await run('src/migrate.ts', { DATABASE_URL: url });
        assert.deepEqual(again, { code: 0, out: 'the database schema is current\n' });
      } finally {
        await server?.close();
      }
    });

    test('empty: an instance that does not migrate refuses a database with no schema, saying to migrate', async () => {
      const empty = await run('src/main.ts', {
        DATABASE_URL: await freshDatabaseUrl(engine),
        PORT: '0',
        MIGRATE_ON_START: 'false',
      });
      assert.equal(empty.code, 2, empty.out);
      assert.match(empty.out, /lyceum: The database has no schema yet: run npm run migrate first\./);
    });

    test('ahead: a version that does not know the latest migrations refuses to start, saying why', async () => {
      const newer = '999_from_a_newer_version';
      await sql`insert into kysely_migration (name, timestamp) values (${newer}, ${new Date().toISOString()})`.execute(
        database.db,
      );
      assert.deepEqual(await database.schema(), { pending: [], unknown: [newer] });
      const started = await run('src/main.ts', { DATABASE_URL: url, PORT: '0' });
      assert.equal(started.code, 2, started.out);
      assert.match(started.out, new RegExp(`lyceum: The database was upgraded by a newer Lyceum .*${newer}`));
      const held = await run('src/main.ts', { DATABASE_URL: url, PORT: '0', MIGRATE_ON_START: 'false' });
      assert.equal(held.code, 2, held.out);
      const migrate = await run('src/migrate.ts', { DATABASE_URL: url });
      assert.equal(migrate.code, 2, migrate.out);
    });
  });
}
