import { Kysely, PostgresDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import type { Config } from '../config.ts';
import { auditedDialect } from './audited-dialect.ts';
import { migrationProvider } from './migrations/index.ts';
import type { RequestWrites } from './request-writes.ts';
import { nodeSqliteDialect } from './sqlite-dialect.ts';
import type { Db, Engine } from './tables.ts';
import { UnavailableError } from './unavailable.ts';

export type Database = {
  db: Db;
  engine: Engine;
  /** Applies pending migrations; on PostgreSQL Kysely's migrator holds `pg_advisory_lock` while it runs. */
  migrate(): Promise<void>;
  /**
   * Where the database's schema stands against this code: the migrations it has not had (`pending`: the code is
   * newer) and those it had that this code does not know (`unknown`: a newer version migrated it).
   */
  schema(): Promise<{ pending: string[]; unknown: string[] }>;
  /**
   * Resolves once the database answers, at once if a query was answered within the last second; rejects when it does
   * not within `timeoutMs` (a readiness check never hangs).
   */
  ping(timeoutMs?: number): Promise<void>;
  /** The PostgreSQL pool's connections now (SQLite has one connection and no pool). */
  pool(): { open: number; idle: number; waiting: number } | undefined;
  close(): Promise<void>;
};

/** How recent an answered query must be for ping() to count it as the database's answer. */
const RECENTLY_ANSWERED_MS = 1_000;

export function connectDatabase(
  database: Config['database'],
  options: {
    poolSize?: number;
    /** The write contexts of the server's API writes: each one's audit row is written in its write's transaction. */
    requestWrites?: Pick<RequestWrites, 'trail'>;
    /** Told of each PostgreSQL connection that failed or was ended by the server (already given up by the pool). */
    onConnectionError?: (error: Error) => void;
    /**
     * Told how long each query took, failed ones too (the metrics' query time), with its statement as sent: placeholders,
     * never the values (the traces' query spans).
     */
    onQuery?: (seconds: number, query: { sql: string; failed: boolean }) => void;
    /** Milliseconds on a steady clock, which say how recent the last answered query is (ping); performance.now(). */
    msNow?: () => number;
  } = {},
): Database {
  const pool =
    database.engine === 'postgres'
      ? postgresPool(database.url, options.poolSize ?? 10, options.onConnectionError)
      : undefined;
  const engineDialect =
    database.engine === 'sqlite' ? nodeSqliteDialect(database.path) : new PostgresDialect({ pool: pool as pg.Pool });
  const dialect = options.requestWrites ? auditedDialect(engineDialect, options.requestWrites.trail) : engineDialect;
  const onQuery = options.onQuery;
  const msNow = options.msNow ?? (() => performance.now());
  /** When a query last came back answered (ms); ping() needs no query of its own right after one. */
  let answeredAt = Number.NEGATIVE_INFINITY;
  const db = new Kysely<import('./tables.ts').Tables>({
    dialect,
    log: (event) => {
      // A failed query voids the last answer: the next ping asks for itself.
      answeredAt = event.level === 'query' ? msNow() : Number.NEGATIVE_INFINITY;
      onQuery?.(event.queryDurationMillis / 1000, { sql: event.query.sql, failed: event.level === 'error' });
    },
  });
  const schema = async () => {
    const migrator = await migratorOf(db, database.engine);
    const known = await migrator.getMigrations();
    const pending = known.filter((m) => !m.executedAt).map((m) => m.name);
    const names = new Set(known.map((m) => m.name));
    // getMigrations lists only the code's own; the ones a newer version ran are read from Kysely's table itself.
    const ran = await db
      .withSchema((await schemaOf(db, database.engine)) ?? 'main')
      .selectFrom('kysely_migration' as never)
      .select(sql<string>`name`.as('name'))
      .execute()
      .catch(() => [] as { name: string }[]);
    return { pending, unknown: ran.map((r) => r.name).filter((name) => !names.has(name)) };
  };
  return {
    db,
    engine: database.engine,
    pool: () => (pool ? { open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : undefined),
    schema,
    async migrate() {
      const { unknown } = await schema();
      if (unknown.length) throw new SchemaAheadError(unknown);
      const migrator = await migratorOf(db, database.engine);
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
    async ping(timeoutMs = 2_000) {
      // A query answered a moment ago says what a `select 1` would. Under load a ping would wait in the pool's line
      // behind the requests, and a busy instance told unready is taken out of its load balancer, which piles its
      // share onto the others: busy is not down.
      if (msNow() - answeredAt < RECENTLY_ANSWERED_MS) return;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new UnavailableError('database')), timeoutMs);
      });
      try {
        await Promise.race([sql`select 1`.execute(db), late]);
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => {
      answeredAt = Number.NEGATIVE_INFINITY;
      return db.destroy();
    },
  };
}

/**
 * The PostgreSQL pool, made to outlive the database's restarts, failovers and network blips:
 * - A connection the server ends (a restart says "terminating connection due to administrator command") or that
 *   breaks emits 'error' on its client, idle in the pool or checked out between a transaction's queries. An 'error'
 *   event nobody listens to ends the Node process, so every client and the pool itself get a listener; the pool
 *   already drops a failed client, and the next query opens a fresh connection once the server is back.
 * - Getting a connection gives up after 10 s (the default waits for ever), so a request answers 503 instead of
 *   hanging while the server cannot be reached (a stopped server refuses at once; a host cut off by the network
 *   answers nothing). The pool applies the same bound to waiting for a free connection, hence not less: a burst
 *   that queues for the pool is slow, not refused. TCP keep-alive notices a connection whose peer vanished.
 */
/**
 * The database was migrated by a newer version of Lyceum: this code does not know its latest migrations, so it will
 * not start on it (an instance of the older version already running goes on serving: migrations only add).
 */
export class SchemaAheadError extends Error {
  readonly unknown: string[];
  constructor(unknown: string[], message?: string) {
    super(
      message ??
        `The database was upgraded by a newer Lyceum (its migrations ${unknown.join(', ')} are unknown to this version): start that version, or restore a backup made for this one.`,
    );
    this.unknown = unknown;
  }
}

/** The connection's own schema on PostgreSQL (undefined on SQLite). */
async function schemaOf(db: Db, engine: Engine) {
  return engine === 'postgres'
    ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
    : undefined;
}

/**
 * Kysely's migrator over this code's migrations. Kysely looks for its bookkeeping tables by name in every schema; they
 * are pinned to the connection's own schema so two schools sharing one PostgreSQL database in different schemas never
 * see each other's migrations.
 */
async function migratorOf(db: Db, engine: Engine) {
  return new Migrator({ db, provider: migrationProvider, migrationTableSchema: await schemaOf(db, engine) });
}

function postgresPool(url: string, max: number, onConnectionError: (error: Error) => void = () => {}) {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // An idle client's error reaches the pool too (after the client's own listener below, which reports it).
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', onConnectionError));
  return pool;
}
