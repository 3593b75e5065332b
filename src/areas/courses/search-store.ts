import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { CoursesTable, Engine, Executor, Tables } from '../../db/tables.ts';

/**
 * Marks around a found word in a passage (two characters of Unicode's private use area, which no text of a course
 * should hold), replaced by <mark> once the passage is escaped (search-snippet.ts).
 */
export const MARK_START = '\uE000';
export const MARK_END = '\uE001';

/**
 * Where a result stands in a ranked list: its relevance (higher first) and, among equal ones, its place in the index
 * (later first): the FTS row's number on SQLite, which follows the courses' creation, and the course id on
 * PostgreSQL.
 */
export type RankedPosition = { score: number; key: string };

export type RankedRow = CoursesTable & { score: number; key: string };

export type RankedRows = { rows: RankedRow[]; total: number };

/** How much each column of SQLite's indexes counts in bm25: title, subtitle, description, lecturers, lessons. */
const SQLITE_WEIGHTS = sql.raw('10.0, 5.0, 2.0, 5.0, 1.0');
/** Words around a found one in a passage. */
const PASSAGE_WORDS = 16;
/** The most of a description PostgreSQL reads for a passage (ts_headline parses all it is given). */
const PASSAGE_DESCRIPTION_CHARS = 4000;

/** The FTS5 query of `words`: each a quoted string (so none is an operator), all required. */
const ftsQuery = (words: string[]) => words.map((word) => `"${word.replaceAll('"', '""')}"`).join(' ');
const tsQuery = (words: string[]) => sql`plainto_tsquery('course_words', ${words.join(' ')})`;

/**
 * `score`/`key` beyond `at` in the list's order (best first), or before it when `backwards`; SQLite's key is a
 * number (its rows' numbers), PostgreSQL's a course id.
 */
function beyond(
  at: RankedPosition | undefined,
  backwards: boolean,
  score: RawBuilder<unknown>,
  key: RawBuilder<unknown>,
  keyOf: (key: string) => string | number = (k) => k,
) {
  if (!at) return sql`true`;
  const op = sql.raw(backwards ? '>' : '<');
  return sql`(${score} ${op} ${at.score} or (${score} = ${at.score} and ${key} ${op} ${keyOf(at.key)}))`;
}

export type RankedQuery = {
  words: string[];
  /** The list's query for the caller: its filters and the caller's view. */
  filtered: SelectQueryBuilder<Tables, 'courses', CoursesTable>;
  /**
   * Whether `filtered` picks exactly the listed courses (the public listing, no other filter): the index then answers
   * alone, without reading every found course.
   */
  listedOnly: boolean;
  limit: number;
  after?: RankedPosition;
  before?: RankedPosition;
};

/**
 * One page of the courses `filtered` picks that have every one of the words in their searched texts
 * (db/migrations/029_course_search.ts), best first, after or before a position, with how many there are in all.
 * Relevance: bm25 with weighted columns on SQLite, ts_rank of the weighted tsvector on PostgreSQL.
 */
export async function rankedRows(ex: Executor, engine: Engine, query: RankedQuery): Promise<RankedRows> {
  return engine === 'postgres' ? postgresRows(ex, query) : sqliteRows(ex, query);
}

/**
 * SQLite. The listed courses: counted and ranked in their own index (course_search_listed), and only the page's rows
 * read from the tables. Any other view: every course found in the whole index joined to the caller's list (the index
 * first: CROSS JOIN keeps that order).
 */
async function sqliteRows(ex: Executor, q: RankedQuery): Promise<RankedRows> {
  const backwards = q.before !== undefined;
  const at = q.after ?? q.before;
  const direction = sql.raw(backwards ? 'asc' : 'desc');
  const match = ftsQuery(q.words);
  if (q.listedOnly) {
    const index = sql.table('course_search_listed');
    const score = sql`-bm25(${index}, ${SQLITE_WEIGHTS})`;
    const [counted, found] = await Promise.all([
      sql<{ n: number }>`select count(*) as n from ${index} where ${index} match ${match}`.execute(ex),
      sql<{ doc: number; score: number }>`select rowid as doc, ${score} as score from ${index}
        where ${index} match ${match} and ${beyond(at, backwards, score, sql`rowid`, Number)}
        order by score ${direction}, rowid ${direction} limit ${q.limit}`.execute(ex),
    ]);
    const docs = found.rows;
    const byDoc = new Map(
      docs.length === 0
        ? []
        : (
            await sql<CoursesTable & { doc: number }>`select s.id as doc, c.* from course_search s
              cross join (${q.filtered}) c on c.id = s.course_id where s.id in (${sql.join(docs.map((d) => d.doc))})`.execute(
              ex,
            )
          ).rows.map(({ doc, ...row }) => [doc, row]),
    );
    const rows = docs.flatMap(({ doc, score }) => {
      const row = byDoc.get(doc);
      return row ? [{ ...row, score, key: String(doc) }] : [];
    });
    return { rows, total: Number(counted.rows[0]?.n ?? 0) };
  }
  const score = sql`-bm25(course_search_index, ${SQLITE_WEIGHTS})`;
  const found = await sql<CoursesTable & { doc: number; score: number; total: number }>`with hits as materialized (
      select rowid as doc, ${score} as score from course_search_index where course_search_index match ${match}
    )
    select * from (
      select c.*, hits.doc, hits.score, count(*) over () as total
      from hits cross join course_search s on s.id = hits.doc cross join (${q.filtered}) c on c.id = s.course_id
    ) found where ${beyond(at, backwards, sql`found.score`, sql`found.doc`, Number)}
    order by found.score ${direction}, found.doc ${direction} limit ${q.limit}`.execute(ex);
  return pageOf(found.rows, ({ doc, total: _, ...row }) => ({ ...row, key: String(doc) }));
}

