import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { SqliteDialect } from 'kysely';

/**
 * Kysely's SqliteDialect speaks the better-sqlite3 statement interface; node:sqlite's StatementSync differs only in
 * how it tells a reader from a writer (`columns()`) and in taking parameters spread.
 */
export function nodeSqliteDialect(path: string): SqliteDialect {
  return new SqliteDialect({
    database: async () => {
      if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
      const db = new DatabaseSync(path, { enableForeignKeyConstraints: true, timeout: 5000 });
      db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
      return {
        close: () => db.close(),
        prepare(sql: string) {
          const statement = db.prepare(sql);
          const params = (values: ReadonlyArray<unknown>) => values as SQLInputValue[];
          return {
            reader: statement.columns().length > 0,
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
