import { type Expression, type Kysely, PostgresAdapter, type SqlBool, sql } from 'kysely';
import type { Engine } from './tables.ts';
import { containsText } from './text-match.ts';

/** The columns the `q=` filters search, one per table; each has an index that keeps the search fast at any size. */
export const SEARCHED = { courses: 'title', posts: 'title', pages: 'title', lecturers: 'name' } as const;
export type Searched = keyof typeof SEARCHED;

/** FTS5's trigram tokenizer indexes every three characters, so it can only narrow a search for three or more. */
const TRIGRAM = 3;

const searchTable = (table: Searched) => `${table}_search`;

/**
 * The `q=` filter: `table`'s searched column contains `text` literally (no wildcards; `%`, `_` and quotes are plain
 * characters), case-insensitively. Both engines answer it from a trigram index: on SQLite an FTS5 table with the
 * trigram tokenizer (a phrase query is a substring match there), on PostgreSQL a pg_trgm GIN index on the lowered
 * column, which serves `LIKE '%…%'` directly. Texts shorter than three characters cannot use either index and scan.
 */
export function matchesText(engine: Engine, table: Searched, text: string): Expression<SqlBool> {
  const column = SEARCHED[table];
  if (engine === 'postgres' || [...text].length < TRIGRAM) return containsText(column, text);
  const phrase = `"${text.replaceAll('"', '""')}"`;
  return sql<SqlBool>`${sql.ref(`${table}.rowid`)} in (select rowid from ${sql.table(searchTable(table))} where ${sql.table(searchTable(table))} match ${phrase})`;
}

/**
 * Creates the search index of `table`, kept in step with every write in the writing transaction itself: on SQLite
 * by triggers that copy the searched column into an external-content FTS5 table (keyed by the row's rowid), on
 * PostgreSQL by the index itself.
 */
export async function createSearchIndex(db: Kysely<unknown>, table: Searched): Promise<void> {
  const column = SEARCHED[table];
  const t = sql.table(table);
  const c = sql.ref(column);
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const schema = await trigramSchema(db);
    await sql`create index ${sql.id(`${table}_${column}_trgm`)} on ${t} using gin (lower(${c}) ${sql.id(schema)}.gin_trgm_ops)`.execute(
      db,
    );
    return;
  }
  const s = sql.table(searchTable(table));
  await sql`create virtual table ${s} using fts5(${c}, content=${sql.lit(table)}, tokenize='trigram')`.execute(db);
  await sql`insert into ${s}(${s}) values ('rebuild')`.execute(db);
  const trigger = (name: string) => sql.id(`${searchTable(table)}_${name}`);
  await sql`create trigger ${trigger('insert')} after insert on ${t} begin
    insert into ${s}(rowid, ${c}) values (new.rowid, new.${c});
  end`.execute(db);
  await sql`create trigger ${trigger('delete')} after delete on ${t} begin
    insert into ${s}(${s}, rowid, ${c}) values ('delete', old.rowid, old.${c});
  end`.execute(db);
  await sql`create trigger ${trigger('update')} after update of ${c} on ${t} begin
    insert into ${s}(${s}, rowid, ${c}) values ('delete', old.rowid, old.${c});
    insert into ${s}(rowid, ${c}) values (new.rowid, new.${c});
  end`.execute(db);
}

/**
 * The schema holding pg_trgm, installing it into `public` if the database does not have it yet (it is a trusted
 * extension: the database owner may install it). Every school schema in the database shares that one copy.
 */
async function trigramSchema(db: Kysely<unknown>): Promise<string> {
  const find = () =>
    sql<{
      schema: string;
    }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(
      db,
    );
  let found = (await find()).rows[0];
  if (!found) {
    await sql`create extension if not exists pg_trgm schema public`.execute(db);
    found = (await find()).rows[0];
  }
  if (!found) throw new Error('pg_trgm could not be installed');
  return found.schema;
}
