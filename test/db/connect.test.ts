import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { loadConfig } from '../../src/config.ts';
import { connectDatabase } from '../../src/db/connect.ts';
import { migrationProvider } from '../../src/db/migrations/index.ts';
import { engines, freshDatabaseUrl } from '../support/databases.ts';

for (const engine of engines) {
  describe(`database (${engine})`, () => {
    test('migrations are idempotent: a second run changes nothing', async () => {
      const url = await freshDatabaseUrl(engine);
      const database = connectDatabase(loadConfig({ DATABASE_URL: url }).database);
      try {
        await database.migrate();
        // Other test files migrate their own PostgreSQL schemas meanwhile; only this database's schema counts.
        const own =
          engine === 'postgres'
            ? (await sql<{ s: string }>`select current_schema() as s`.execute(database.db)).rows[0]?.s
            : undefined;
        const schema = async () => ({
          tables: (await database.db.introspection.getTables({ withInternalKyselyTables: true }))
            .filter((t) => t.schema === own)
            .map((t) => `${t.name}(${t.columns.map((c) => `${c.name}:${c.dataType}:${c.isNullable}`).join(',')})`)
            .sort(),
          migrations: (
            await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.db)
          ).rows.map((r) => r.name),
        });
        const first = await schema();
        await database.migrate();
        assert.deepEqual(await schema(), first, 'tables, columns and applied migrations are unchanged');
        assert.ok(first.migrations.length >= 4, first.migrations.join(' '));
        for (const name of ['users', 'sessions', 'server_secrets', 'setup_tokens', 'school'])
          assert.ok(
            first.tables.some((t) => t.startsWith(`${name}(`)),
            name,
          );
      } finally {
        await database.close();
      }
    });

    test('two instances migrating one empty database at once both succeed', async () => {
      const url = await freshDatabaseUrl(engine);
      // Separate processes, as two instances would be: node:sqlite waits for locks synchronously.
      const script = `const { connectDatabase } = await import(${JSON.stringify(new URL('../../src/db/connect.ts', import.meta.url).href)});
        const { loadConfig } = await import(${JSON.stringify(new URL('../../src/config.ts', import.meta.url).href)});
        const d = connectDatabase(loadConfig({ DATABASE_URL: process.env.URL }).database);
        await d.migrate(); await d.close();`;
      const run = () =>
        new Promise<number | null>((resolve) => {
          const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
            env: { ...process.env, URL: url },
            stdio: 'inherit',
          });
          child.on('exit', resolve);
        });
      assert.deepEqual(await Promise.all([run(), run()]), [0, 0]);
      const a = connectDatabase(loadConfig({ DATABASE_URL: url }).database);
      try {
        const rows = await sql<{ n: number | string }>`select count(*) as n from kysely_migration`.execute(a.db);
        assert.equal(Number(rows.rows[0]?.n), Object.keys(await migrationProvider.getMigrations()).length);
      } finally {
        await a.close();
      }
    });

    test('emails are unique and foreign keys are enforced', async () => {
      const database = connectDatabase(loadConfig({ DATABASE_URL: await freshDatabaseUrl(engine) }).database);
      try {
        await database.migrate();
        const now = new Date().toISOString();
        const user = {
          id: 'usr_1',
          email: 'a@b.test',
          name: 'A',
          role: 'student' as const,
          status: 'active' as const,
          password_hash: 'x',
          locale: null,
          created_at: now,
          updated_at: now,
        };
        await database.db.insertInto('users').values(user).execute();
        await assert.rejects(
          database.db
            .insertInto('users')
            .values({ ...user, id: 'usr_2' })
            .execute(),
        );
        await assert.rejects(
          database.db
            .insertInto('sessions')
            .values({ id: 's', user_id: 'usr_missing', created_at: now, last_seen_at: now, expires_at: now })
            .execute(),
        );
        await assert.rejects(
          database.db
            .insertInto('users')
            .values({ ...user, id: 'usr_3', email: 'c@d.test', role: 'admin' as 'owner' })
            .execute(),
        );
      } finally {
        await database.close();
      }
    });

    if (engine === 'postgres') {
      test('a ping right after an answered query needs no connection: a busy pool is not a database away', async () => {
        let ms = 0;
        const database = connectDatabase(loadConfig({ DATABASE_URL: await freshDatabaseUrl(engine) }).database, {
          poolSize: 1,
          msNow: () => ms,
        });
        let release = () => {};
        const holding = Promise.withResolvers<void>();
        // The pool's one connection, taken by a transaction that answered one query and then waits.
        const held = database.db.transaction().execute(async (trx) => {
          await sql`select 1`.execute(trx);
          holding.resolve();
          await new Promise<void>((resolve) => {
            release = resolve;
          });
        });
        try {
          await holding.promise;
          ms += 900;
          await database.ping(300);
          // Long enough after that answer, the ping asks itself, and waits in the pool's line behind the transaction.
          ms += 200;
          await assert.rejects(database.ping(300), { name: 'UnavailableError' });
        } finally {
          release();
          await held;
        }
        await database.ping(300);
        await database.close();
      });
    }

    if (engine === 'sqlite') {
      test('SQLite runs in WAL mode with foreign keys on and a busy timeout', async () => {
        const database = connectDatabase(loadConfig({ DATABASE_URL: await freshDatabaseUrl(engine) }).database);
        try {
          const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(database.db);
          assert.equal(mode.rows[0]?.journal_mode, 'wal');
          const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(database.db);
          assert.equal(fk.rows[0]?.foreign_keys, 1);
          const timeout = await sql<{ timeout: number }>`pragma busy_timeout`.execute(database.db);
          assert.equal(timeout.rows[0]?.timeout, 5000);
        } finally {
          await database.close();
        }
      });
    }
  });
}
