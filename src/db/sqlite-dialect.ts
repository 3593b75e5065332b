import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { type DialectAdapter, type Kysely, SqliteAdapter, SqliteDialect, sql } from 'kysely';

/**
 * Kysely's SqliteDialect speaks the better-sqlite3 statement interface; node:sqlite's StatementSync differs only in
 * how it tells a reader from a writer (`columns()`) and in taking parameters spread.
 */
export function nodeSqliteDialect(path: string): SqliteDialect {
  return new LockingSqliteDialect({
    database: async () => {
      if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
      const db = new DatabaseSync(path, { enableForeignKeyConstraints: true, timeout: 5000 });
      db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
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
 */
class LockingSqliteAdapter extends SqliteAdapter {
  #locked = false;
  override async acquireMigrationLock(db: Kysely<unknown>): Promise<void> {
    await sql`begin immediate`.execute(db);
    this.#locked = true;
  }
  override async releaseMigrationLock(db: Kysely<unknown>): Promise<void> {
    if (!this.#locked) return;
    this.#locked = false;
    await sql`commit`.execute(db);
  }
}

class LockingSqliteDialect extends SqliteDialect {
  override createAdapter(): DialectAdapter {
    return new LockingSqliteAdapter();
  }
}
