import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ALL_SCOPES } from '../../src/oauth/scopes.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

describe('/auth.md', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite');
  });
  after(() => server.close());

  test('is written for this origin and names every endpoint of the live discovery document and every scope', async () => {
    const response = await fetch(`${server.url}/auth.md`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/markdown/);
    const text = await response.text();
    const discovery = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    for (const key of [
      'authorization_endpoint',
      'token_endpoint',
      'registration_endpoint',
      'revocation_endpoint',
      'introspection_endpoint',
      'userinfo_endpoint',
      'jwks_uri',
    ]) {
      assert.ok(text.includes(String(discovery[key])), `${key} ${discovery[key]}`);
    }
    for (const scope of ALL_SCOPES) assert.ok(text.includes(`| \`${scope}\` |`), scope);
    assert.ok(text.includes(`expires_in\` (3600 s)`));
  });
});
