/**
 * npm run bench:mcp — one run, side by side, at 32 connections: GET /healthz (the floor of the stack), the MCP
 * tools/call of the anonymous course search, and an authenticated tools/call of getCourse, with 1,000 courses
 * stored; then the two MCP rows again on a second server with the list micro-cache off (LIST_CACHE_MS=0). Besides
 * throughput it reports the server's CPU milliseconds per request, read from /proc (steady when the shared machine's
 * throughput swings).
 */
import { tokenFor } from '../test/support/api.ts';
import type { TestServer } from '../test/support/server.ts';
import { CONNECTIONS, DURATION_S, type LoadRequest, measure, ROW_HEADERS, row, seededServer } from './load.ts';
import { benchEngines, type Engine, table } from './support.ts';

const COURSES = Number(process.env.BENCH_COURSES ?? 1_000);

const mcpCall = (name: string, args: Record<string, unknown>, token?: string): LoadRequest => ({
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
});

async function prepare(engine: Engine, env: Record<string, string>) {
  const { server, staff, pid } = await seededServer(engine, env, COURSES);
  const token = await tokenFor({ url: server.url } as TestServer, staff, 'courses:read', `${server.url}/mcp`);
  const list = await fetch(`${server.url}/api/v1/courses?limit=1`);
  const [course] = ((await list.json()) as { data: { id: string }[] }).data;
  if (!course) throw new Error('no course to get');
  const search = mcpCall('listCourses', { q: 'study', limit: 20 });
  const get = mcpCall('getCourse', { id: course.id }, token);
  await measure(`${server.url}/mcp`, pid, search); // warm-up: JIT, statement caches, pool
  return { server, pid, mcp: `${server.url}/mcp`, search, get };
}

const output: string[] = [];
for (const engine of benchEngines()) {
  const rows: (string | number)[][] = [];
  const cached = await prepare(engine, {});
  const health = await measure(`${cached.server.url}/healthz`, cached.pid).catch(async (error: unknown) => {
    await cached.server.stop();
    throw error;
  });
  try {
    rows.push(row('GET /healthz', health, health));
    rows.push(
      row('tools/call listCourses {q} (anonymous)', await measure(cached.mcp, cached.pid, cached.search), health),
    );
    rows.push(
      row('tools/call getCourse (bearer, /mcp token)', await measure(cached.mcp, cached.pid, cached.get), health),
    );
  } finally {
    await cached.server.stop();
  }
  const uncached = await prepare(engine, { LIST_CACHE_MS: '0' });
  try {
    rows.push(
      row('… listCourses, LIST_CACHE_MS=0', await measure(uncached.mcp, uncached.pid, uncached.search), health),
    );
    rows.push(row('… getCourse, LIST_CACHE_MS=0', await measure(uncached.mcp, uncached.pid, uncached.get), health));
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
