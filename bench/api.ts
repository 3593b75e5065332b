/**
 * npm run bench:api — one run, side by side, at 32 connections: GET /healthz (the floor of the stack), anonymous
 * GET /api/v1/courses, and the same with a valid bearer token, on SQLite and PostgreSQL with 10,000 courses stored.
 */
import autocannon from 'autocannon';
import { loadConfig } from '../src/config.ts';
import { connectDatabase } from '../src/db/connect.ts';
import { newId } from '../src/db/ids.ts';
import { hashPassword } from '../src/security/passwords.ts';
import { tokenFor } from '../test/support/api.ts';
import type { TestServer } from '../test/support/server.ts';
import { completeSetup } from '../test/support/web-client.ts';
import { benchEngines, spawnServer, table } from './support.ts';

const CONNECTIONS = 32;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const COURSES = Number(process.env.BENCH_COURSES ?? 10_000);

async function seed(databaseUrl: string) {
  const database = connectDatabase(loadConfig({ DATABASE_URL: databaseUrl }).database);
  const at = Date.now() - COURSES * 1000;
  for (let start = 0; start < COURSES; start += 500) {
    const rows = Array.from({ length: Math.min(500, COURSES - start) }, (_, k) => {
      const i = start + k;
      const created = new Date(at + i * 1000).toISOString();
      return {
        id: newId('crs', at + i * 1000),
        title: `Course ${i}: a study of things`,
        slug: `course-${i}`,
        subtitle: 'Learn it properly',
        description: 'A course with a description of a believable length, long enough to look like a real one.',
        cover_url: null,
        lecturer_ids: '[]',
        price_amount: i % 3 === 0 ? null : 1900 + (i % 50) * 100,
        price_currency: i % 3 === 0 ? null : 'EUR',
        status: i % 10 === 0 ? ('draft' as const) : ('published' as const),
        visibility: 'public' as const,
        enrollment_open: 1 as const,
        published_at: created,
        created_at: created,
        updated_at: created,
      };
    });
    await database.db.insertInto('courses').values(rows).execute();
  }
  const staff = { id: newId('usr'), email: 'bench.staff@school.test', password: 'bench staff password' };
  const now = new Date().toISOString();
  await database.db
    .insertInto('users')
    .values({
      id: staff.id,
      email: staff.email,
      name: 'Bench Staff',
      role: 'staff',
      status: 'active',
      password_hash: await hashPassword(staff.password),
      locale: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await database.close();
  return staff;
}

async function measure(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

const output: string[] = [];
for (const engine of benchEngines()) {
  const server = await spawnServer(engine, {
    ...(process.env.BENCH_LOG_LEVEL ? { LOG_LEVEL: process.env.BENCH_LOG_LEVEL } : {}),
    ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
  });
  try {
    await completeSetup(server.url, server.setupUrl ?? '');
    const staff = await seed(server.databaseUrl);
    const token = await tokenFor({ url: server.url } as TestServer, staff, 'courses:read');
    const list = `${server.url}/api/v1/courses`;
    await measure(list); // warm-up: JIT, statement caches, pool
    const health = await measure(`${server.url}/healthz`);
    const anonymous = await measure(list);
    const authenticated = await measure(list, { authorization: `Bearer ${token}` });
    const row = (name: string, r: typeof health) => [
      name,
      r.rps.toFixed(0),
      r.p50.toFixed(1),
      r.p99.toFixed(1),
      (r.rps / health.rps).toFixed(2),
    ];
    output.push(
      `### ${engine} — ${COURSES.toLocaleString('en')} courses, ${CONNECTIONS} connections, ${DURATION_S} s each`,
      '',
      table(
        ['request', 'req/s', 'p50 ms', 'p99 ms', '÷ /healthz'],
        [
          row('GET /healthz', health),
          row('GET /api/v1/courses (anonymous)', anonymous),
          row('GET /api/v1/courses (bearer)', authenticated),
        ],
      ),
      '',
    );
  } finally {
    await server.stop();
  }
}
console.log(`node ${process.version}, ${new Date().toISOString()}\n`);
console.log(output.join('\n'));
