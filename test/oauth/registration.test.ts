import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { visibleClientName } from '../../src/oauth/registration.ts';
import { engines } from '../support/databases.ts';
import { register } from '../support/oauth.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const DOCS_URL = 'https://docs.lyceum.example/integrations';

for (const engine of engines) {
  describe(`dynamic client registration (${engine})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(engine, { OAUTH_REGISTRATIONS_PER_HOUR: '1000', DOCS_URL });
    });
    after(() => server.close());

    test('a public native client registers with a loopback redirect URI', async () => {
      const { status, body } = await register(server.url, {
        client_name: 'My CLI',
        application_type: 'native',
        redirect_uris: ['http://127.0.0.1:8765/callback', 'http://[::1]:8765/callback'],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
      });
      assert.equal(status, 201);
      assert.match(body.client_id, /^cli_[0-9a-z]{26}$/);
      assert.equal(typeof body.client_id_issued_at, 'number');
      assert.equal(body.client_name, 'My CLI');
      assert.equal(body.application_type, 'native');
      assert.deepEqual(body.redirect_uris, ['http://127.0.0.1:8765/callback', 'http://[::1]:8765/callback']);
      assert.equal(body.token_endpoint_auth_method, 'none');
      assert.deepEqual(body.grant_types, ['authorization_code', 'refresh_token']);
      assert.equal(body.client_secret, undefined);
    });

    test('application_type defaults to native and the auth method to none, with no secret', async () => {
      const { status, body } = await register(server.url, { redirect_uris: ['http://127.0.0.1:9000/cb'] });
      assert.equal(status, 201);
      assert.equal(body.application_type, 'native');
      assert.equal(body.token_endpoint_auth_method, 'none');
      assert.equal(body.client_secret, undefined);
    });

    test('a confidential client gets a secret that never expires', async () => {
      const { status, body } = await register(server.url, {
        client_name: 'Desktop app',
        redirect_uris: ['http://127.0.0.1:9000/cb'],
        token_endpoint_auth_method: 'client_secret_post',
      });
      assert.equal(status, 201);
      assert.equal(body.token_endpoint_auth_method, 'client_secret_post');
      assert.match(String(body.client_secret), /^[\w-]{40,}$/);
      assert.equal(body.client_secret_expires_at, 0);
    });

    // A callback off the user's machine cannot be fixed by the client: it is told where to ask for an integration.
    const integration = `needs a registered integration: ask for one at ${DOCS_URL}.`;
    const refused: [string, string, RegExp, 'integration' | 'fix'][] = [
      ['https', 'https://app.example/callback', /is an https URI/, 'integration'],
      ['custom scheme', 'com.example.app:/callback', /scheme/, 'integration'],
      ['localhost', 'http://localhost:8765/callback', /localhost; use http:\/\/127\.0\.0\.1/, 'fix'],
      ['a fragment', 'http://127.0.0.1:8765/callback#frag', /fragment/, 'fix'],
      ['no path', 'http://127.0.0.1:8765', /no path/, 'fix'],
      ['no path before its query', 'http://127.0.0.1:8765?next=/x', /no path/, 'fix'],
      ['no port', 'http://127.0.0.1/callback', /no port/, 'fix'],
      ['a private address', 'http://192.168.1.10:8765/callback', /not a loopback/, 'integration'],
      ['a public host', 'http://app.example:8765/callback', /not a loopback/, 'integration'],
      ['another loopback-range address', 'http://127.0.0.2:8765/callback', /not a loopback/, 'fix'],
      ['credentials', 'http://user:pw@127.0.0.1:8765/callback', /credentials/, 'fix'],
      ['not a URI', 'callback', /not an absolute URI/, 'fix'],
      // Spellings other parsers read differently: only the canonical form is stored and compared.
      [
        'a short IPv4 form',
        'http://127.1:5000/cb',
        /canonical form; send exactly "http:\/\/127\.0\.0\.1:5000\/cb"/,
        'fix',
      ],
      [
        'a hexadecimal address',
        'http://0x7f000001:5000/cb',
        /canonical form; send exactly "http:\/\/127\.0\.0\.1:5000\/cb"/,
        'fix',
      ],
      ['an upper-case scheme', 'HTTP://127.0.0.1:5000/cb', /canonical form/, 'fix'],
      ['port 0', 'http://127.0.0.1:0/cb', /port 0/, 'fix'],
      ['a leading-zero port', 'http://127.0.0.1:05000/cb', /canonical form/, 'fix'],
      [
        'dot segments',
        'http://127.0.0.1:5000/../cb',
        /canonical form; send exactly "http:\/\/127\.0\.0\.1:5000\/cb"/,
        'fix',
      ],
      ['a backslash', 'http://127.0.0.1:5000\\@evil.com/cb', /canonical form/, 'fix'],
      [
        'a space',
        'http://127.0.0.1:5000/c b',
        /canonical form; send exactly "http:\/\/127\.0\.0\.1:5000\/c%20b"/,
        'fix',
      ],
      ['a trailing newline', 'http://127.0.0.1:5000/cb\n', /canonical form/, 'fix'],
      [
        'a long IPv6 form',
        'http://[0:0:0:0:0:0:0:1]:5000/cb',
        /canonical form; send exactly "http:\/\/\[::1\]:5000\/cb"/,
        'fix',
      ],
    ];
    for (const [name, uri, reason, advice] of refused) {
      test(`a redirect URI with ${name} is refused with invalid_redirect_uri`, async () => {
        const { status, body } = await register(server.url, {
          client_name: 'x',
          redirect_uris: ['http://127.0.0.1:1234/ok', uri],
        });
        assert.equal(status, 400);
        assert.equal(body.error, 'invalid_redirect_uri');
        assert.ok(
          String(body.error_description).includes(JSON.stringify(uri)),
          `names the URI: ${body.error_description}`,
        );
        assert.match(String(body.error_description), reason);
        assert.match(
          String(body.error_description),
          /http:\/\/127\.0\.0\.1:<port>\/<path> or http:\/\/\[::1\]:<port>\/<path>/,
        );
        assert.equal(
          String(body.error_description).endsWith(integration),
          advice === 'integration',
          String(body.error_description),
        );
      });
    }

    for (const [name, clientName] of [
      ['a right-to-left override', '\u202Eelgoog'],
      ['a zero-width space', 'Goo\u200Bgle'],
      ['a control character', 'My\u0007 App'],
      ['a line break', 'My\nApp'],
      ['only spaces', '   '],
    ] as const) {
      test(`a client_name with ${name} is refused, so no app can pass for another`, async () => {
        const { status, body } = await register(server.url, {
          client_name: clientName,
          redirect_uris: ['http://127.0.0.1:1234/ok'],
        });
        assert.equal(status, 400);
        assert.equal(body.error, 'invalid_client_metadata');
        assert.match(String(body.error_description), /client_name must be 1–100 characters with no control/);
      });
    }

    test('ordinary names in any script register', async () => {
      for (const clientName of ['Claude Code', 'Café Óla — notes', '日本語のアプリ', 'مساعد']) {
        const { status } = await register(server.url, {
          client_name: clientName,
          redirect_uris: ['http://127.0.0.1:1234/ok'],
        });
        assert.equal(status, 201, clientName);
      }
    });

    test('no redirect URIs at all is refused', async () => {
      const { status, body } = await register(server.url, { client_name: 'x', redirect_uris: [] });
      assert.equal(status, 400);
      assert.equal(body.error, 'invalid_redirect_uri');
    });

    for (const [name, metadata, error] of [
      ['an unsupported auth method', { token_endpoint_auth_method: 'client_secret_basic' }, 'invalid_client_metadata'],
      ['private_key_jwt', { token_endpoint_auth_method: 'private_key_jwt' }, 'invalid_client_metadata'],
      ['the client_credentials grant', { grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
      ['the implicit grant', { grant_types: ['implicit'] }, 'invalid_client_metadata'],
      ['a web application', { application_type: 'web' }, 'invalid_client_metadata'],
    ] as const) {
      test(`${name} is refused with ${error}`, async () => {
        const { status, body } = await register(server.url, {
          redirect_uris: ['http://127.0.0.1:9000/cb'],
          ...metadata,
        });
        assert.equal(status, 400);
        assert.equal(body.error, error);
      });
    }

    test('a malformed body is refused in the error shape', async () => {
      const response = await fetch(`${server.url}/api/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{nope',
      });
      assert.equal(response.status, 400);
      const body = (await response.json()) as Record<string, string>;
      assert.equal(body.error, 'invalid_request');
      assert.equal(typeof body.error_description, 'string');
    });
  });

  describe(`registration settings (${engine})`, () => {
    test('OAUTH_ALLOW_LOCALHOST_REDIRECTS admits http://localhost', async () => {
      const server = await startTestServer(engine, { OAUTH_ALLOW_LOCALHOST_REDIRECTS: 'true' });
      try {
        const { status, body } = await register(server.url, { redirect_uris: ['http://localhost:8765/callback'] });
        assert.equal(status, 201, JSON.stringify(body));
        const https = await register(server.url, { redirect_uris: ['https://localhost:8765/callback'] });
        assert.equal(https.status, 400);
      } finally {
        await server.close();
      }
    });

    test('registration is rate limited per address', async () => {
      const server = await startTestServer(engine, { OAUTH_REGISTRATIONS_PER_HOUR: '3' });
      try {
        for (let i = 0; i < 3; i++)
          assert.equal((await register(server.url, { redirect_uris: ['http://127.0.0.1:9000/cb'] })).status, 201);
        const response = await fetch(`${server.url}/api/oauth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9000/cb'] }),
        });
        assert.equal(response.status, 429);
        assert.ok(Number(response.headers.get('retry-after')) > 0);
        assert.equal(((await response.json()) as { error: string }).error, 'rate_limited');
      } finally {
        await server.close();
      }
    });

    test('behind one trusted proxy the address is the one the proxy saw, not one the client wrote', async () => {
      const server = await startTestServer(engine, { OAUTH_REGISTRATIONS_PER_HOUR: '2', TRUST_PROXY: '1' });
      try {
        const from = (forwarded: string) =>
          fetch(`${server.url}/api/oauth/register`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': forwarded },
            body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9000/cb'] }),
          });
        // The client forges the left-most entries; the proxy appends the address it saw (the right-most).
        const statuses = [];
        for (let i = 0; i < 3; i++) statuses.push((await from(`10.0.0.${i}, 203.0.113.7`)).status);
        assert.deepEqual(statuses, [201, 201, 429]);
        assert.equal((await from('203.0.113.8')).status, 201, 'another real address has its own count');
      } finally {
        await server.close();
      }
    });
  });
}

test('a name stored before names were checked is shown without its deceptive characters', () => {
  assert.equal(visibleClientName('\u202Eelgoog', 'client-1'), 'elgoog');
  assert.equal(visibleClientName('Goo\u200Bgle', 'client-1'), 'Google');
  assert.equal(visibleClientName('\u200B', 'client-1'), 'client-1');
  assert.equal(visibleClientName(undefined, 'client-1'), 'client-1');
  assert.equal(visibleClientName('Café app', 'client-1'), 'Café app');
});
