/**
 * npm run bench:oauth — complete OAuth flows per second with 16 concurrent flows, each through the real pages over
 * HTTP (authorize → sign-in form → consent form, with their CSRF tokens) → token → userinfo → refresh → revoke, on
 * SQLite and PostgreSQL, beside a bare GET /healthz measured in the same run.
 */
import { authorizeUrl, formPost, pkce, registerClient, tokenRequest } from '../test/support/oauth.ts';
import { completeSetup, csrfOf, OWNER, WebClient } from '../test/support/web-client.ts';
import { benchEngines, ms, runFor, spawnServer, summarize, table } from './support.ts';

const CONCURRENCY = 16;
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 10_000);
const REDIRECT = 'http://127.0.0.1:49152/callback';
const STEPS = ['authorize', 'sign-in', 'consent', 'token', 'userinfo', 'refresh', 'revoke'] as const;
type Step = (typeof STEPS)[number];

async function timed<T>(samples: Map<Step, number[]>, step: Step, fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await fn();
  samples.get(step)?.push(performance.now() - started);
  return result;
}

async function oneFlow(base: string, clientId: string, samples: Map<Step, number[]>) {
  const web = new WebClient(base);
  const { verifier, challenge } = pkce();
  const start = new URL(
    authorizeUrl(base, {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      scope: 'openid profile email courses:read',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'bench',
    }),
  );
  // authorize: the request and its redirects up to the sign-in form.
  const signinPage = await timed(samples, 'authorize', async () => {
    let location = start.pathname + start.search;
    for (;;) {
      const response = await web.get(location);
      if (!response.location) return { path: location, text: response.text };
      location = response.location;
    }
  });
  // sign-in: post the form, follow redirects to the consent page.
  const consentPage = await timed(samples, 'sign-in', async () => {
    const returnTo = new URL(signinPage.path, base).searchParams.get('return_to') ?? '/';
    let response = await web.postForm('/signin', {
      _csrf: csrfOf(signinPage.text),
      email: OWNER.email,
      password: OWNER.password,
      return_to: returnTo,
    });
    let path = returnTo;
    while (response.location) {
      path = response.location;
      response = await web.get(path);
    }
    return { path, text: response.text };
  });
  // consent: post Allow, follow redirects until the loopback redirect URI.
  const code = await timed(samples, 'consent', async () => {
    let response = await web.postForm(`${consentPage.path}/consent`, {
      _csrf: csrfOf(consentPage.text),
      decision: 'allow',
    });
    while (response.location && !response.location.startsWith(REDIRECT)) response = await web.get(response.location);
    const code = new URL(response.location ?? '').searchParams.get('code');
    if (!code) throw new Error('no code');
    return code;
  });
  const tokens = await timed(samples, 'token', () =>
    tokenRequest(base, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
    }),
  );
  if (tokens.status !== 200) throw new Error(`token ${tokens.status}`);
  await timed(samples, 'userinfo', async () => {
    const response = await fetch(`${base}/api/oauth/userinfo`, {
      headers: { authorization: `Bearer ${tokens.body.access_token}` },
    });
    if (response.status !== 200) throw new Error(`userinfo ${response.status}`);
    await response.arrayBuffer();
  });
  const refreshed = await timed(samples, 'refresh', () =>
    tokenRequest(base, { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token, client_id: clientId }),
  );
  if (refreshed.status !== 200) throw new Error(`refresh ${refreshed.status}`);
  await timed(samples, 'revoke', () =>
    formPost(base, '/api/oauth/revoke', { token: refreshed.body.refresh_token, client_id: clientId }),
  );
}

const output: string[] = [];
for (const engine of benchEngines()) {
  const server = await spawnServer(engine, { SIGNIN_MAX_FAILURES: '1000' });
  try {
    await completeSetup(server.url, server.setupUrl ?? '');
    const client = await registerClient(server.url, 49152, { client_name: 'bench' });

    // Warm-up, then /healthz and the flows, one after the other in the same run.
    const warm = new Map<Step, number[]>(STEPS.map((s) => [s, []]));
    await runFor(1500, 4, () => oneFlow(server.url, client.client_id, warm));

    const healthSamples: number[] = [];
    const health = await runFor(DURATION_MS / 2, CONCURRENCY, async () => {
      const started = performance.now();
      const response = await fetch(`${server.url}/healthz`);
      await response.arrayBuffer();
      healthSamples.push(performance.now() - started);
    });

    const samples = new Map<Step, number[]>(STEPS.map((s) => [s, []]));
    const flows = await runFor(DURATION_MS, CONCURRENCY, () => oneFlow(server.url, client.client_id, samples));
    const healthStats = summarize(healthSamples);
    const rows: (string | number)[][] = [
      ['GET /healthz', ms(healthStats.p50), ms(healthStats.p99), '1.0', healthStats.n],
    ];
    for (const step of STEPS) {
      const s = summarize(samples.get(step) ?? []);
      rows.push([step, ms(s.p50), ms(s.p99), (s.p50 / healthStats.p50).toFixed(1), s.n]);
    }
    const flowsPerSecond = flows.count / flows.seconds;
    const healthPerSecond = health.count / health.seconds;
    output.push(
      `### ${engine} — ${CONCURRENCY} concurrent flows, ${(DURATION_MS / 1000).toFixed(0)} s`,
      '',
      `complete flows/s: **${flowsPerSecond.toFixed(1)}**; GET /healthz req/s: ${healthPerSecond.toFixed(0)} (one flow costs as much as ${(healthPerSecond / flowsPerSecond).toFixed(0)} health checks)`,
      '',
      table(['step', 'p50 ms', 'p99 ms', 'p50 ÷ healthz p50', 'samples'], rows),
      '',
    );
  } finally {
    await server.stop();
  }
}
console.log(`node ${process.version}, ${new Date().toISOString()}\n`);
console.log(output.join('\n'));
