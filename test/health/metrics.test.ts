import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { completeSetup, csrfOf, OWNER, WebClient } from '../support/web-client.ts';

const TOKEN = 'metrics-token-for-the-test-0123456789';

/** The value of one series in a Prometheus text answer, or undefined when it is absent. */
const seriesValue = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('/metrics is not served without METRICS_TOKEN', () => {
  test('404, as any path the school does not have', async () => {
    const server = await startTestServer('sqlite');
    try {
      assert.equal((await fetch(`${server.url}/metrics`)).status, 404);
    } finally {
      await server.close();
    }
  });
});

for (const engine of engines) {
  describe(`/metrics in the Prometheus text format (${engine})`, () => {
    let server: TestServer;
    const scrape = async (token = TOKEN) =>
      fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });

    before(async () => {
      server = await startTestServer(engine, { METRICS_TOKEN: TOKEN });
      await completeSetup(server.url, server.setupUrl ?? '');
    });
    after(() => server.close());

    test('a scraper without the token, or with another, is refused with 401 and a Bearer challenge', async () => {
      const none = await fetch(`${server.url}/metrics`);
      assert.equal(none.status, 401);
      assert.match(none.headers.get('www-authenticate') ?? '', /^Bearer realm="metrics"/);
      assert.equal(((await none.json()) as { error: string }).error, 'invalid_token');
      assert.equal((await scrape(`${TOKEN}x`)).status, 401);
      assert.equal((await scrape('short')).status, 401);
    });

    test('requests by route pattern and status with their times, queries, caches, and the school in its tables', async () => {
      for (let i = 0; i < 3; i++) await fetch(`${server.url}/api/v1/courses`);
      await fetch(`${server.url}/courses/no-such-course-here`);
      const visitor = new WebClient(server.url);
      const signin = await visitor.get('/signin');
      await visitor.postForm('/signin', { _csrf: csrfOf(signin.text), email: OWNER.email, password: 'not the one' });

      const answer = await scrape();
      assert.equal(answer.status, 200);
      assert.match(answer.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
      assert.equal(answer.headers.get('cache-control'), 'no-store');
      const text = await answer.text();

      const listed = seriesValue(text, 'lyceum_http_requests_total{route="/api/v1/courses",method="GET",status="200"}');
      assert.ok((listed ?? 0) >= 3, `three course lists counted, got ${listed}`);
      assert.ok(
        (seriesValue(text, 'lyceum_http_request_duration_seconds_count{route="/api/v1/courses",method="GET"}') ?? 0) >=
          3,
      );
      assert.match(text, /lyceum_http_request_duration_seconds_bucket\{le="0\.005",route="\/api\/v1\/courses"/);
      assert.match(text, /route="\/courses\/:slug",method="GET",status="404"/, 'the pattern, not the path asked for');
      assert.doesNotMatch(text, /no-such-course-here/);
      assert.ok((seriesValue(text, 'lyceum_db_query_duration_seconds_count') ?? 0) > 0, 'queries are timed');
      assert.ok((seriesValue(text, 'lyceum_cache_lookups_total{cache="responses",result="hit"}') ?? 0) >= 1);
      assert.equal(seriesValue(text, 'lyceum_sign_ins_last_hour{outcome="wrong_password"}'), 1);
      assert.equal(seriesValue(text, 'lyceum_jobs{status="failed"}'), 0);
      assert.notEqual(seriesValue(text, 'lyceum_jobs_oldest_due_seconds'), undefined);
      // Without SMTP the setup's messages wait in the outbox for the owner to read.
      assert.notEqual(seriesValue(text, 'lyceum_outbox_messages{status="held"}'), undefined);
      assert.ok((seriesValue(text, 'lyceum_process_cpu_seconds_total') ?? 0) > 0, "the process's own figures");
      if (engine === 'postgres') assert.ok((seriesValue(text, 'lyceum_db_pool_connections{state="open"}') ?? 0) >= 1);
      assert.doesNotMatch(text, new RegExp(TOKEN), 'the token is never shown');
    });
  });
}
