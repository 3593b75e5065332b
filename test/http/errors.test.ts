import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { toApiError } from '../../src/http/error-handler.ts';
import { ApiError } from '../../src/http/errors.ts';
import { redactUrl } from '../../src/http/logging.ts';
import { engines } from '../support/databases.ts';
import { startTestServer } from '../support/server.ts';
import { completeSetup, WebClient } from '../support/web-client.ts';

/** What Chromium sends when the user opens an address. */
const BROWSER_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8';

describe('error table', () => {
  test('internal errors become a generic server_error', () => {
    const mapped = toApiError(new Error('relation "users" does not exist at 10.0.0.5'));
    assert.deepEqual(mapped.toBody(), {
      error: 'server_error',
      error_description: 'The server could not complete the request.',
    });
    assert.equal(mapped.status, 500);
  });

  test('validation errors list each field', () => {
    const error = Object.assign(new Error('body must NOT have additional properties'), {
      validation: [
        { instancePath: '', keyword: 'additionalProperties', params: { additionalProperty: 'colour' }, message: 'x' },
        {
          instancePath: '/title',
          keyword: 'maxLength',
          params: { limit: 200 },
          message: 'must NOT have more than 200 characters',
        },
      ],
      validationContext: 'body',
    });
    const body = toApiError(error).toBody();
    assert.equal(body.error, 'invalid_request');
    assert.deepEqual(
      body.errors?.map((e) => [e.field, e.code]),
      [
        ['colour', 'unknown_field'],
        ['title', 'maxLength'],
      ],
    );
  });

  test('a field that takes one of a few words fails with one sentence naming them', () => {
    const error = Object.assign(new Error('x'), {
      validation: [
        { instancePath: '/visibility', keyword: 'const', params: { allowedValue: 'public' }, message: 'm' },
        { instancePath: '/visibility', keyword: 'const', params: { allowedValue: 'unlisted' }, message: 'm' },
        { instancePath: '/visibility', keyword: 'type', params: { type: 'null' }, message: 'must be null' },
        { instancePath: '/visibility', keyword: 'anyOf', params: {}, message: 'must match a schema in anyOf' },
        { instancePath: '/title', keyword: 'maxLength', params: { limit: 5 }, message: 'too long' },
      ],
      validationContext: 'body',
    });
    assert.deepEqual(toApiError(error).toBody().errors, [
      { field: 'visibility', code: 'enum', message: 'must be one of: public, unlisted' },
      { field: 'title', code: 'maxLength', message: 'too long' },
    ]);
  });

  test('ApiError carries its status and headers', () => {
    const error = new ApiError('rate_limited', 'slow down', { headers: { 'retry-after': '7' } });
    assert.equal(error.status, 429);
    assert.deepEqual(error.headers, { 'retry-after': '7' });
  });

  test('secret query parameters are redacted from logged URLs', () => {
    assert.equal(redactUrl('/setup?token=abc&x=1'), '/setup?token=%5Bredacted%5D&x=1');
    assert.equal(redactUrl('/cb?code=c&state=s'), '/cb?code=%5Bredacted%5D&state=%5Bredacted%5D');
    assert.equal(redactUrl('/plain'), '/plain');
    assert.equal(redactUrl('/calendar/s3cr3t.ics'), '/calendar/[redacted]', 'a feed address is its secret');
    assert.equal(redactUrl('/calendar/s3cr3t.ics?x=1'), '/calendar/[redacted]?x=1');
    assert.equal(redactUrl('/certificates/C0DE'), '/certificates/[redacted]', 'a certificate code verifies it');
    assert.equal(redactUrl('/certificates/C0DE.pdf?download=1'), '/certificates/[redacted]?download=1');
    assert.equal(redactUrl('/admin/certificates/crt_1'), '/admin/certificates/crt_1');
    assert.equal(redactUrl('/media/ast_1?expires=9&signature=abc'), '/media/ast_1?expires=9&signature=%5Bredacted%5D');
  });
});

