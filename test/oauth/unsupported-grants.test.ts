import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../support/databases.ts';
import { type RegisteredClient, registerClient, tokenRequest } from '../support/oauth.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const UNSUPPORTED = {
  'ID-JAG (JWT bearer)': {
    grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
    assertion: 'eyJhbGciOiJub25lIn0.e30.',
  },
  'token exchange': {
    grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
    subject_token: 'x',
    subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
  },
  client_credentials: { grant_type: 'client_credentials', scope: 'courses:read' },
  password: { grant_type: 'password', username: 'owner@school.test', password: 'x' },
  'device code': { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: 'x' },
} as const;

for (const engine of engines) {
  describe(`grants that are not offered (${engine})`, () => {
    let server: TestServer;
    let client: RegisteredClient;
    let confidential: RegisteredClient;
    before(async () => {
      server = await startTestServer(engine);
      client = await registerClient(server.url, 47101);
      confidential = await registerClient(server.url, 47101, { token_endpoint_auth_method: 'client_secret_post' });
    });
    after(() => server.close());

    for (const [name, form] of Object.entries(UNSUPPORTED)) {
      test(`${name} is 400 unsupported_grant_type, pointing to the interactive flow, whoever asks`, async () => {
        // An agent may try it with a client registered here, with none, or with one this server does not know.
        for (const auth of [
          { client_id: client.client_id },
          { client_id: confidential.client_id, client_secret: confidential.client_secret },
          { client_id: confidential.client_id, client_secret: 'wrong' },
          { client_id: 'cli_not_registered_here' },
          {},
        ]) {
          const { status, headers, body } = await tokenRequest(server.url, { ...form, ...auth });
          assert.equal(status, 400, JSON.stringify(auth));
          assert.match(headers.get('content-type') ?? '', /^application\/json/);
          assert.equal(headers.get('www-authenticate'), null);
          assert.deepEqual(Object.keys(body).sort(), ['error', 'error_description']);
          assert.equal(body.error, 'unsupported_grant_type');
          const description = String(body.error_description);
          assert.match(description, /^Only the authorization_code and refresh_token grants are supported;/);
          const endpoint = `${server.config.BASE_URL}/oauth/authorize`;
          assert.ok(
            description.includes(`Consent is obtained interactively at the authorization endpoint, ${endpoint}`),
            description,
          );
        }
      });
    }

    test('the two offered grants keep their own errors', async () => {
      const code = await tokenRequest(server.url, {
        grant_type: 'authorization_code',
        code: 'not-a-code',
        redirect_uri: 'http://127.0.0.1:47101/callback',
        client_id: client.client_id,
        code_verifier: 'v'.repeat(43),
      });
      assert.equal(code.status, 400);
      assert.equal(code.body.error, 'invalid_grant');
      const unknown = await tokenRequest(server.url, {
        grant_type: 'refresh_token',
        refresh_token: 'x',
        client_id: 'cli_not_registered_here',
      });
      assert.equal(unknown.status, 401);
      assert.equal(unknown.body.error, 'invalid_client');
    });

    test('discovery advertises exactly the two grants', async () => {
      const metadata = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as {
        grant_types_supported: string[];
      };
      assert.deepEqual(metadata.grant_types_supported.sort(), ['authorization_code', 'refresh_token']);
    });
  });
}
