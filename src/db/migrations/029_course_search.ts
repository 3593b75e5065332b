import { type Kysely, PostgresAdapter, type RawBuilder, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { extensionSchema } from '../text-search.ts';

/**
 * The course search of `q=` (areas/courses/search-store.ts): one row per course in `course_search` with the texts a
 * visitor may search — title, subtitle, description, the names of its active lecturers and the titles of its published
 * lessons in published sections (a draft lesson's title is never searchable, so it cannot leak through a search) —
 * and a word index over them. Each row also says whether the course is `listed`: published and public, the courses
 * anyone is listed (areas/courses/service.ts `viewOf`), so the public search is answered from the index alone. The
 * database keeps both in step, by triggers on courses, lessons, sections and lecturers, inside the transaction that
 * writes: whichever area writes, the index follows.
 *
 * Words are cut and compared the same way on both engines: letters and digits, case and accents folded, English
 * endings stemmed ("watercolours" finds "watercolour"), no stop words dropped. SQLite: an FTS5 table with the porter
 * tokenizer over `course_search`, ranked by bm25. PostgreSQL: a weighted tsvector (title A, subtitle and lecturers B,
 * description C, lessons D) in a GIN index, through the text search configuration `course_words` (unaccent, then the
 * English Snowball stemmer without its stop-word list), ranked by ts_rank.
 */
export const courseSearch: Migration = {
  async up(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) await postgres(db);
    else await sqlite(db);
  },
};

const SEPARATOR = sql.lit(' · ');

/** The texts of the courses `where` picks, as the search sees them: lecturer names and lesson titles joined. */
const searchedTexts = (lecturers: RawBuilder<unknown>, listed: RawBuilder<unknown>, where: RawBuilder<unknown>) => sql`
  select c.id, c.title, c.subtitle, c.description, ${listed},
    coalesce((select ${lecturers}), ''),
    coalesce((select string_agg(le.title, ${SEPARATOR} order by s.position, le.position)
      from lessons le join sections s on s.id = le.section_id
      where le.course_id = c.id and le.status = 'published' and s.status = 'published'), '')
  from courses c where ${where}`;

const UPSERT = sql`on conflict (course_id) do update set title = excluded.title, subtitle = excluded.subtitle,
  description = excluded.description, listed = excluded.listed, lecturers = excluded.lecturers, lessons = excluded.lessons`;
/** Published and public: the courses every caller is listed. */
const LISTED = sql`c.status = 'published' and c.visibility = 'public'`;

async function sqlite(db: Kysely<unknown>) {
  // An INTEGER PRIMARY KEY keys the indexes: VACUUM keeps it, where it may renumber an implicit rowid.
  await sql`create table course_search (
    id integer primary key,
    course_id text not null unique,
    title text not null, subtitle text not null, description text not null, listed integer not null,
    lecturers text not null, lessons text not null
  )`.execute(db);
  const tokenize = sql.lit('porter unicode61 remove_diacritics 2');
  await sql`create virtual table course_search_index using fts5(
    title, subtitle, description, lecturers, lessons,
    content = 'course_search', content_rowid = 'id', tokenize = ${tokenize}
  )`.execute(db);
  // The listed courses again, alone, in an index that keeps no text of its own (the first one gives the snippets): the
  // public search is one word list to read and its count one number, however many courses are hidden.
  await sql`create virtual table course_search_listed using fts5(
    title, subtitle, description, lecturers, lessons, content = '', contentless_delete = 1, tokenize = ${tokenize}
  )`.execute(db);
  const texts = ['title', 'subtitle', 'description', 'lecturers', 'lessons'];
  const searched = sql.raw(texts.join(', '));
  const of = (row: 'new' | 'old') => sql.join(texts.map((c) => sql.ref(`${row}.${c}`)));
  const add = (row: 'new') => sql`
    insert into course_search_index (rowid, ${searched}) values (new.id, ${of(row)});
    insert into course_search_listed (rowid, ${searched}) select new.id, ${of(row)} where new.listed;`;
  const remove = (row: 'old') => sql`
    insert into course_search_index (course_search_index, rowid, ${searched}) values ('delete', old.id, ${of(row)});
    delete from course_search_listed where rowid = old.id and old.listed;`;
  await sql`create trigger course_search_added after insert on course_search begin ${add('new')} end`.execute(db);
  await sql`create trigger course_search_removed after delete on course_search begin ${remove('old')} end`.execute(db);
  await sql`create trigger course_search_changed after update on course_search begin
    ${remove('old')} ${add('new')}
  end`.execute(db);
  const columns = sql.raw('title, subtitle, description, listed, lecturers, lessons');

  const lecturers = sql`string_agg(l.name, ${SEPARATOR} order by l.name) from lecturers l
    where l.status = 'active' and l.id in (select value from json_each(c.lecturer_ids))`;
  /** Writes the search row of the courses `where` picks (a trigger's statement; `where true` is every course). */
  const listed = sql`${LISTED}`;
  const refresh = (where: RawBuilder<unknown>) =>
    sql`insert into course_search (course_id, ${columns}) ${searchedTexts(lecturers, listed, where)} ${UPSERT};`;
  const trigger = (name: string, event: RawBuilder<unknown>, body: RawBuilder<unknown>) =>
    sql`create trigger ${sql.id(`course_search_${name}`)} ${event} begin ${body} end`.execute(db);

  await trigger('course_added', sql`after insert on courses`, refresh(sql`c.id = new.id`));
  await trigger(
    'course_changed',
    sql`after update of title, subtitle, description, lecturer_ids, status, visibility on courses`,
    refresh(sql`c.id = new.id`),
  );
  await trigger(
    'course_removed',
    sql`after delete on courses`,
    sql`delete from course_search where course_id = old.id;`,
  );
  await trigger('lesson_added', sql`after insert on lessons`, refresh(sql`c.id = new.course_id`));
  await trigger(
    'lesson_changed',
    sql`after update of title, status, section_id, course_id on lessons`,
    sql`${refresh(sql`c.id = new.course_id`)} ${refresh(sql`c.id = old.course_id and old.course_id <> new.course_id`)}`,
  );
  await trigger('lesson_removed', sql`after delete on lessons`, refresh(sql`c.id = old.course_id`));
  await trigger('section_changed', sql`after update of status on sections`, refresh(sql`c.id = new.course_id`));
  await trigger('section_removed', sql`after delete on sections`, refresh(sql`c.id = old.course_id`));
  const listing = (row: 'new' | 'old') => sql`c.lecturer_ids like '%"' || ${sql.ref(`${row}.id`)} || '"%'`;
  await trigger('lecturer_changed', sql`after update of name, status on lecturers`, refresh(listing('new')));
  await trigger('lecturer_removed', sql`after delete on lecturers`, refresh(listing('old')));

  // In id order, so the index's rowids follow the courses' creation order as later inserts do (ties are ordered by them).
  await sql`insert into course_search (course_id, ${columns}) ${searchedTexts(lecturers, listed, sql`true order by c.id`)} ${UPSERT}`.execute(
    db,
  );
}

