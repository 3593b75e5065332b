import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { registerHooks } from 'node:module';
import { describe, test } from 'node:test';
import { engines } from '../support/databases.ts';
import { type ReceivedSpan, startOtlpCollector } from '../support/otlp-collector.ts';
import { freePort, startTestServer, type TestServer } from '../support/server.ts';
import { completeSetup, csrfOf, OWNER, WebClient } from '../support/web-client.ts';

/** The span attribute holding the request id (health/traces.ts; not imported, which would load the SDK). */
const REQUEST_ID = 'lyceum.request_id';
const SERVER = 2;
const CLIENT = 3;

/** Credentials for the collector, sent by the exporter from the SDK's own variable: never to be seen in a log. */
const COLLECTOR_CREDENTIAL = 'collector-credential-0123456789';

/**
 * The SDK's own variables are read from the process's environment when the school starts (the school's settings come
 * from the object the test passes), so they are set for the start only.
 */
async function startWithSdkEnvironment(
  sdk: Record<string, string>,
  start: () => Promise<TestServer>,
): Promise<TestServer> {
  const before = Object.fromEntries(Object.keys(sdk).map((key) => [key, process.env[key]]));
  Object.assign(process.env, sdk);
  try {
    return await start();
  } finally {
    for (const [key, value] of Object.entries(before))
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
  }
}

const logLines = (server: TestServer) => server.logs.map((line) => JSON.parse(line) as Record<string, unknown>);

// First in the file, before anything here has loaded the SDK: a school without an endpoint must not load it either.
describe('without an OTLP endpoint', () => {
  test('no part of OpenTelemetry is loaded, and requests have no trace ids in their log lines', async () => {
    const loaded: string[] = [];
    const hooks = registerHooks({
      resolve(specifier, context, next) {
        const resolved = next(specifier, context);
        if (resolved.url.includes('/node_modules/@opentelemetry/')) loaded.push(resolved.url);
        return resolved;
      },
    });
    try {
      const server = await startTestServer('sqlite');
      try {
        const answer = await fetch(`${server.url}/api/v1/courses`);
        assert.equal(answer.status, 200);
      } finally {
        await server.close();
      }
      assert.deepEqual(loaded, []);
      const completed = logLines(server).find((line) => line.msg === 'request completed');
      assert.ok(completed);
      assert.equal(completed.trace_id, undefined);
    } finally {
      hooks.deregister();
    }
  });
});

