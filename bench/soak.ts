/**
 * npm run bench:soak — whether anything in the server grows without bound: SOAK_MINUTES (10) of complete OAuth flows
 * (8 at a time; every other one a new browser that signs in, the rest returning users), each followed by a refresh,
 * userinfo and revocation, against `node src/main.ts` on SQLite (and PostgreSQL when configured). The server samples
 * its own memory every 10 s after a full GC (bench/memory-probe.ts); the table shows the samples once a minute, and
 * the verdict compares the last third of the run with the middle third.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formPost, registerClient } from '../test/support/oauth.ts';
import { WebClient } from '../test/support/web-client.ts';
import { type AuthorizationServer, codeFlow } from './flow.ts';
import { withSchool } from './load.ts';
import { benchEngines } from './support.ts';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const CONCURRENCY = 8;
/** SOAK_FRESH=0 runs returning users only: no new browser, so no new provider session, per flow. */
const FRESH = process.env.SOAK_FRESH !== '0';
const mb = (bytes: number) => (bytes / 1048576).toFixed(1);

for (const engine of benchEngines()) {
  const probe = join(mkdtempSync(join(tmpdir(), 'lyceum-soak-')), 'memory.jsonl');
  const env = {
    SIGNIN_MAX_FAILURES: '1000',
    OAUTH_AUTHORIZATIONS_PER_MINUTE: '1000000',
    MEMORY_PROBE_FILE: probe,
    NODE_OPTIONS: '--expose-gc --import ./bench/memory-probe.ts',
  };
  const flows = await withSchool(engine, [env], { courses: 0, enrollments: 0 }, async ([server], people) => {
    if (!server) throw new Error('no server');
    const client = await registerClient(server.url, 49153, { client_name: 'soak' });
    const as: AuthorizationServer = {
      base: server.url,
      pid: server.pid,
      clientId: client.client_id,
      redirectUri: 'http://127.0.0.1:49153/callback',
      paths: { authorize: '/oauth/authorize', token: '/api/oauth/token', introspect: '/api/oauth/introspect' },
    };
    const until = Date.now() + MINUTES * 60_000;
    let done = 0;
    const worker = async (n: number) => {
      const returning = new WebClient(server.url);
      for (let i = 0; Date.now() < until; i++) {
        const fresh = FRESH && (i + n) % 2 === 0;
        const { accessToken, refreshToken } = await codeFlow(
          as,
          fresh ? new WebClient(server.url) : returning,
          people.quick,
        );
        const refreshed = await formPost(server.url, as.paths.token, {
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
          client_id: as.clientId,
        });
        await fetch(`${server.url}/api/oauth/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });
        await formPost(server.url, '/api/oauth/revoke', {
          token: String(refreshed.body.refresh_token),
          client_id: as.clientId,
        });
        done++;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, (_, n) => worker(n)));
    return done;
  });
  const samples = readFileSync(probe, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { s: number; rss: number; heapUsed: number; external: number });
  console.log(
    `### ${engine} — ${MINUTES} min of complete flows (${flows} flows${FRESH ? ', half of them new browsers' : ', returning users only'}), memory after a full GC\n`,
  );
  console.log('| s | RSS MB | heap used MB | external MB |\n|---|---|---|---|');
  for (const x of samples.filter((_x, i) => i % 6 === 0 || i === samples.length - 1))
    console.log(`| ${x.s} | ${mb(x.rss)} | ${mb(x.heapUsed)} | ${mb(x.external)} |`);
  const third = Math.floor(samples.length / 3);
  const avg = (xs: typeof samples) => xs.reduce((a, x) => a + x.heapUsed, 0) / Math.max(1, xs.length);
  const middle = avg(samples.slice(third, 2 * third));
  const last = avg(samples.slice(2 * third));
  console.log(
    `\nheap used, middle third → last third: ${mb(middle)} → ${mb(last)} MB (${(((last - middle) / middle) * 100).toFixed(1)}%)\n`,
  );
}
