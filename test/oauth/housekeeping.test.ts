import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startOauthHousekeeping } from '../../src/oauth/housekeeping.ts';
import { cimdRedirectsAllowed, loopbackRedirectProblem } from '../../src/oauth/registration.ts';
import { engines } from '../support/databases.ts';
import { authorizeThroughForms, authorizeUrl, pkce, registerClient } from '../support/oauth.ts';
import { startTestServer } from '../support/server.ts';
import { completeSetup, OWNER, WebClient } from '../support/web-client.ts';

for (const engine of engines) {
  describe(`client housekeeping (${engine})`, () => {
    test('clients never used within a day of registering are removed; used ones stay', async () => {
      const server = await startTestServer(engine);
      try {
        await completeSetup(server.url, server.setupUrl ?? '');
        const unused = await registerClient(server.url, 43000, { client_name: 'Forgotten' });
        const used = await registerClient(server.url, 43000, { client_name: 'Used' });
        const result = await authorizeThroughForms(
          new WebClient(server.url),
          authorizeUrl(server.url, {
            response_type: 'code',
            client_id: used.client_id,
            redirect_uri: 'http://127.0.0.1:43000/callback',
            scope: 'openid',
            code_challenge: pkce().challenge,
            code_challenge_method: 'S256',
          }),
          OWNER,
        );
        assert.ok(result.location.searchParams.get('code'));

        const clients = () =>
          server.database.db.selectFrom('oauth_models').select('id').where('model', '=', 'Client').execute();
        const soon = startOauthHousekeeping({
          db: server.database.db,
          clock: { now: () => new Date(Date.now() + 3_600_000) },
          log: () => {},
        });
        await soon.run();
        soon.stop();
        assert.equal((await clients()).length, 2, 'an hour later both are still there');

        const later = startOauthHousekeeping({
          db: server.database.db,
          clock: { now: () => new Date(Date.now() + 25 * 3_600_000) },
          log: () => {},
        });
        await later.run();
        later.stop();
        assert.deepEqual(
          (await clients()).map((c) => c.id),
          [used.client_id],
        );
        assert.notEqual(unused.client_id, used.client_id);
        const authorizeUnused = await authorizeThroughForms(
          new WebClient(server.url),
          authorizeUrl(server.url, {
            response_type: 'code',
            client_id: unused.client_id,
            redirect_uri: 'http://127.0.0.1:43000/callback',
            scope: 'openid',
            code_challenge: pkce().challenge,
            code_challenge_method: 'S256',
          }),
          OWNER,
        );
        assert.equal(authorizeUnused.status, 400, 'the removed client is unknown now');
        assert.match(authorizeUnused.text, /invalid_client/);
      } finally {
        await server.close();
      }
    });

    test('a client_id metadata document URL on a private address is never fetched', async () => {
      const server = await startTestServer(engine);
      try {
        const result = await authorizeThroughForms(
          new WebClient(server.url),
          authorizeUrl(server.url, {
            response_type: 'code',
            client_id: 'https://127.0.0.1:1/client.json',
            redirect_uri: 'http://127.0.0.1:43000/callback',
            scope: 'openid',
            code_challenge: pkce().challenge,
            code_challenge_method: 'S256',
          }),
        );
        assert.equal(result.location.origin, server.config.BASE_URL, 'shown as a page, not redirected');
        assert.equal(result.status, 400);
        assert.match(result.text, /invalid_client/);
      } finally {
        await server.close();
      }
    });
  });
}

describe('redirect URI policies', () => {
  test('loopback policy', () => {
    assert.equal(loopbackRedirectProblem('http://127.0.0.1:1/cb', false), undefined);
    assert.equal(loopbackRedirectProblem('http://[::1]:65535/a/b?x=1', false), undefined);
    assert.match(String(loopbackRedirectProblem('http://localhost:1/cb', false)), /localhost/);
    assert.equal(loopbackRedirectProblem('http://localhost:1/cb', true), undefined);
    assert.match(String(loopbackRedirectProblem('http://127.0.0.2:1/cb', false)), /not a loopback/);
  });

  test('metadata-document clients may use loopback or https on their own origin', () => {
    const id = 'https://agent.example/client.json';
    assert.equal(cimdRedirectsAllowed(id, ['http://127.0.0.1:8080/cb'], false), true);
    assert.equal(cimdRedirectsAllowed(id, ['https://agent.example/oauth/callback'], false), true);
    assert.equal(cimdRedirectsAllowed(id, ['https://evil.example/oauth/callback'], false), false);
    assert.equal(cimdRedirectsAllowed(id, ['http://agent.example/oauth/callback'], false), false);
    assert.equal(cimdRedirectsAllowed(id, [], false), false);
  });
});
