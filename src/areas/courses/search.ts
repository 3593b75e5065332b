import type { SelectQueryBuilder } from 'kysely';
import type { CoursesTable, Engine, Executor, Tables } from '../../db/tables.ts';
import { rankedCursor, readRankedCursor } from './ranked-cursor.ts';
import type { Course, CourseListQuery } from './schema.ts';
import { snippetHtml } from './search-snippet.ts';
import { passages, type RankedRow, rankedRows } from './search-store.ts';
import { searchWords } from './search-words.ts';

/** A page of a ranked search: the list page's fields, how many courses were found in all, and the way back. */
export type RankedPage = {
  data: Course[];
  has_more: boolean;
  next_cursor: string | null;
  total: number;
  /** The cursor of the page before this one (for `ending_before`); null on the first page. */
  previous_cursor: string | null;
};

/** Where a page of a search starts: after the `starting_after` cursor (the API's), or ends before `ending_before`. */
export type SearchQuery = CourseListQuery & { q: string; ending_before?: string };

/** The list's query for the caller, and whether it is the public listing with no other filter (search-store.ts). */
export type Listed = { filtered: SelectQueryBuilder<Tables, 'courses', CoursesTable>; listedOnly: boolean };

/**
 * The search of the course list's `q=` (docs/api/courses.md): every course whose title, subtitle, description,
 * lecturer names or published lesson titles hold each word, best first, a page at a time by a cursor of its own,
 * with a count and each course's snippet. `listed` is the list's query for the caller, so a search shows only what
 * the same list without `q` would.
 */
export async function searchCourses(
  deps: { db: Executor; engine: Engine; toCourse: (row: CoursesTable) => Course },
  listed: Listed,
  query: SearchQuery,
): Promise<RankedPage> {
  const { db, engine } = deps;
  const words = searchWords(query.q);
  const after = query.starting_after === undefined ? undefined : readRankedCursor(words, query.starting_after);
  const before = query.ending_before === undefined ? undefined : readRankedCursor(words, query.ending_before);
  if (words.length === 0) return { data: [], has_more: false, next_cursor: null, total: 0, previous_cursor: null };
  let filtered = listed.filtered;
  // Stored timestamps are UTC `toISOString()` text; a filter is brought to the same form (as areas/pagination.ts).
  if (query.created_after) filtered = filtered.where('created_at', '>', new Date(query.created_after).toISOString());
  if (query.created_before) filtered = filtered.where('created_at', '<', new Date(query.created_before).toISOString());
  const listedOnly = listed.listedOnly && !query.created_after && !query.created_before;
  const limit = query.limit ?? 20;
  const page = { words, filtered, listedOnly };
  const found = await rankedRows(db, engine, { ...page, limit: limit + 1, ...(before ? { before } : { after }) });
  // Past the last result there is no row to carry the count; it is asked for on its own.
  const total =
    found.rows.length === 0 && (after || before)
      ? (await rankedRows(db, engine, { ...page, limit: 1 })).total
      : found.total;
  const more = found.rows.length > limit;
  const shown = more ? found.rows.slice(0, limit) : found.rows;
  if (before) shown.reverse();
  const cursorOf = (row: RankedRow | undefined) =>
    row ? rankedCursor(words, { score: row.score, key: row.key }) : null;
  const texts = await passages(db, engine, words, shown);
  return {
    data: shown.map(({ score: _, key: __, ...row }) => {
      const found = texts.get(row.id);
      return { ...deps.toCourse(row), snippet: found ? snippetHtml(found) : '' };
    }),
    has_more: before ? shown.length > 0 : more,
    next_cursor: before || more ? cursorOf(shown.at(-1)) : null,
    total,
    previous_cursor: before ? (more ? cursorOf(shown[0]) : null) : after ? cursorOf(shown[0]) : null,
  };
}