async function postgres(db: Kysely<unknown>) {
  const unaccent = await extensionSchema(db, 'unaccent');
  await sql`create text search dictionary course_stem (template = snowball, language = english)`.execute(db);
  await sql`create text search configuration course_words (copy = pg_catalog.simple)`.execute(db);
  await sql`alter text search configuration course_words
    alter mapping for asciiword, asciihword, hword_asciipart, word, hword, hword_part
    with ${sql.id(unaccent, 'unaccent')}, course_stem`.execute(db);
  const vector = (column: string, weight: string) =>
    sql`setweight(to_tsvector('course_words'::regconfig, ${sql.ref(column)}), ${sql.lit(weight)})`;
  await sql`create table course_search (
    course_id text primary key references courses (id) on delete cascade,
    title text not null, subtitle text not null, description text not null, listed boolean not null,
    lecturers text not null, lessons text not null,
    document tsvector not null generated always as (
      ${vector('title', 'A')} || ${vector('subtitle', 'B')} || ${vector('lecturers', 'B')} ||
      ${vector('description', 'C')} || ${vector('lessons', 'D')}
    ) stored
  )`.execute(db);
  // Without GIN's pending list, which every search would read whole until a vacuum merged it: a catalog is written
  // rarely and searched often.
  await sql`create index course_search_document on course_search using gin (document) with (fastupdate = off)`.execute(
    db,
  );

  const lecturers = sql`string_agg(l.name, ${SEPARATOR} order by l.name) from lecturers l
    where l.status = 'active' and l.id in (select jsonb_array_elements_text(c.lecturer_ids::jsonb))`;
  // PL/pgSQL, whose tables are looked up when it runs (by the session's search_path, as every query of the school
  // is), so a dump of the schema restores in any order.
  await sql`create function course_search_refresh(ids text[]) returns void language plpgsql as $$ begin
    insert into course_search (course_id, title, subtitle, description, listed, lecturers, lessons)
    ${searchedTexts(lecturers, LISTED, sql`c.id = any(ids)`)} ${UPSERT};
  end $$`.execute(db);
  /** A function refreshing the courses `ids` names, run after each of `events` ([event, condition]) on each row. */
  const trigger = async (name: string, ids: RawBuilder<unknown>, ...events: [string, string?][]) => {
    const fn = sql.id(`course_search_${name}`);
    await sql`create function ${fn}() returns trigger language plpgsql as $$
      begin perform course_search_refresh(${ids}); return null; end $$`.execute(db);
    for (const [i, [event, condition]] of events.entries())
      await sql`create trigger ${sql.id(`course_search_${name}_${i}`)} after ${sql.raw(event)} for each row ${
        condition ? sql`when (${sql.raw(condition)})` : sql``
      } execute function ${fn}()`.execute(db);
  };
  const changed = (...columns: string[]) => columns.map((c) => `old.${c} is distinct from new.${c}`).join(' or ');
  await trigger(
    'course',
    sql`array[new.id]`,
    ['insert on courses'],
    ['update on courses', changed('title', 'subtitle', 'description', 'lecturer_ids', 'status', 'visibility')],
  );
  // In a DELETE trigger `new` is null, in an INSERT trigger `old`: the refresh finds no course for a null id.
  const both = sql`array[case when tg_op <> 'INSERT' then old.course_id end, case when tg_op <> 'DELETE' then new.course_id end]`;
  await trigger(
    'lesson',
    both,
    ['insert or delete on lessons'],
    ['update on lessons', changed('title', 'status', 'section_id', 'course_id')],
  );
  await trigger('section', both, ['delete on sections'], ['update on sections', changed('status')]);
  await trigger(
    'lecturer',
    sql`array(select c.id from courses c where c.lecturer_ids like '%"' || (case when tg_op = 'DELETE' then old.id else new.id end) || '"%')`,
    ['delete on lecturers'],
    ['update on lecturers', changed('name', 'status')],
  );

  await sql`select course_search_refresh(array(select id from courses))`.execute(db);
}
