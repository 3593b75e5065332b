/**
 * npm run bench:search-plans — what a `q=` search of the course catalog costs in SQLite itself, plan by plan, at
 * BENCH_COURSES courses (100,000) seeded as bench:api seeds them (each vocabulary word is in about 1.5 % of titles).
 * No HTTP: each plan is one prepared statement (or two) run through node:sqlite, timed over 200 searches, so the
 * figures are the database's share of a request. The experimental indexes are built in the bench's own database
 * file only; the app's schema is what the migrations make.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { loadConfig } from '../src/config.ts';
import { connectDatabase } from '../src/db/connect.ts';
import { seedSchool, WORDS } from './seed.ts';
import { percentile, table } from './support.ts';

const COURSES = Number(process.env.BENCH_COURSES ?? 100_000);
const SEARCHES = 200;
const WALK = 2000;

const path = join(mkdtempSync(join(tmpdir(), 'lyceum-search-plans-')), 'lyceum.sqlite');
const database = connectDatabase(loadConfig({ DATABASE_URL: path }).database);
await database.migrate();
await database.close();
await seedSchool(path, { courses: COURSES, enrollments: 0 });

const db = new DatabaseSync(path);
db.exec(`create index bench_listed_title on courses(status, visibility, id, lower(title));
  create virtual table bench_words using fts5(title, content='courses', tokenize='unicode61', prefix='3');
  insert into bench_words(bench_words) values ('rebuild');`);

/** The anonymous view's filter, on the courses table or on its alias. */
const listed = (alias = '') => `${alias}status = 'published' and ${alias}visibility = 'public'`;
const phrase = (text: string) => `"${text.replaceAll('"', '""')}"`;
const inIndex = db.prepare(
  `select * from courses where rowid in (select rowid from courses_search where courses_search match ?) and ${listed()} order by id desc limit 21`,
);
const matchCount = db.prepare(`select count(*) as n from courses_search where courses_search match ?`);
const lazy = db.prepare(
  `select c.* from courses_search s join courses c on c.rowid = s.rowid where s.courses_search match ? and ${listed('c.')} order by s.rowid desc limit 21`,
);
const walk = db.prepare(
  `select * from courses where ${listed()} and id >= ? and instr(lower(title), ?) > 0 order by id desc limit 21`,
);
const boundary = db.prepare(`select id from courses where ${listed()} order by id desc limit 1 offset ${WALK - 1}`);
const rest = db.prepare(
  `select * from courses where rowid in (select rowid from courses_search where courses_search match ?) and ${listed()} and id < ? order by id desc limit ?`,
);
const words = db.prepare(`select count(*) as n from bench_words where bench_words match ?`);

/** The bounded walk: the newest WALK listed courses in page order, then the trigram index for the older ones. */
function hybrid(text: string) {
  const edge = (boundary.get() as { id: string } | undefined)?.id ?? '';
  const found = walk.all(edge, text.toLowerCase());
  if (found.length >= 21 || !edge) return found.length;
  return found.length + rest.all(phrase(text), edge, 21 - found.length).length;
}

const word = (i: number) => WORDS[(i * 37) % WORDS.length] ?? 'algebra';
const texts = {
  'a vocabulary word (≈ 1.5 % of titles)': word,
  'two words, a phrase no title has': (i: number) => `${word(i)} and ${WORDS[(i * 11) % WORDS.length]}`,
  'a word with two letters more, no match': (i: number) => `zq${word(i)}`,
};

const rows: string[][] = [];
function measure(plan: string, textName: keyof typeof texts, run: (text: string) => number) {
  const text = texts[textName];
  for (let i = 0; i < 20; i++) run(text(i));
  const times: number[] = [];
  let found = 0;
  for (let i = 0; i < SEARCHES; i++) {
    const started = performance.now();
    found += run(text(i));
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => percentile(times, p).toFixed(3);
  rows.push([plan, textName, at(50), at(99), (found / SEARCHES).toFixed(1)]);
}

const count = (statement: typeof matchCount, match: string) => Number((statement.get(match) as { n: number }).n);
for (const name of Object.keys(texts) as (keyof typeof texts)[]) {
  measure('trigram index, then sort (the app today)', name, (t) => inIndex.all(phrase(t)).length);
  measure('trigram index, finding the matches only', name, (t) => count(matchCount, phrase(t)));
  measure('trigram index read newest rowid first, stopping at 21', name, (t) => lazy.all(phrase(t)).length);
  measure(`bounded walk (${WALK} newest, covering index), then trigram index`, name, hybrid);
}
measure(
  'walk in page order, covering index, unbounded',
  'a vocabulary word (≈ 1.5 % of titles)',
  (t) => walk.all('', t.toLowerCase()).length,
);
measure(
  'walk in page order, covering index, unbounded',
  'a word with two letters more, no match',
  (t) => walk.all('', t.toLowerCase()).length,
);
measure('word index (unicode61, prefix), finding the matches only', 'a vocabulary word (≈ 1.5 % of titles)', (t) =>
  count(words, `${phrase(t)}*`),
);
db.close();

console.log(`#### SQLite, ${COURSES.toLocaleString('en')} courses, ${SEARCHES} searches per row\n`);
console.log(table(['plan', 'search text', 'p50 ms', 'p99 ms', 'rows'], rows));
