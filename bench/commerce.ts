/**
 * npm run bench:commerce — the staff's commerce reads over 1,000,000 orders (BENCH_ORDERS), each with its item and
 * its ledger rows (a charge, and a refund for a tenth of them), seeded with SQL (generate_series on PostgreSQL, a
 * recursive CTE on SQLite) over the two years before today: the orders list (first page, a status filter, a date
 * range) when the orders area is there, and the revenue series of the last 12 months by day and by month (plus MRR
 * over BENCH_SUBSCRIPTIONS subscriptions and one course's revenue). Measured one request at a time (the latency a
 * staff member sees: the targets are a list page p99 under 20 ms and a 12-month series under 200 ms) and 8 at a
 * time, each beside /healthz and bare Fastify measured the same way, with the server's CPU ms per request
 * from /proc (see load.ts). Also times the same 12-month sums straight from the ledger, which the rollup replaces.
 * The database (a PostgreSQL schema of its own, or a SQLite file) is dropped afterwards.
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { addDays, addMonths, localDateOf } from '../src/areas/analytics/buckets.ts';
import { loadConfig } from '../src/config.ts';
import { connectDatabase } from '../src/db/connect.ts';
import type { Engine } from '../src/db/tables.ts';
import { tokenFor } from '../test/support/api.ts';
import { COURSES, ORDERS, SUBSCRIPTIONS, seedCommerce } from './commerce-seed.ts';
import { benchEachEngine, flowRow, measureTable, type Row, withSchool } from './load.ts';

/** Staff reading at once in the second table. */
const CONCURRENT = 8;
/** The school's time zone, as test/support/web-client.ts completeSetup sets it. */
const TIME_ZONE = 'Europe/Berlin';

/** The median time of `runs` runs of a query, in ms. */
async function timed(runs: number, query: () => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await query();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)] ?? Number.NaN;
}

/** Drops the bench's database: its PostgreSQL schema, or its SQLite file's folder. */
async function dropDatabase(engine: Engine, databaseUrl: string) {
  if (engine === 'sqlite') return rmSync(dirname(databaseUrl), { recursive: true, force: true });
  const url = new URL(databaseUrl);
  const schema = /search_path=(\w+)/.exec(url.searchParams.get('options') ?? '')?.[1];
  url.searchParams.delete('options');
  if (!schema) return;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`drop schema ${schema} cascade`);
  } finally {
    await client.end();
  }
}

await benchEachEngine(async (engine, bare) => {
  let databaseUrl = '';
  try {
    return await withSchool(engine, [{}], { courses: COURSES, enrollments: 0 }, async ([server], people) => {
      if (!server) throw new Error('no server');
      databaseUrl = server.databaseUrl;
      const started = performance.now();
      const database = connectDatabase(loadConfig({ DATABASE_URL: databaseUrl }).database);
      let ledgerMs = Number.NaN;
      let course = '';
      try {
        ({ course } = await seedCommerce(database.db, engine));
        // The 12-month sums by day straight from the ledger, for comparison with the rollup the series reads.
        const yearAgo = new Date(Date.now() - 365 * 86_400_000).toISOString();
        ledgerMs = await timed(5, () =>
          sql`select substr(created_at, 1, 10) as day, currency,
              sum(case when kind = 'charge' then amount else -amount end) as amount
            from payments where created_at >= ${yearAgo} group by substr(created_at, 1, 10), currency`.execute(
            database.db,
          ),
        );
      } finally {
        await database.close();
      }
      const seeded = `seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`;
      const token = await tokenFor(server, people.staff, 'analytics:read orders:read');
      const headers = { authorization: `Bearer ${token}` };
      const today = localDateOf(Date.now(), TIME_ZONE);
      const api = (path: string) => `${server.url}${path}`;
      const series = (query: string) => `/api/v1/analytics/series?${query}`;
      const byDay = series(`metric=revenue&interval=day&from=${addDays(today, -364)}&to=${today}`);
      const monthStart = addMonths(`${today.slice(0, 8)}01`, -11);
      const byMonth = series(`metric=revenue&interval=month&from=${monthStart}&to=${today}`);
      const mrr = series(`metric=mrr&interval=month&from=${monthStart}&to=${today}`);
      const ofCourse = series(`metric=revenue&interval=month&from=${monthStart}&to=${today}&course_id=${course}`);
      const lastMonth = new Date(Date.now() - 30 * 86_400_000).toISOString();
      const weekBefore = new Date(Date.now() - 37 * 86_400_000).toISOString();
      const orderPaths = [
        ['staff orders list, first page', '/api/v1/orders?limit=20'],
        ['staff orders list, status=refunded', '/api/v1/orders?limit=20&status=refunded'],
        [
          'staff orders list, a week a month ago',
          `/api/v1/orders?limit=20&created_after=${weekBefore}&created_before=${lastMonth}`,
        ],
      ] as const;
      // The orders list is the orders area's; until it is on this branch, only the series are measured.
      const ordersListed = (await fetch(api('/api/v1/orders?limit=1'), { headers })).status === 200;
      const reads: [string, string][] = [
        ...(ordersListed ? orderPaths.map(([name, path]): [string, string] => [name, path]) : []),
        ['revenue, 12 months by day (365 buckets)', byDay],
        ['revenue, 12 months by month', byMonth],
        [`MRR, 12 months by month (${SUBSCRIPTIONS.toLocaleString('en')} subscriptions)`, mrr],
        [`one course's revenue, 12 months by month (${(ORDERS / COURSES).toLocaleString('en')} orders)`, ofCourse],
      ];
      for (const [name, path] of reads) {
        const response = await fetch(api(path), { headers });
        if (response.status !== 200) throw new Error(`${name}: ${response.status} ${await response.text()}`);
      }
      const get =
        (url: string, init: RequestInit = {}) =>
        async () => {
          const response = await fetch(url, init);
          if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
          await response.arrayBuffer();
        };
      // Rows of whole requests, `concurrency` at a time, each waited for: a slow read must not leave requests queued
      // in the server for the next row (autocannon's 32 connections did, and starved the rows after them).
      const atATime =
        (concurrency: number) =>
        (name: string, pid: number, url: string, init?: RequestInit): Row =>
          flowRow(name, pid, get(url, init), concurrency);
      const table = (concurrency: number, title: string) => {
        const row = atATime(concurrency);
        return measureTable(
          `${engine} — ${size}, ${title}`,
          [row('GET /healthz', server.pid, api('/healthz')), row('bare Fastify GET /', bare.pid, `${bare.url}/`)],
          reads.map(([name, path]) => row(name, server.pid, api(path), { headers })),
        );
      };
      const size = `${ORDERS.toLocaleString('en')} orders over 2 years (${seeded})`;
      const notes = [
        ...(ordersListed ? [] : ['(The orders list is not on this branch yet: not measured.)']),
        `The same 12-month sums by day straight from the ledger (no rollup): ${ledgerMs.toFixed(0)} ms, median of 5.`,
        '',
      ];
      const one = await table(1, 'one request at a time');
      const many = await table(CONCURRENT, `${CONCURRENT} requests at a time`);
      return [one, many, ...notes].join('\n');
    });
  } finally {
    if (databaseUrl) await dropDatabase(engine, databaseUrl);
  }
});