for (const engine of engines) {
  describe(`HTTP behaviour (${engine})`, () => {
    test('unknown routes, large bodies and request ids', async () => {
      const server = await startTestServer(engine, { BODY_LIMIT_BYTES: '2048' });
      try {
        const missing = await fetch(`${server.url}/api/v1/nothing`);
        assert.equal(missing.status, 404);
        assert.deepEqual(await missing.json(), {
          error: 'not_found',
          error_description: 'No route for GET /api/v1/nothing.',
        });
        assert.match(missing.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);

        const big = await fetch(`${server.url}/signin`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `email=${'a'.repeat(5000)}`,
        });
        assert.equal(big.status, 413);

        const health = await fetch(`${server.url}/healthz`);
        assert.deepEqual(await health.json(), { status: 'ok' });
        const ready = await fetch(`${server.url}/readyz`);
        assert.deepEqual(await ready.json(), { status: 'ready', database: engine });
      } finally {
        await server.close();
      }
    });

    test('an unknown address is a page for a browser and JSON for everyone else, always JSON under /api/', async () => {
      const server = await startTestServer(engine);
      try {
        await completeSetup(server.url, server.setupUrl ?? '', 'Harbour School');
        const get = (path: string, accept?: string) =>
          fetch(`${server.url}${path}`, { headers: accept === undefined ? {} : { accept } });

        const page = await get('/no-such-page?x=1', BROWSER_ACCEPT);
        assert.equal(page.status, 404);
        assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
        assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'self'/);
        const text = await page.text();
        assert.match(text, /<title>Not found · Harbour School<\/title>/);
        assert.match(text, /There is no page at \/no-such-page\./);
        assert.match(text, /<a href="\/">Back to the school<\/a>/);

        for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/html;q=0.5']) {
          const json = await get('/no-such-page', accept);
          assert.equal(json.status, 404, String(accept));
          assert.deepEqual(await json.json(), {
            error: 'not_found',
            error_description: 'No route for GET /no-such-page.',
          });
        }
        for (const path of ['/api/v1/nothing', '/api/oauth/nothing']) {
          const api = await get(path, BROWSER_ACCEPT);
          assert.equal(api.status, 404);
          assert.equal(((await api.json()) as { error: string }).error, 'not_found', path);
        }
      } finally {
        await server.close();
      }
    });

    test('the setup token is logged once, in the setup line only; request logs redact it', async () => {
      const server = await startTestServer(engine);
      try {
        const token = new URL(server.setupUrl ?? '').searchParams.get('token') ?? '';
        await new WebClient(server.url).get(`/setup?token=${token}`);
        const withToken = server.logs.filter((line) => line.includes(token));
        assert.equal(withToken.length, 1);
        assert.match(withToken[0] ?? '', /setup_url/);
        assert.ok(server.logs.some((line) => line.includes('/setup?token=%5Bredacted%5D')));
        assert.ok(server.logs.some((line) => /"reqId":"[0-9a-f-]{36}"/.test(line)));
      } finally {
        await server.close();
      }
    });

    test('a failing database gives 503 at /readyz and a 500 page that leaks nothing', async () => {
      const server = await startTestServer(engine);
      try {
        await server.database.close();
        const ready = await fetch(`${server.url}/readyz`);
        assert.equal(ready.status, 503);
        assert.equal(((await ready.json()) as { error: string }).error, 'service_unavailable');
        const page = await new WebClient(server.url).get('/');
        assert.equal(page.status, 500);
        assert.match(page.text, /could not complete the request/);
        assert.doesNotMatch(page.text, /sqlite|postgres|driver|destroyed|stack/i);
      } finally {
        await server.app.close();
      }
    });
  });
}

/** A raw request, since fetch() would refuse or rewrite what these tests send. */
function rawRequest(base: string, path: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const request = http.request(`${base}${path}`, { method, headers });
    request.on('response', (response) => {
      let body = '';
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('errors raised before any route runs have the error shape too', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  before(async () => {
    server = await startTestServer('sqlite');
  });
  after(() => server.close());

  const cases: [string, () => ReturnType<typeof rawRequest>, number, string][] = [
    ['a path that does not decode', () => rawRequest(server.url, '/api/v1/courses/%E0%A4%A'), 400, 'invalid_request'],
    [
      'an over-long path parameter',
      () => rawRequest(server.url, `/api/v1/courses/${'a'.repeat(300)}`),
      414,
      'uri_too_long',
    ],
    [
      'huge headers',
      () => rawRequest(server.url, '/api/v1/courses', { 'x-padding': 'a'.repeat(20_000) }),
      431,
      'request_header_fields_too_large',
    ],
    [
      'a huge URL',
      () => rawRequest(server.url, `/api/v1/courses?q=${'a'.repeat(20_000)}`),
      431,
      'request_header_fields_too_large',
    ],
    [
      'POST to the authorization endpoint',
      () => rawRequest(server.url, '/oauth/authorize', {}, 'POST'),
      405,
      'method_not_allowed',
    ],
    ['GET of the token endpoint', () => rawRequest(server.url, '/api/oauth/token'), 405, 'method_not_allowed'],
  ];
  for (const [name, send, status, error] of cases) {
    test(`${name}: ${status} ${error}`, async () => {
      const response = await send();
      assert.equal(response.status, status);
      assert.match(String(response.headers['content-type']), /^application\/json/);
      const body = JSON.parse(response.body) as { error: string; error_description: string };
      assert.equal(body.error, error);
      assert.ok(body.error_description.length > 10);
    });
  }

  test('a wrong method names the allowed ones; a 120-character slug still reaches validation', async () => {
    assert.equal((await rawRequest(server.url, '/oauth/authorize', {}, 'POST')).headers.allow, 'GET');
    assert.equal((await rawRequest(server.url, '/api/oauth/token')).headers.allow, 'POST, OPTIONS');
    assert.equal((await rawRequest(server.url, `/api/v1/courses/${'a'.repeat(120)}`)).status, 404);
  });
});
