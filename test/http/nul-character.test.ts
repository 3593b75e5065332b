import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { apiClient, schoolWithPeople, tokenFor } from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { registerClient } from '../support/oauth.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { csrfOf, WebClient } from '../support/web-client.ts';

type Probe = {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  /** A form or JSON body; `csrf` takes the form's token from that page first. */
  form?: Record<string, string>;
  json?: unknown;
  csrf?: string;
  token?: boolean;
  /** The surface answers with a page (HTML) rather than the JSON error shape. */
  page?: boolean;
};

const NUL = '\u0000';

for (const engine of engines) {
  describe(`a NUL character is refused at the edge (${engine})`, () => {
    let server: TestServer;
    let token: string;
    let clientId: string;
    before(async () => {
      server = await startTestServer(engine);
      const { owner } = await schoolWithPeople(server);
      token = await tokenFor(server, owner, 'courses:read courses:write');
      clientId = (await registerClient(server.url, 43000, { client_name: 'NUL test' })).client_id;
      const created = await apiClient(server.url, token).post('/api/v1/courses', { title: 'Real course' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
    });
    after(() => server.close());

    const probes = (): Probe[] => [
      // The API
      { name: 'API path', method: 'GET', path: '/api/v1/courses/%00' },
      { name: 'API path, within a segment', method: 'GET', path: '/api/v1/courses/crs_%00x' },
      { name: 'API query', method: 'GET', path: '/api/v1/courses?q=%00' },
      { name: 'API query, in a name', method: 'GET', path: '/api/v1/courses?q%00=x' },
      { name: 'API JSON', method: 'POST', path: '/api/v1/courses', json: { title: `A${NUL}B` }, token: true },
      {
        name: 'API JSON, nested',
        method: 'POST',
        path: '/api/v1/courses',
        json: { title: 'x', tags: [NUL] },
        token: true,
      },
      { name: 'API JSON, in a key', method: 'POST', path: '/api/v1/courses', json: { [NUL]: 1 }, token: true },
      { name: 'API form', method: 'POST', path: '/api/v1/courses', form: { title: NUL }, token: true },
      // The authorization server
      {
        name: 'token form',
        method: 'POST',
        path: '/api/oauth/token',
        form: {
          grant_type: 'authorization_code',
          code: NUL,
          client_id: clientId,
          redirect_uri: 'http://127.0.0.1:43000/callback',
          code_verifier: 'x'.repeat(43),
        },
      },
      {
        name: 'token form, client_id',
        method: 'POST',
        path: '/api/oauth/token',
        form: { grant_type: 'refresh_token', refresh_token: 'x', client_id: NUL },
      },
      {
        name: 'token JSON',
        method: 'POST',
        path: '/api/oauth/token',
        json: { grant_type: 'authorization_code', code: NUL },
      },
      {
        name: 'token query',
        method: 'POST',
        path: '/api/oauth/token?x=%00',
        form: { grant_type: 'authorization_code' },
      },
      { name: 'revocation form', method: 'POST', path: '/api/oauth/revoke', form: { token: NUL, client_id: clientId } },
      {
        name: 'introspection form',
        method: 'POST',
        path: '/api/oauth/introspect',
        form: { token: NUL, client_id: clientId },
      },
      {
        name: 'registration JSON',
        method: 'POST',
        path: '/api/oauth/register',
        json: { client_name: NUL, redirect_uris: ['http://127.0.0.1:1/cb'] },
      },
      {
        name: 'authorize query',
        method: 'GET',
        path: `/oauth/authorize?response_type=code&client_id=%00&scope=openid`,
      },
      {
        name: 'authorize query, known client',
        method: 'GET',
        path: `/oauth/authorize?response_type=code&client_id=${clientId}&scope=openid&state=%00`,
      },
      { name: 'authorize path', method: 'GET', path: '/oauth/authorize/%00' },
      { name: 'interaction path', method: 'GET', path: '/oauth/interaction/%00', page: true },
      // Pages people use
      { name: 'sign-in query', method: 'GET', path: '/signin?return_to=%00', page: true },
      {
        name: 'sign-in form',
        method: 'POST',
        path: '/signin',
        form: { email: `a${NUL}@b.test`, password: 'x' },
        csrf: '/signin',
        page: true,
      },
      {
        name: 'sign-in JSON',
        method: 'POST',
        path: '/signin',
        json: { email: `a${NUL}@b.test`, password: 'x' },
        page: true,
      },
      {
        name: 'sign-up form',
        method: 'POST',
        path: '/signup',
        form: { name: NUL, email: 'new@school.test', password: 'a long password 1' },
        csrf: '/signup',
        page: true,
      },
      { name: 'sign-up query', method: 'GET', path: '/signup?return_to=%00', page: true },
      {
        name: 'password forgot form',
        method: 'POST',
        path: '/password/forgot',
        form: { email: `${NUL}@school.test` },
        csrf: '/password/forgot',
        page: true,
      },
      { name: 'public course page path', method: 'GET', path: '/courses/%00', page: true },
      { name: 'public catalog query', method: 'GET', path: '/courses?q=%00', page: true },
      { name: 'certificate page path', method: 'GET', path: '/certificates/%00', page: true },
      { name: 'an address with no route', method: 'GET', path: '/nothing/%00' },
      // MCP
      {
        name: 'MCP JSON',
        method: 'POST',
        path: '/mcp',
        json: {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'listCourses', arguments: { q: NUL } },
        },
      },
      { name: 'MCP query', method: 'POST', path: '/mcp?x=%00', json: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
    ];

    test('every surface answers 400 invalid_request, and nothing is logged at error level', async () => {
      const failures: string[] = [];
      for (const probe of probes()) {
        const browser = new WebClient(server.url);
        const headers: Record<string, string> = { accept: probe.page ? 'text/html' : 'application/json' };
        if (probe.token) headers.authorization = `Bearer ${token}`;
        if (probe.path === '/mcp' || probe.path.startsWith('/mcp?'))
          headers.accept = 'application/json, text/event-stream';
        let body: string | undefined;
        if (probe.form) {
          const fields = { ...probe.form };
          if (probe.csrf) fields._csrf = csrfOf((await browser.get(probe.csrf)).text);
          body = new URLSearchParams(fields).toString();
          headers['content-type'] = 'application/x-www-form-urlencoded';
        } else if (probe.json !== undefined) {
          body = JSON.stringify(probe.json);
          headers['content-type'] = 'application/json';
        }
        const response = await browser.request(probe.method, probe.path, { body, headers });
        const type = response.headers.get('content-type') ?? '';
        if (response.status !== 400) {
          failures.push(`${probe.name}: ${response.status} ${response.text.slice(0, 200)}`);
          continue;
        }
        if (probe.page) {
          if (!type.startsWith('text/html') || !/NUL/.test(response.text))
            failures.push(`${probe.name}: not the 400 page (${type})`);
        } else {
          const parsed = type.startsWith('application/json') ? JSON.parse(response.text) : undefined;
          if (parsed?.error !== 'invalid_request' || !/NUL/.test(parsed.error_description))
            failures.push(`${probe.name}: not the error shape: ${response.text.slice(0, 200)}`);
        }
      }
      assert.deepEqual(failures, []);
      const errorLines = server.logs.map((line) => JSON.parse(line)).filter((line) => line.level >= 50);
      assert.deepEqual(errorLines, []);
    });

    test('a NUL in a header value is refused by the HTTP parser, in the error shape', async () => {
      const { port } = new URL(server.url);
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.write(
            `GET /api/v1/courses HTTP/1.1\r\nHost: x\r\nIdempotency-Key: a${NUL}b\r\nUser-Agent: u${NUL}\r\n\r\n`,
          );
        });
        let text = '';
        socket.on('data', (chunk) => {
          text += chunk;
        });
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      assert.match(answer, /^HTTP\/1\.1 400 /);
      assert.equal(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error, 'invalid_request');
    });

    test('text without a NUL still passes, and the course list is whole', async () => {
      const api = apiClient(server.url, token);
      assert.equal((await api.get('/api/v1/courses?q=%2500')).status, 200);
      assert.equal((await api.post('/api/v1/courses', { title: 'Literally \\u0000 and %00' })).status, 201);
    });
  });
}