/**
 * PostgreSQL: the found rows of `course_search` (a GIN index on the tsvector), each ranked. The listed courses are
 * counted and paged on that table alone, and the page's courses read after by id; any other view joins every found
 * course to the caller's list first.
 */
async function postgresRows(ex: Executor, q: RankedQuery): Promise<RankedRows> {
  const backwards = q.before !== undefined;
  const at = q.after ?? q.before;
  const direction = sql.raw(backwards ? 'asc' : 'desc');
  const hits = sql`select s.course_id, ts_rank(s.document, w.query)::float8 as score
    from course_search s, ${tsQuery(q.words)} as w(query)
    where s.document @@ w.query${q.listedOnly ? sql` and s.listed` : sql``}`;
  if (q.listedOnly) {
    const page = await sql<{ course_id: string; score: number; total: string }>`select h.* from (
        select hits.*, count(*) over () as total from (${hits}) hits
      ) h where ${beyond(at, backwards, sql`h.score`, sql`h.course_id`)}
      order by h.score ${direction}, h.course_id ${direction} limit ${q.limit}`.execute(ex);
    const ids = page.rows.map((row) => row.course_id);
    const courses = new Map(
      ids.length === 0
        ? []
        : (await q.filtered.where('id', 'in', ids).execute()).map((row): [string, CoursesTable] => [row.id, row]),
    );
    const rows = page.rows.flatMap(({ course_id, score }) => {
      const row = courses.get(course_id);
      return row ? [{ ...row, score, key: course_id }] : [];
    });
    return { rows, total: Number(page.rows[0]?.total ?? 0) };
  }
  const found = await sql<CoursesTable & { score: number; total: string }>`select * from (
      select c.*, h.score, count(*) over () as total from (${hits}) h join (${q.filtered}) c on c.id = h.course_id
    ) h where ${beyond(at, backwards, sql`h.score`, sql`h.id`)}
    order by h.score ${direction}, h.id ${direction} limit ${q.limit}`.execute(ex);
  return pageOf(found.rows, ({ total: _, ...row }) => ({ ...row, key: row.id }));
}

/** Rows with their window count, as a page: the count rides on every row (none: nothing after the position). */
function pageOf<T extends { total: number | string }>(rows: T[], toRow: (row: T) => RankedRow): RankedRows {
  return { rows: rows.map(toRow), total: Number(rows[0]?.total ?? 0) };
}

/** The passages of a course's texts, by text: found words between MARK_START and MARK_END. */
export type Passages = { title: string; subtitle: string; description: string; lecturers: string; lessons: string };
const TEXTS = ['title', 'subtitle', 'description', 'lecturers', 'lessons'] as const;
/** Each text's column in SQLite's index. */
const SQLITE_COLUMN = { title: 0, subtitle: 1, description: 2, lecturers: 3, lessons: 4 } as const;

/**
 * For each of `found` (rows of `rankedRows`), the passage of each of its texts around the words, by course id; a text
 * without them as it begins (PostgreSQL: the text whole, up to PASSAGE_WORDS words). SQLite reads the rows by their
 * numbers in the index, never walking the index's whole list of the words.
 */
export async function passages(
  ex: Executor,
  engine: Engine,
  words: string[],
  found: Pick<RankedRow, 'id' | 'key'>[],
): Promise<Map<string, Passages>> {
  if (found.length === 0) return new Map();
  const each = (passage: (text: (typeof TEXTS)[number]) => RawBuilder<unknown>) =>
    sql.join(TEXTS.map((text) => sql`${passage(text)} as ${sql.id(text)}`));
  const options = `StartSel=${MARK_START}, StopSel=${MARK_END}, MaxWords=${PASSAGE_WORDS}, MinWords=${PASSAGE_WORDS / 2}, ShortWord=1`;
  const rows =
    engine === 'postgres'
      ? await sql<Passages & { course_id: string }>`select s.course_id, ${each(
          (text) =>
            sql`ts_headline('course_words', ${
              text === 'description' ? sql`left(s.description, ${PASSAGE_DESCRIPTION_CHARS})` : sql.ref(`s.${text}`)
            }, w.query, ${options})`,
        )}
          from course_search s, ${tsQuery(words)} as w(query)
          where s.course_id in (${sql.join(found.map((row) => row.id))})`.execute(ex)
      : await sql<Passages & { course_id: string }>`select s.course_id, ${each(
          (text) =>
            sql`snippet(course_search_index, ${sql.lit(SQLITE_COLUMN[text])}, ${MARK_START}, ${MARK_END}, '…', ${sql.lit(PASSAGE_WORDS)})`,
        )}
          from course_search_index join course_search s on s.id = course_search_index.rowid
          where course_search_index match ${ftsQuery(words)}
          and course_search_index.rowid in (${sql.join(found.map((row) => Number(row.key)))})`.execute(ex);
  return new Map(rows.rows.map(({ course_id, ...texts }) => [course_id, texts]));
}
