/**
 * npm run bench:mcp — at 32 connections, with 1,000 courses stored (BENCH_COURSES): the default tools/list, the MCP
 * tools/call of the anonymous course search, an authenticated tools/call of getCourse, and the same getCourse through
 * the generic callOperation (compared with the direct call: "CPU ÷ reference"); on the default configuration and on a
 * second server process of the same school with the list micro-cache off (LIST_CACHE_MS=0), interleaved with the
 * floors (/healthz, bare Fastify) in one run; server CPU ms per request from /proc (see load.ts).
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

const SIZES = { courses: Number(process.env.BENCH_COURSES ?? 1_000), enrollments: 0 };

const mcpRequest = (method: string, params: Record<string, unknown>, token?: string): LoadRequest => ({
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
});

const mcpCall = (name: string, args: Record<string, unknown>, token?: string) =>
  mcpRequest('tools/call', { name, arguments: args }, token);

await benchEachEngine(async (engine, bare) => {
  return withSchool(engine, [{}, { LIST_CACHE_MS: '0' }], SIZES, async (servers, people) => {
    const [cached] = servers;
    const token = await tokenFor(cached, people.staff, 'courses:read', `${cached.url}/mcp`);
    const search = mcpCall('listCourses', { q: WORDS[0], limit: 20 });
    const get = mcpCall('getCourse', { id: people.courseIds.at(-1) }, token);
    const generic = mcpCall(
      'callOperation',
      { operation: 'getCourse', arguments: { id: people.courseIds.at(-1) } },
      token,
    );
    const list = mcpRequest('tools/list', {});
    const rows = servers.flatMap((server, n) => {
      const suffix = n === 0 ? '' : ', LIST_CACHE_MS=0';
      const url = `${server.url}/mcp`;
      const direct = loadRow(`tools/call getCourse (bearer, /mcp token)${suffix}`, server.pid, url, get);
      const viaCall = loadRow(`tools/call callOperation → getCourse (bearer)${suffix}`, server.pid, url, generic);
      return [
        loadRow(`tools/list (the default list, anonymous)${suffix}`, server.pid, url, list),
        loadRow(`tools/call listCourses {q} (anonymous)${suffix}`, server.pid, url, search),
        direct,
        { ...viaCall, reference: direct },
      ];
    });
    const title = `${engine} — ${SIZES.courses.toLocaleString('en')} courses, ${CONNECTIONS} connections`;
    return measureTable(title, floorRows(cached, bare), rows);
  });
});