for (const engine of engines) {
  describe(`traces over OTLP/HTTP (${engine})`, () => {
    test('a span per request named by its route, continued from traceparent, tied to its log lines by ids', async () => {
      const collector = await startOtlpCollector();
      const server = await startWithSdkEnvironment(
        {
          OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer ${COLLECTOR_CREDENTIAL}`,
          OTEL_SERVICE_NAME: 'test-school',
        },
        () => startTestServer(engine, { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url }),
      );
      let closeMs = 0;
      const ids: Record<string, string> = {};
      const incoming = { traceId: randomBytes(16).toString('hex'), spanId: randomBytes(8).toString('hex') };
      const courseId = `crs_${'0'.repeat(26)}`;
      try {
        await completeSetup(server.url, server.setupUrl ?? '');
        const missing = await fetch(`${server.url}/api/v1/courses/${courseId}`);
        assert.equal(missing.status, 404);
        ids.missing = missing.headers.get('x-request-id') ?? '';
        const reset = await fetch(`${server.url}/password/reset?token=token-in-the-query`);
        assert.ok(reset.status < 500);
        ids.reset = reset.headers.get('x-request-id') ?? '';
        const listed = await fetch(`${server.url}/api/v1/courses?limit=5`, {
          headers: { traceparent: `00-${incoming.traceId}-${incoming.spanId}-01` },
        });
        assert.equal(listed.status, 200);
        ids.listed = listed.headers.get('x-request-id') ?? '';
        // A form's body is read after the request's context was entered: its queries must still be its children.
        const visitor = new WebClient(server.url);
        const page = await visitor.get('/signin');
        const refused = await visitor.postForm('/signin', {
          _csrf: csrfOf(page.text),
          email: OWNER.email,
          password: 'not-the-password-at-all',
        });
        assert.equal(refused.status, 401);
        ids.signin = refused.headers.get('x-request-id') ?? '';
      } finally {
        const started = performance.now();
        await server.close();
        closeMs = performance.now() - started;
        await collector.close();
      }
      // Every span was sent by the stop itself: the batch's five-second timer had not come round.
      assert.ok(closeMs < 3_000, `the stop flushed within 3 s (took ${Math.round(closeMs)} ms)`);
      const byRequest = (id: string) => {
        assert.match(id, /^[0-9a-f-]{36}$/);
        const span = collector.spans.find((s) => s.attributes[REQUEST_ID] === id);
        assert.ok(span, `a span carries request id ${id}`);
        return span;
      };
      const missing = byRequest(ids.missing as string);
      const listed = byRequest(ids.listed as string);
      const signin = byRequest(ids.signin as string);
      const reset = byRequest(ids.reset as string);

      assert.equal(missing.name, 'GET /api/v1/courses/:id');
      assert.equal(missing.kind, SERVER);
      assert.equal(missing.attributes['http.route'], '/api/v1/courses/:id');
      assert.equal(missing.attributes['http.request.method'], 'GET');
      assert.equal(missing.attributes['http.response.status_code'], 404);
      assert.equal(missing.attributes['url.scheme'], 'http');
      assert.equal(missing.attributes['url.path'], `/api/v1/courses/${courseId}`);
      assert.equal(missing.attributes['client.address'], '127.0.0.1');
      assert.equal(missing.status.code ?? 0, 0, 'a 404 is not an error of the server');
      assert.equal(listed.name, 'GET /api/v1/courses');
      assert.equal(signin.name, 'POST /signin');
      assert.equal(reset.name, 'GET /password/reset');
      assert.equal(reset.attributes['url.path'], '/password/reset');
      assert.equal(signin.attributes['http.response.status_code'], 401);

      // The incoming trace goes on: same trace id, the caller's span as parent. The others start their own traces.
      assert.equal(listed.traceId, incoming.traceId);
      assert.equal(listed.parentSpanId, incoming.spanId);
      assert.equal(missing.parentSpanId, undefined);
      assert.notEqual(missing.traceId, incoming.traceId);

      // Each request's log line names its trace and span; the span names the line's request id.
      for (const span of [missing, listed, signin, reset]) {
        const line = logLines(server).find(
          (l) => l.msg === 'request completed' && l.reqId === span.attributes[REQUEST_ID],
        );
        assert.ok(line, 'the request was logged');
        assert.equal(line.trace_id, span.traceId);
        assert.equal(line.span_id, span.spanId);
      }

      // The sign-in's queries are its children, with their statements and never the values sent with them.
      const queries = collector.spans.filter((s) => s.parentSpanId === signin.spanId);
      assert.ok(queries.length > 0, 'the sign-in has query spans');
      for (const query of queries) {
        assert.equal(query.kind, CLIENT);
        assert.equal(query.traceId, signin.traceId);
        assert.equal(query.attributes['db.system.name'], engine === 'postgres' ? 'postgresql' : 'sqlite');
        assert.match(String(query.attributes['db.query.text']), /^(select|insert|update|delete|with)\b/i);
      }
      assert.ok(
        queries.some((q) => q.name === 'SELECT users' && q.attributes['db.collection.name'] === 'users'),
        `a query of users, among ${queries.map((q) => q.name).join(', ')}`,
      );
      assert.ok(
        collector.spans.every((s) => s.kind !== CLIENT || s.parentSpanId),
        'no query span outside a request (the jobs and housekeeping are not traced)',
      );

      assert.ok(
        collector.spans.every(
          (s) => !s.name.includes(courseId) && !String(s.attributes['http.route']).includes(courseId),
        ),
        'spans are named by the route, never by the path asked for',
      );
      const everything = JSON.stringify(collector.spans);
      for (const secret of ['token-in-the-query', OWNER.email, 'not-the-password-at-all'])
        assert.ok(!everything.includes(secret), `${secret} is in no span`);
      assert.ok(
        collector.spans.every((s) => !String(s.attributes['url.path'] ?? '').includes('?')),
        'no query string in any span',
      );

      // The SDK's own variables: the collector's credentials and the service's name.
      assert.equal(collector.exports[0]?.authorization, `Bearer ${COLLECTOR_CREDENTIAL}`);
      assert.equal(missing.resource['service.name'], 'test-school');
      assert.match(String(missing.resource['service.version']), /^\d+\.\d+\.\d+/);
      assert.ok(!server.logs.join('\n').includes(COLLECTOR_CREDENTIAL));
    });
  });
}

describe('a collector that is away', () => {
  test('one that never answers: requests are not slowed, and a stop waits for it at most 3 s', async () => {
    const hanging = createServer(() => {});
    const port = await freePort();
    await new Promise<void>((resolve) => hanging.listen(port, '127.0.0.1', resolve));
    // The batch leaves 50 ms after its first span, so an export is under way (and hangs) while requests go on.
    const server = await startWithSdkEnvironment({ OTEL_BSP_SCHEDULE_DELAY: '50' }, () =>
      startTestServer('sqlite', { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` }),
    );
    let closeMs = 0;
    try {
      for (let i = 0; i < 20; i++) {
        const started = performance.now();
        const answer = await fetch(`${server.url}/api/v1/courses`);
        const took = performance.now() - started;
        assert.equal(answer.status, 200);
        // The exporter waits 10 s for an answer: a request that waited on it would show here.
        assert.ok(took < 2_000, `request ${i} took ${Math.round(took)} ms`);
      }
    } finally {
      const started = performance.now();
      await server.close();
      closeMs = performance.now() - started;
      hanging.closeAllConnections();
      hanging.close();
    }
    assert.ok(closeMs < 5_000, `the stop took ${Math.round(closeMs)} ms`);
  });

  test('one that is down: requests succeed, the log says so once, and once more when it is back', async () => {
    const port = await freePort();
    const server = await startWithSdkEnvironment(
      {
        OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer ${COLLECTOR_CREDENTIAL}`,
        // Every span is its own batch, and a refused export is given up at once: many failures in little time.
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '1',
        OTEL_EXPORTER_OTLP_TIMEOUT: '200',
      },
      () => startTestServer('sqlite', { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `http://127.0.0.1:${port}/v1/traces` }),
    );
    let collector: Awaited<ReturnType<typeof startOtlpCollector>> | undefined;
    let back: ReceivedSpan | undefined;
    try {
      for (let i = 0; i < 10; i++) assert.equal((await fetch(`${server.url}/api/v1/courses`)).status, 200);
      collector = await startOtlpCollector(port);
      // Spans of the requests made while it was down are lost; those after it came back arrive.
      const answer = await fetch(`${server.url}/api/v1/courses?after=back`);
      const id = answer.headers.get('x-request-id');
      back = await collector.spanWhere((s) => s.attributes[REQUEST_ID] === id);
    } finally {
      await server.close();
      await collector?.close();
    }
    assert.equal(back?.name, 'GET /api/v1/courses');
    const lines = logLines(server);
    const failed = lines.filter((l) => /Traces cannot be sent/.test(String(l.msg)));
    assert.equal(failed.length, 1, 'the collector being down is logged once');
    assert.equal(failed[0]?.level, 40);
    assert.equal(failed[0]?.endpoint, `http://127.0.0.1:${port}/v1/traces`);
    assert.match(String((failed[0]?.err as { message?: string } | undefined)?.message), /ECONNREFUSED/);
    assert.equal(lines.filter((l) => /Traces reach the collector again/.test(String(l.msg))).length, 1);
    assert.ok(!server.logs.join('\n').includes(COLLECTOR_CREDENTIAL), 'the collector credentials are never logged');
  });
});
