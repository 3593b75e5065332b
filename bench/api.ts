/**
 * npm run bench:api — the catalog list at scale (BENCH_COURSES courses, default 100,000; BENCH_ENROLLMENTS
 * enrollments, default 1,000,000), on SQLite and PostgreSQL, autocannon at 32 connections: the first page (anonymous,
 * and with a staff token), a different cursor on every request, a `q=` title search with a different word on every
 * request, and a student's own list (their token; public courses plus the ones they are enrolled in). Two server
 * processes on the same database — the default configuration and LIST_CACHE_MS=0 — and the floors (/healthz, bare
 * Fastify) are measured interleaved in one run (see load.ts).
 */
import { tokenFor } from '../test/support/api.ts';
import {
  benchEachEngine,
  CONNECTIONS,
  floorRows,
  type LoadRequest,
  loadRow,
  measureTable,
  withSchool,
} from './load.ts';
import { WORDS } from './seed.ts';

const SIZES = {
  courses: Number(process.env.BENCH_COURSES ?? 100_000),
  enrollments: Number(process.env.BENCH_ENROLLMENTS ?? 1_000_000),
};

const bearer = (token: string): LoadRequest => ({ headers: { authorization: `Bearer ${token}` } });
const pick = <T>(values: T[]) => values[Math.floor(Math.random() * values.length)];

await benchEachEngine(async (engine, bare) => {
  const started = performance.now();
  return withSchool(engine, [{}, { LIST_CACHE_MS: '0' }], SIZES, async (servers, people) => {
    const seeded = `seeded and started in ${((performance.now() - started) / 1000).toFixed(0)} s`;
    const [cached] = servers;
    const staff = await tokenFor(cached, people.staff, 'courses:read');
    const student = people.student && (await tokenFor(cached, people.student, 'courses:read'));
    const cursors = people.courseIds.filter((_, i) => i % 10 !== 0 && i % 20 !== 5 && i > 0);
    const rows = servers.flatMap((server, n) => {
      const list = `${server.url}/api/v1/courses`;
      const suffix = n === 0 ? '' : ', LIST_CACHE_MS=0';
      return [
        loadRow(`courses, first page (anonymous)${suffix}`, server.pid, list),
        loadRow(`courses, first page (staff token)${suffix}`, server.pid, list, bearer(staff)),
        loadRow(
          `courses, a different cursor each request${suffix}`,
          server.pid,
          list,
          {},
          () => `/api/v1/courses?starting_after=${pick(cursors)}`,
        ),
        loadRow(
          `courses?q=<a different word each request>${suffix}`,
          server.pid,
          list,
          {},
          () => `/api/v1/courses?q=${pick(WORDS)}`,
        ),
        ...(student && n === 0
          ? [loadRow(`a student's own courses (their token; never cached)`, server.pid, list, bearer(student))]
          : []),
      ];
    });
    const title = `${engine} — ${SIZES.courses.toLocaleString('en')} courses, ${SIZES.enrollments.toLocaleString('en')} enrollments (${seeded}), ${CONNECTIONS} connections`;
    return measureTable(title, floorRows(cached, bare), rows);
  });
});
