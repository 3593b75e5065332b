/**
 * npm run bench:web — the public website's HTML at 32 connections, with 10,000 courses stored (BENCH_COURSES): the
 * catalog's first page, a catalog search with a different word on every request, and a course page, as a signed-out
 * visitor sees them; on the default configuration and on a second server process of the same school with the
 * micro-cache off (LIST_CACHE_MS=0), interleaved with the floors (/healthz, bare Fastify) in one run; server CPU ms per
 * request from /proc (see load.ts). The target: every default-configuration row at least 0.3× the requests per second
 * of /healthz. Pictures are in place: half the courses show one of 24 uploaded covers (a <picture> with its variants,
 * whose facts the page loads), the other half their generated cover (inline SVG).
 *
 * Then the search itself, in a school of 100,000 courses (BENCH_SEARCH_COURSES): 16 searches at a time
 * (SEARCH_CONCURRENCY), each for a different vocabulary word (each in about 1.5 % of the courses), through the
 * catalog page and through the API, on a server with the micro-cache off, so every request searches; the API search
 * again spread over two instances of the school (as behind a proxy); and, beside the target, a word every course has.
 * The target: p99 under 50 ms.
 */
import { benchEachEngine, CONNECTIONS, floorRows, flowRow, loadRow, measureTable, withSchool } from './load.ts';
import { WORDS } from './seed.ts';

const SIZES = { courses: Number(process.env.BENCH_COURSES ?? 10_000), enrollments: 0, covers: 24 };
const SEARCH_SIZES = { courses: Number(process.env.BENCH_SEARCH_COURSES ?? 100_000), enrollments: 0, covers: 24 };
const SEARCH_CONCURRENCY = 16;
const pick = <T>(values: T[]) => values[Math.floor(Math.random() * values.length)];
const html = { headers: { accept: 'text/html' } };

/** Each request a different word: the vocabulary walked in turn by all the searchers together. */
let next = 0;
const nextWord = () => WORDS[next++ % WORDS.length];

/** A GET whose answer must be 200, read whole (as a browser or an app reads it). */
const get = async (url: string) => {
  const response = await fetch(url, html);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
};

await benchEachEngine(async (engine, bare) => {
  const site = await withSchool(engine, [{}, { LIST_CACHE_MS: '0' }], SIZES, async (servers) => {
    const [cached] = servers;
    // Course 1 is published and public (see seed.ts: a tenth are drafts, a twentieth private).
    const rows = servers.flatMap((server, n) => {
      const suffix = n === 0 ? '' : ', LIST_CACHE_MS=0';
      return [
        loadRow(`GET /courses (catalog, first page)${suffix}`, server.pid, `${server.url}/courses`, html),
        loadRow(
          `GET /courses?q=<a different word each request>${suffix}`,
          server.pid,
          `${server.url}/courses`,
          html,
          () => `/courses?q=${pick(WORDS)}`,
        ),
        loadRow(`GET /courses/course-1 (course page)${suffix}`, server.pid, `${server.url}/courses/course-1`, html),
      ];
    });
    const title = `${engine} — ${SIZES.courses.toLocaleString('en')} courses, ${CONNECTIONS} connections, signed out`;
    return measureTable(title, floorRows(cached, bare), rows);
  });
  const cacheOff = { LIST_CACHE_MS: '0' };
  const search = await withSchool(engine, [cacheOff, cacheOff], SEARCH_SIZES, async ([server, second]) => {
    if (!server || !second) throw new Error('no server');
    // Two instances of the school on one database, taken in turn as a proxy would: the deployment docs/deploy.md
    // describes, each instance on its own core.
    let turn = 0;
    const either = () => (turn++ % 2 === 0 ? server : second).url;
    const rows = [
      flowRow(
        `GET /courses?q=<word> (catalog search page), ${SEARCH_CONCURRENCY} at a time`,
        server.pid,
        () => get(`${server.url}/courses?q=${nextWord()}`),
        SEARCH_CONCURRENCY,
      ),
      flowRow(
        `GET /api/v1/courses?q=<word> (API search), ${SEARCH_CONCURRENCY} at a time`,
        server.pid,
        () => get(`${server.url}/api/v1/courses?q=${nextWord()}`),
        SEARCH_CONCURRENCY,
      ),
      flowRow(
        `GET /api/v1/courses?q=<word> (API search), ${SEARCH_CONCURRENCY} at a time over two instances`,
        [server.pid, second.pid],
        () => get(`${either()}/api/v1/courses?q=${nextWord()}`),
        SEARCH_CONCURRENCY,
      ),
      // Not the target's case: the cost of ranking every course, the most a one-word search can find.
      flowRow(
        `GET /api/v1/courses?q=course (a word of every course), ${SEARCH_CONCURRENCY} at a time`,
        server.pid,
        () => get(`${server.url}/api/v1/courses?q=course`),
        SEARCH_CONCURRENCY,
      ),
    ];
    const title = `${engine} — search, ${SEARCH_SIZES.courses.toLocaleString('en')} courses, LIST_CACHE_MS=0, signed out`;
    return measureTable(title, floorRows(server, bare), rows);
  });
  return `${site}\n${search}`;
});
