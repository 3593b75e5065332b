/**
 * npm run bench:api — one run, side by side, at 32 connections: GET /healthz (the floor of the stack), anonymous
 * GET /api/v1/courses, and the same with a valid bearer token, on SQLite and PostgreSQL with 10,000 courses stored.
 */
import { tokenFor } from '../test/support/api.ts';
import type { TestServer } from '../test/support/server.ts';
import { CONNECTIONS, DURATION_S, measure, ROW_HEADERS, row, seededServer } from './load.ts';
import { benchEngines, type Engine, table } from './support.ts';

const COURSES = Number(process.env.BENCH_COURSES ?? 10_000);

async function prepare(engine: Engine, env: Record<string, string>) {
  const { server, staff, pid } = await seededServer(engine, env, COURSES);
  const token = await tokenFor({ url: server.url } as TestServer, staff, 'courses:read');
  await measure(`${server.url}/api/v1/courses`, pid); // warm-up: JIT, statement caches, pool
  return { server, pid, token, list: `${server.url}/api/v1/courses` };
}

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

const output: string[] = [];
for (const engine of benchEngines()) {
  // The school as configured by default (list micro-cache on), and the same with the cache off, in one run.
  const cached = await prepare(engine, {});
  const rows: (string | number)[][] = [];
  const health = await measure(`${cached.server.url}/healthz`, cached.pid).catch(async (error: unknown) => {
    await cached.server.stop();
    throw error;
  });
  try {
    rows.push(row('GET /healthz', health, health));
    rows.push(row('GET /api/v1/courses (anonymous)', await measure(cached.list, cached.pid), health));
    rows.push(
      row('GET /api/v1/courses (bearer)', await measure(cached.list, cached.pid, bearer(cached.token)), health),
    );
  } finally {
    await cached.server.stop();
  }
  const uncached = await prepare(engine, { LIST_CACHE_MS: '0' });
  try {
    rows.push(row('… anonymous, LIST_CACHE_MS=0', await measure(uncached.list, uncached.pid), health));
    rows.push(
      row('… bearer, LIST_CACHE_MS=0', await measure(uncached.list, uncached.pid, bearer(uncached.token)), health),
    );
  } finally {
    await uncached.server.stop();
  }
  output.push(
    `### ${engine} — ${COURSES.toLocaleString('en')} courses, ${CONNECTIONS} connections, ${DURATION_S} s each`,
    '',
    table(ROW_HEADERS, rows),
    '',
  );
}
console.log(`node ${process.version}, ${new Date().toISOString()}\n`);
console.log(output.join('\n'));
