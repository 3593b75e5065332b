import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { apiClient } from '../support/api.ts';
import { authorizeUrl, formPost, pkce, registerClient } from '../support/oauth.ts';
import {
  assertSurvived,
  loadLoop,
  loggedAbove,
  missingRows,
  recoveredAfter,
  type Sample,
  summary,
  twoInstances,
  withOutage,
} from '../support/outage-load.ts';
import { privatePostgres, privateRedis, privateServicesMissing } from '../support/private-services.ts';
import { csrfOf, OWNER, WebClient } from '../support/web-client.ts';

const OUTAGE_MS = 5_000;
const seconds = (ms: number | undefined) => (ms === undefined ? 'never' : `${(ms / 1000).toFixed(1)} s`);

test('Redis stopped and started under load on two instances: sign-in, registration and writes go on, authorization answers 503 fast, all back by itself', {
  skip: privateServicesMissing(),
  timeout: 120_000,
}, async (t) => {
  const postgres = await privatePostgres();
  t.after(() => postgres.close());
  const redis = await privateRedis();
  t.after(() => redis.close());
  // Token validations are cached a minute here, so only the invalidation bus can make a revocation felt sooner.
  const school = await twoInstances(
    { DATABASE_URL: postgres.url, REDIS_URL: redis.url, TOKEN_CACHE_SECONDS: '60' },
    'lecturers:write lecturers:read',
  );
  t.after(school.kill);
  const client = await registerClient(school.urls[0] ?? '', 45000);
  const { challenge } = pkce();
  const authorize = authorizeUrl('http://x', {
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: 'http://127.0.0.1:45000/callback',
    scope: 'openid',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).replace('http://x', '');

  let n = 0;
  const load = loadLoop(school.urls, {
    // Counted by the rate limiter (Redis, or this instance's memory while Redis is away).
    signin: {
      request: async (base) => {
        const browser = new WebClient(base);
        const page = await browser.get('/signin');
        if (page.status !== 200) return { status: page.status };
        const posted = await browser.postForm('/signin', {
          _csrf: csrfOf(page.text),
          email: OWNER.email,
          password: OWNER.password,
        });
        return { status: posted.status };
      },
      pauseMs: 100,
    },
    register: {
      request: async (base) => {
        const response = await fetch(`${base}/api/oauth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            client_name: 'Load client',
            redirect_uris: ['http://127.0.0.1:45001/callback'],
            token_endpoint_auth_method: 'none',
          }),
        });
        return { status: response.status, body: await response.json() };
      },
      pauseMs: 100,
    },
    // Stores an interaction among the short-lived records (Redis only).
    authorize: {
      request: async (base) => {
        const response = await fetch(`${base}${authorize}`, { redirect: 'manual' });
        await response.text();
        return { status: response.status };
      },
    },
    // Publishes a catalog invalidation.
    write: {
      request: async (base) => {
        const response = await apiClient(base, school.token).post<{ id?: string }>('/api/v1/lecturers', {
          name: `Lecturer ${++n}`,
        });
        return { ...response, id: response.status === 201 ? response.body.id : undefined };
      },
    },
    readyz: {
      request: async (base) => {
        const response = await apiClient(base).get<{ error_description?: string }>('/readyz');
        const namesRedis = /Redis/.test(response.body.error_description ?? '');
        return { status: response.status, body: { error: namesRedis ? 'redis' : response.body.error_description } };
      },
      pauseMs: 200,
    },
  });
  const ok = (s: Sample) => s.status >= 200 && s.status < 400;
  let backAt = 0;
  const recovered = (kind: string, i: number) => recoveredAfter(load.samples, kind, i, backAt, ok);
  const times = await withOutage(load, redis, OUTAGE_MS, (at) => {
    backAt = at;
    return [0, 1].every((i) => ['authorize', 'readyz'].every((kind) => (recovered(kind, i)?.after ?? 0) >= 5));
  });
  const { stoppedAt } = times;
  backAt = times.backAt;

  // The invalidation bus works again: a token revoked on one instance is refused at once by the other, which
  // has it cached for a minute.
  const api = [0, 1].map((i) => apiClient(school.urls[i] ?? '', school.token));
  assert.equal((await api[1]?.get('/api/v1/lecturers'))?.status, 200);
  await formPost(school.urls[0] ?? '', '/api/oauth/revoke', { token: school.token, client_id: school.clientId });
  const revokedAt = Date.now();
  let refusedAfter: number | undefined;
  while (Date.now() - revokedAt < 10_000) {
    if ((await api[1]?.get('/api/v1/lecturers'))?.status === 401) {
      refusedAfter = Date.now() - revokedAt;
      break;
    }
    await sleep(50);
  }

  // Answered after the part was stopped, and asked before it was started again.
  const during = load.samples.filter((s) => s.start + s.ms >= stoppedAt && s.start < backAt);
  const after = load.samples.filter((s) => s.start >= backAt);
  const acknowledged = load.samples.filter((s) => s.kind === 'write' && s.id).map((s) => s.id as string);
  const lost = await missingRows(postgres.url, 'lecturers', acknowledged);
  const slowest = (kind: string) => during.filter((s) => s.kind === kind).reduce((max, s) => Math.max(max, s.ms), 0);
  const figures = {
    outage_s: OUTAGE_MS / 1000,
    requests_per_s: Math.round(
      load.samples.length / (((load.samples.at(-1)?.start ?? 0) - (load.samples[0]?.start ?? 0)) / 1000),
    ),
    before: summary(load.samples.filter((s) => s.start + s.ms < stoppedAt)),
    during: summary(during),
    after: summary(after),
    slowest_during_ms: Object.fromEntries(
      ['signin', 'register', 'authorize', 'write', 'readyz'].map((k) => [k, slowest(k)]),
    ),
    recovered_after_start: Object.fromEntries(
      [0, 1].flatMap((i) => ['readyz', 'authorize'].map((kind) => [`${kind}@${i}`, seconds(recovered(kind, i)?.ms)])),
    ),
    revocation_felt_elsewhere_after: seconds(refusedAfter),
    acknowledged_writes: acknowledged.length,
    acknowledged_writes_lost: lost.length,
    exits: school.processes.map((p) => p.child.exitCode),
    logged: loggedAbove(school.processes.flatMap((p) => p.lines)),
  };
  console.log(`redis restart: ${JSON.stringify(figures)}`);

  assertSurvived(figures);
  assert.deepEqual(load.samples.filter((s) => s.status >= 500 && s.status !== 503).slice(0, 5), [], 'no 5xx but 503');
  assert.deepEqual(load.samples.filter((s) => s.status === 0).slice(0, 5), [], 'every request is answered');
  assert.ok(figures.during.maxMs < 5_000, `no request hangs (slowest during the outage: ${figures.during.maxMs} ms)`);
  // What does not need Redis goes on: rate limits count in memory, invalidations wait for the caches' time bounds.
  for (const kind of ['signin', 'register', 'write'])
    assert.deepEqual(
      during.filter((s) => s.kind === kind && !ok(s)).slice(0, 5),
      [],
      `${kind} is served while Redis is away`,
    );
  // What has no other home (interactions that any instance must find, codes spent once) says so.
  for (const i of [0, 1]) {
    assert.ok(
      during.some((s) => s.kind === 'authorize' && s.instance === i && s.status === 503),
      `instance ${i} answered authorization with 503`,
    );
    assert.ok(
      during.some((s) => s.kind === 'readyz' && s.instance === i && s.status === 503 && s.code === 'redis'),
      `instance ${i} said it was not ready, naming Redis`,
    );
    for (const kind of ['readyz', 'authorize'])
      assert.ok((recovered(kind, i)?.after ?? 0) >= 5, `instance ${i} serves ${kind} again`);
  }
  assert.ok(refusedAfter !== undefined && refusedAfter < 5_000, 'invalidations reach the other instance again');
  assert.ok(acknowledged.length > 0);
  assert.deepEqual(lost, [], 'every acknowledged write is in the database');
});
