import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiClient } from '../support/api.ts';
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

const OUTAGE_MS = 5_000;
const SECRET = 'not-a-real-password-4242';
const seconds = (ms: number | undefined) => (ms === undefined ? 'never' : `${(ms / 1000).toFixed(1)} s`);

for (const mode of ['fast', 'immediate'] as const) {
  test(`PostgreSQL stopped (${mode}) and started under load on two instances: 503 meanwhile, back within seconds, no acknowledged write lost`, {
    skip: privateServicesMissing(),
    timeout: 120_000,
  }, async (t) => {
    const postgres = await privatePostgres();
    t.after(() => postgres.close());
    const redis = await privateRedis();
    t.after(() => redis.close());
    // The cluster trusts every local connection; the password in the URL is there to show it never reaches the log.
    const databaseUrl = postgres.url.replace('postgres@', `postgres:${SECRET}@`);
    const school = await twoInstances({ DATABASE_URL: databaseUrl, REDIS_URL: redis.url }, 'lecturers:write');
    t.after(school.kill);

    let n = 0;
    const load = loadLoop(school.urls, {
      write: {
        request: async (base) => {
          const response = await apiClient(base, school.token).post<{ id?: string }>('/api/v1/lecturers', {
            name: `Lecturer ${++n}`,
          });
          return { ...response, id: response.status === 201 ? response.body.id : undefined };
        },
      },
      catalog: { request: (base) => apiClient(base).get('/api/v1/courses') },
      page: {
        request: async (base) => {
          const response = await fetch(`${base}/`, { headers: { accept: 'text/html' } });
          await response.text();
          return { status: response.status };
        },
      },
      // The authorization server (oidc-provider) keeps clients in SQL: its 500 server_error becomes our 503.
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
      readyz: { request: (base) => apiClient(base).get('/readyz'), pauseMs: 200 },
    });
    const ok = (s: Sample) => s.status >= 200 && s.status < 400;
    let backAt = 0;
    const recovered = (kind: string, i: number) => recoveredAfter(load.samples, kind, i, backAt, ok);
    const times = await withOutage(
      load,
      { stop: () => postgres.stop(mode), start: () => postgres.start() },
      OUTAGE_MS,
      (at) => {
        backAt = at;
        return [0, 1].every((i) =>
          ['write', 'readyz', 'page', 'register'].every((kind) => (recovered(kind, i)?.after ?? 0) >= 5),
        );
      },
    );
    const { stoppedAt } = times;
    backAt = times.backAt;

    // Answered after the part was stopped, and asked before it was started again.
    const during = load.samples.filter((s) => s.start + s.ms >= stoppedAt && s.start < backAt);
    const after = load.samples.filter((s) => s.start >= backAt);
    const acknowledged = load.samples.filter((s) => s.kind === 'write' && s.id).map((s) => s.id as string);
    const lost = await missingRows(postgres.url, 'lecturers', acknowledged);
    const figures = {
      mode,
      outage_s: OUTAGE_MS / 1000,
      requests_per_s: Math.round(
        load.samples.length / (((load.samples.at(-1)?.start ?? 0) - (load.samples[0]?.start ?? 0)) / 1000),
      ),
      before: summary(load.samples.filter((s) => s.start + s.ms < stoppedAt)),
      during: summary(during),
      after: summary(after),
      recovered_after_start: Object.fromEntries(
        [0, 1].flatMap((i) =>
          ['readyz', 'write', 'page', 'register'].map((kind) => [`${kind}@${i}`, seconds(recovered(kind, i)?.ms)]),
        ),
      ),
      acknowledged_writes: acknowledged.length,
      acknowledged_writes_lost: lost.length,
      exits: school.processes.map((p) => p.child.exitCode),
      logged: loggedAbove(school.processes.flatMap((p) => p.lines)),
    };
    console.log(`postgres restart: ${JSON.stringify(figures)}`);

    assertSurvived(figures);

    assert.ok((figures.logged['40 database connection lost'] ?? 0) > 0, 'lost connections are reported');

    assert.ok(!school.processes.some((p) => p.lines.some((l) => l.includes(SECRET))), 'the password is never logged');
    const notUnavailable = load.samples.filter((s) => s.status >= 500 && s.status !== 503);
    assert.deepEqual(notUnavailable.slice(0, 5), [], 'no 5xx but 503');
    const unanswered = load.samples.filter((s) => s.status === 0);
    assert.deepEqual(unanswered.slice(0, 5), [], 'every request is answered');
    assert.ok(figures.during.maxMs < 5_000, `no request hangs (slowest during the outage: ${figures.during.maxMs} ms)`);
    const unavailable = load.samples.filter((s) => s.status === 503);
    assert.ok(unavailable.length > 0, 'the outage was seen');
    assert.deepEqual(
      unavailable.filter((s) => s.kind !== 'page' && s.code !== 'service_unavailable').slice(0, 5),
      [],
      'a 503 says service_unavailable',
    );
    for (const i of [0, 1]) {
      assert.ok(
        during.some((s) => s.kind === 'readyz' && s.instance === i && s.status === 503),
        `instance ${i} said it was not ready`,
      );
      for (const kind of ['readyz', 'write', 'page', 'register'])
        assert.ok((recovered(kind, i)?.after ?? 0) >= 5, `instance ${i} serves ${kind} again`);
    }
    assert.ok(acknowledged.length > 0);
    assert.deepEqual(lost, [], 'every acknowledged write is in the database');
  });
}
