/**
 * npm run bench:soak — whether anything in the server grows without bound, and what each instance's memory comes to
 * under a mixed load: SOAK_MINUTES (10) of complete OAuth flows (every other one a new browser that signs in, the rest
 * returning users; each followed by a refresh, userinfo and revocation), beside readers of the catalog API, the
 * public pages, the agent documents and MCP, and a staff writer (a course made and deleted, which clears the caches
 * every instance keeps). On SQLite one instance; on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL) two
 * instances of one school, sharing Redis when BENCH_REDIS_URL or TEST_REDIS_URL is set, the load split between them.
 * Each server samples its own memory every 10 s (bench/memory-probe.ts): RSS as the kernel counts it, and the V8 heap
 * after a full GC. The table shows the samples once a minute; the verdict compares the last third of the run with the
 * middle third, and gives each instance's highest RSS.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tokenFor } from '../test/support/api.ts';
import { formPost, registerClient } from '../test/support/oauth.ts';
import { WebClient } from '../test/support/web-client.ts';
import { type AuthorizationServer, codeFlow } from './flow.ts';
import { withSchool } from './load.ts';
import { benchEngines, type SpawnedServer } from './support.ts';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const FLOWS = 8;
const READERS = 8;
/** SOAK_FRESH=0 runs returning users only: no new browser, so no new provider session, per flow. */
const FRESH = process.env.SOAK_FRESH !== '0';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL;
/** SOAK_COMPARE=1 (PostgreSQL): the second instance runs on Node's own heap defaults, beside the first with `npm start`'s bounds. */
const COMPARE = process.env.SOAK_COMPARE === '1';
const mb = (bytes: number) => (bytes / 1048576).toFixed(1);

type Sample = { s: number; rss: number; heapUsed: number; external: number };

