/**
 * npm run bench:web — the public website's HTML at 32 connections, with 10,000 courses stored (BENCH_COURSES): the
 * catalog's first page, a catalog search with a different word on every request, and a course page, as a signed-out
 * visitor sees them; on the default configuration and on a second server process of the same school with the
 * micro-cache off (LIST_CACHE_MS=0), interleaved with the floors (/healthz, bare Fastify) in one run; server CPU ms per
 * request from /proc (see load.ts). The target: every default-configuration row at least 0.3× the requests per second
 * of /healthz.
 */
import { benchEachEngine, CONNECTIONS, floorRows, loadRow, measureTable, withSchool } from './load.ts';
import { WORDS } from './seed.ts';

const SIZES = { courses: Number(process.env.BENCH_COURSES ?? 10_000), enrollments: 0 };
const pick = <T>(values: T[]) => values[Math.floor(Math.random() * values.length)];
const html = { headers: { accept: 'text/html' } };

await benchEachEngine(async (engine, bare) => {
  return withSchool(engine, [{}, { LIST_CACHE_MS: '0' }], SIZES, async (servers) => {
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
});
