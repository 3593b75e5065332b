import type { AsyncLocalStorage } from 'node:async_hooks';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import type { Config } from '../config.ts';
import { type AuditTrail, auditedDialect } from './audited-dialect.ts';
import { migrationProvider } from './migrations/index.ts';
import { nodeSqliteDialect } from './sqlite-dialect.ts';
import type { Db, Engine } from './tables.ts';

export type Database = {
  db: Db;
  engine: Engine;
  /** Applies pending migrations; on PostgreSQL Kysely's migrator holds `pg_advisory_lock` while it runs. */
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
};

export function connectDatabase(
  database: Config['database'],
  options: {
    poolSize?: number;
    /** The audit trails of the server's write operations, each written in its write's transaction. */
    auditTrails?: AsyncLocalStorage<AuditTrail>;
  } = {},
): Database {
  const engineDialect =
    database.engine === 'sqlite'
      ? nodeSqliteDialect(database.path)
      : new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: options.poolSize ?? 10 }) });
  const dialect = options.auditTrails ? auditedDialect(engineDialect, options.auditTrails) : engineDialect;
  const db = new Kysely<import('./tables.ts').Tables>({ dialect });
  return {
    db,
    engine: database.engine,
    async migrate() {
      // Kysely looks for its bookkeeping tables by name in every schema; pin them to the connection's own schema so
      // two schools sharing one PostgreSQL database in different schemas never see each other's migrations.
      const migrationTableSchema =
        database.engine === 'postgres'
          ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
          : undefined;
      const migrator = new Migrator({ db, provider: migrationProvider, migrationTableSchema });
      for (let attempt = 1; ; attempt++) {
        const { error, results } = await migrator.migrateToLatest();
        if (!error) return;
        const failed = results?.find((r) => r.status === 'Error');
        // Kysely prepares its bookkeeping tables before taking the lock; on SQLite a second process starting at the
        // same moment can find the file busy there. Nothing was applied then (no migration failed), so try again.
        const busy = database.engine === 'sqlite' && !failed && /database is locked/.test((error as Error).message);
        if (busy && attempt < 10) {
          await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
          continue;
        }
        throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${(error as Error).message}`, {
          cause: error,
        });
      }
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}