for (const engine of benchEngines().filter((e) => !process.env.SOAK_ENGINE || e === process.env.SOAK_ENGINE)) {
  const instances = engine === 'postgres' ? 2 : 1;
  const dir = mkdtempSync(join(tmpdir(), 'lyceum-soak-'));
  const probes = Array.from({ length: instances }, (_, n) => join(dir, `memory-${n}.jsonl`));
  const envs = probes.map((probe, n) => ({
    ...(COMPARE && n === 1 ? { SERVER_NODE_FLAGS: 'none' } : {}),
    SIGNIN_MAX_FAILURES: '1000',
    OAUTH_AUTHORIZATIONS_PER_MINUTE: '1000000',
    OAUTH_REGISTRATIONS_PER_HOUR: '100000',
    MEMORY_PROBE_FILE: probe,
    // A forced GC every 30 s (for the heap after GC) barely touches what the process holds between them.
    MEMORY_PROBE_MS: '30000',
    NODE_OPTIONS: `--expose-gc --import ./bench/memory-probe.ts`,
    ...(instances > 1 && REDIS_URL ? { REDIS_URL, REDIS_PREFIX: `soak${Date.now()}:` } : {}),
  }));
  const counts = await withSchool(engine, envs, { courses: 200, enrollments: 0 }, async (servers, people) => {
    const client = await registerClient(servers[0]?.url ?? '', 49153, { client_name: 'soak' });
    const server = (n: number) => servers[n % servers.length] as SpawnedServer;
    const staffToken = await tokenFor(server(0), people.staff, 'courses:read courses:write');
    const until = Date.now() + MINUTES * 60_000;
    const done = { flows: 0, reads: 0, writes: 0, failed: 0 };

    const flows = async (n: number) => {
      const base = server(n).url;
      const as: AuthorizationServer = {
        base,
        pid: server(n).pid,
        clientId: client.client_id,
        redirectUri: 'http://127.0.0.1:49153/callback',
        paths: { authorize: '/oauth/authorize', token: '/api/oauth/token', introspect: '/api/oauth/introspect' },
      };
      const returning = new WebClient(base);
      for (let i = 0; Date.now() < until; i++) {
        const fresh = FRESH && (i + n) % 2 === 0;
        const { accessToken, refreshToken } = await codeFlow(as, fresh ? new WebClient(base) : returning, people.quick);
        const refreshed = await formPost(base, as.paths.token, {
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
          client_id: as.clientId,
        });
        await fetch(`${base}/api/oauth/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });
        await formPost(base, '/api/oauth/revoke', {
          token: String(refreshed.body.refresh_token),
          client_id: as.clientId,
        });
        done.flows++;
      }
    };

    const mcp = (name: string, args: Record<string, unknown>) => ({
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
    });
    const reads = (i: number): [string, RequestInit?] => {
      const id = people.courseIds[(i * 7) % people.courseIds.length];
      switch (i % 10) {
        case 0:
          return [`/api/v1/courses?limit=20`];
        case 1:
          return [`/api/v1/courses/${id}`];
        case 2:
          return ['/'];
        case 3:
          return ['/courses'];
        case 4:
          return ['/llms.txt'];
        case 5:
          return ['/openapi.json'];
        case 6:
          return ['/mcp', mcp('listCourses', { limit: 20 })];
        case 7:
          return [
            `/api/v1/courses?limit=20&starting_after=${id}`,
            { headers: { authorization: `Bearer ${staffToken}` } },
          ];
        case 8:
          return [`/courses/${id}`];
        default:
          return ['/pricing.md'];
      }
    };
    const reader = async (n: number) => {
      for (let i = n; Date.now() < until; i += READERS) {
        const [path, init] = reads(i);
        const response = await fetch(`${server(i).url}${path}`, init);
        await response.arrayBuffer();
        if (response.status >= 500) done.failed++;
        done.reads++;
      }
    };

    const writer = async () => {
      for (let i = 0; Date.now() < until; i++) {
        const base = server(i).url;
        const headers = { authorization: `Bearer ${staffToken}`, 'content-type': 'application/json' };
        const made = await fetch(`${base}/api/v1/courses`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ title: `Soak course ${i}` }),
        });
        const body = (await made.json()) as { id?: string };
        if (made.status !== 201 || !body.id) done.failed++;
        else await fetch(`${base}/api/v1/courses/${body.id}`, { method: 'DELETE', headers });
        done.writes++;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };

    // The kernel's count of each instance's resident memory, as an operator's monitoring sees it: no GC forced.
    const rssPeak = servers.map(() => 0);
    const sampler = setInterval(() => {
      for (const [n, s] of servers.entries()) {
        const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${s.pid}/status`, 'utf8'))?.[1] ?? 0);
        rssPeak[n] = Math.max(rssPeak[n] ?? 0, kb * 1024);
      }
    }, 2000);
    await Promise.all([
      ...Array.from({ length: FLOWS }, (_, n) => flows(n)),
      ...Array.from({ length: READERS }, (_, n) => reader(n)),
      writer(),
    ]);
    clearInterval(sampler);
    // Server CPU from /proc (user + system ticks), and the requests each served (its log's lines): the same work
    // went to each instance, so their figures compare side by side.
    const cpuSeconds = servers.map((s) => {
      const fields = readFileSync(`/proc/${s.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      return (Number(fields[11]) + Number(fields[12])) / 100;
    });
    const served = servers.map((s) => readFileSync(s.logFile, 'utf8').split('"request completed"').length - 1);
    return { ...done, rssPeak, cpuSeconds, served };
  });

  console.log(
    `### ${engine} — ${MINUTES} min, ${instances} instance${instances > 1 ? `s${REDIS_URL ? ' with Redis' : ''}` : ''}: ${counts.flows} OAuth flows (${FRESH ? 'half of them new browsers' : 'returning users only'}), ${counts.reads} reads, ${counts.writes} writes, ${counts.failed} failed\n`,
  );
  for (const [n, probe] of probes.entries()) {
    const samples = readFileSync(probe, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Sample);
    const flags = COMPARE && n === 1 ? "Node's own heap defaults" : "`npm start`'s heap bounds";
    const cpu = counts.cpuSeconds[n] ?? 0;
    const served = counts.served[n] ?? 0;
    console.log(
      `Instance ${n + 1} (${flags}): ${served} requests served, ${cpu.toFixed(1)} s of server CPU, ${((cpu * 1000) / Math.max(1, served)).toFixed(2)} ms a request; memory after a full GC:\n`,
    );
    console.log('| s | RSS MB | heap used MB | external MB |\n|---|---|---|---|');
    for (const x of samples.filter((_x, i) => i % 2 === 0 || i === samples.length - 1))
      console.log(`| ${x.s} | ${mb(x.rss)} | ${mb(x.heapUsed)} | ${mb(x.external)} |`);
    const third = Math.floor(samples.length / 3);
    const avg = (xs: Sample[]) => xs.reduce((a, x) => a + x.heapUsed, 0) / Math.max(1, xs.length);
    const middle = avg(samples.slice(third, 2 * third));
    const last = avg(samples.slice(2 * third));
    console.log(
      `\nheap used, middle third → last third: ${mb(middle)} → ${mb(last)} MB (${(((last - middle) / middle) * 100).toFixed(1)}%); highest RSS, sampled from /proc every 2 s: ${mb(counts.rssPeak[n] ?? 0)} MB\n`,
    );
  }
}
