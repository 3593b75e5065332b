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
    const schema = await extensionSchema(db, 'pg_trgm');
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
 * The schema holding the PostgreSQL extension `name` (pg_trgm, unaccent), installing it into `public` if the database
 * does not have it yet (both are trusted extensions: the database owner may install them). Every school schema in the
 * database shares that one copy.
 */
export async function extensionSchema(db: Kysely<unknown>, name: string): Promise<string> {
  const find = async () =>
    (
      await sql<{
        schema: string;
      }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = ${name}`.execute(
        db,
      )
    ).rows[0]?.schema;
  const found = await find();
  if (found) return found;
  await sql`create extension if not exists ${sql.id(name)} schema public`.execute(db);
  const installed = await find();
  if (!installed) throw new Error(`${name} could not be installed`);
  return installed;
}
