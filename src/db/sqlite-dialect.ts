import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { type DialectAdapter, type Kysely, SqliteAdapter, SqliteDialect, sql } from 'kysely';

/**
 * Turns on WAL. Changing the journal mode needs the file to itself, and SQLite answers "database is locked" at once
 * there rather than under the busy timeout: two instances starting on one new file (one migrating, the other changing
 * the mode) met it. The mode persists in the file, so the change is tried again for up to the busy timeout.
 */
async function walMode(db: DatabaseSync) {
  for (let waited = 0; ; waited += 50) {
    try {
      db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
      return;
    } catch (error) {
      if (waited >= BUSY_TIMEOUT_MS || !/database is locked/.test((error as Error).message)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** How long a statement waits for another connection's lock before SQLite says "database is locked". */
const BUSY_TIMEOUT_MS = 5_000;

/**
 * Kysely's SqliteDialect speaks the better-sqlite3 statement interface; node:sqlite's StatementSync differs only in
 * how it tells a reader from a writer (`columns()`) and in taking parameters spread.
 */
export function nodeSqliteDialect(path: string): SqliteDialect {
  return new LockingSqliteDialect(path, {
    database: async () => {
      if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
      const db = new DatabaseSync(path, { enableForeignKeyConstraints: true, timeout: BUSY_TIMEOUT_MS });
      await walMode(db);
      const statements = new Map<string, { statement: StatementSync; reader: boolean }>();
      return {
        close: () => db.close(),
        prepare(sql: string) {
          // Kysely sends the same few SQL texts over and over; preparing each once saves most of a query's cost.
          let prepared = statements.get(sql);
          if (!prepared) {
            if (statements.size >= 500) statements.clear();
            const fresh = db.prepare(sql);
            prepared = { statement: fresh, reader: fresh.columns().length > 0 };
            statements.set(sql, prepared);
          }
          const { statement, reader } = prepared;
          const params = (values: ReadonlyArray<unknown>) => values as SQLInputValue[];
          return {
            reader,
            all: (values: ReadonlyArray<unknown>) => statement.all(...params(values)),
            run: (values: ReadonlyArray<unknown>) => {
              const result = statement.run(...params(values));
              return { changes: result.changes, lastInsertRowid: result.lastInsertRowid };
            },
            iterate: (values: ReadonlyArray<unknown>) => statement.iterate(...params(values)),
          };
        },
      };
    },
  });
}

/**
 * Kysely's SQLite adapter takes no migration lock, so two processes starting on one file would both apply the same
 * migration. Holding an IMMEDIATE transaction (SQLite's write lock; the other process waits under the busy timeout)
 * from lock to release makes the second one see the first one's work.
 *
 * A migration that must change a table with foreign keys off (026, SQLite ignores that switch inside a transaction)
 * commits and begins again in the middle, which would let the other process in with a plan read before it: so the
 * whole run is also held under an exclusive lock on a file of its own beside the database, which no migration
 * touches and the system releases if the process dies.
 */
class LockingSqliteAdapter extends SqliteAdapter {
  #locked = false;
  #runLock: DatabaseSync | undefined;
  readonly path: string;
  constructor(path: string) {
    super();
    this.path = path;
  }
  override async acquireMigrationLock(db: Kysely<unknown>): Promise<void> {
    if (this.path !== ':memory:') {
      const runLock = new DatabaseSync(`${this.path}-migrating`, { timeout: MIGRATION_WAIT_MS });
      try {
        runLock.exec('begin exclusive');
      } catch (error) {
        runLock.close();
        throw error;
      }
      this.#runLock = runLock;
    }
    await sql`begin immediate`.execute(db);
    this.#locked = true;
  }
  override async releaseMigrationLock(db: Kysely<unknown>): Promise<void> {
    try {
      if (!this.#locked) return;
      this.#locked = false;
      await sql`commit`.execute(db);
    } finally {
      this.#runLock?.exec('commit');
      this.#runLock?.close();
      this.#runLock = undefined;
    }
  }
}

/** How long a process waits for another's migrations to finish before it gives up starting. */
const MIGRATION_WAIT_MS = 10 * 60_000;

class LockingSqliteDialect extends SqliteDialect {
  readonly #path: string;
  constructor(path: string, config: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(config);
    this.#path = path;
  }
  override createAdapter(): DialectAdapter {
    return new LockingSqliteAdapter(this.#path);
  }
}
