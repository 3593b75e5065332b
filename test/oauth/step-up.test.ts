import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ALL_SCOPES } from '../../src/security/scopes.ts';
import { engines } from '../support/databases.ts';
import {
  authorizeThroughForms,
  authorizeUrl,
  pkce,
  type RegisteredClient,
  register,
  registerClient,
  tokenRequest,
} from '../support/oauth.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { completeSetup, OWNER, WebClient } from '../support/web-client.ts';

const STUDENT = { name: 'Sam Student', email: 'sam@school.test', password: 'student password 1' };

/**
 * A self-registered client is not pinned to the scope it registered with (RFC 7591 §3.2.1): a later authorization may
 * ask for any scope the interface defines, and consent plus the person's role decide what the grant holds.
 */
for (const engine of engines) {
  describe(`step-up to scopes beyond the registered ones (${engine})`, () => {
    let server: TestServer;
    let client: RegisteredClient;
    const port = 41500;
    const redirectUri = `http://127.0.0.1:${port}/callback`;

    before(async () => {
      server = await startTestServer(engine);
      await completeSetup(server.url, server.setupUrl ?? '');
      await new WebClient(server.url).submit('/signup', '/signup', STUDENT);
      client = await registerClient(server.url, port, { scope: 'courses:read courses:write' });
    });
    after(() => server.close());

    /** One authorization through the school's pages, counting the consent forms shown; returns the token answer. */
    async function authorize(person: { email: string; password: string }, scope: string) {
      const { verifier, challenge } = pkce();
      let consents = 0;
      const result = await authorizeThroughForms(
        new WebClient(server.url),
        authorizeUrl(server.url, {
          response_type: 'code',
          client_id: client.client_id,
          redirect_uri: redirectUri,
          scope,
          code_challenge: challenge,
          code_challenge_method: 'S256',
          state: 'st',
        }),
        { ...person, onConsent: () => consents++ },
      );
      const code = result.location.searchParams.get('code');
      assert.ok(code, `no code: ${result.location} ${result.text.slice(0, 300)}`);
      const tokens = await tokenRequest(server.url, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        client_id: client.client_id,
        code_verifier: verifier,
      });
      assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
      return { consents, scopes: String(tokens.body.scope).split(' ').sort() };
    }

    test('registration answers with every scope the interface defines, whatever scope was asked for', async () => {
      assert.equal(client.scope, ALL_SCOPES.join(' '));
      const { status, body } = await register(server.url, {
        redirect_uris: [`http://127.0.0.1:${port}/other`],
        scope: 'openid',
      });
      assert.equal(status, 201);
      assert.equal(body.scope, ALL_SCOPES.join(' '));
    });

    test('an unknown scope at registration is still refused', async () => {
      const { status, body } = await register(server.url, {
        redirect_uris: [`http://127.0.0.1:${port}/other`],
        scope: 'courses:read courses:delete',
      });
      assert.equal(status, 400);
      assert.equal(body.error, 'invalid_client_metadata');
    });

    test('staff: the same client asks for another area later and gets it after one more consent', async () => {
      const first = await authorize(OWNER, 'courses:read courses:write');
      assert.deepEqual(first, { consents: 1, scopes: ['courses:read', 'courses:write'] });
      const second = await authorize(OWNER, 'courses:read courses:write lecturers:write');
      assert.deepEqual(second, { consents: 1, scopes: ['courses:read', 'courses:write', 'lecturers:write'] });
    });

    test("a student asking the same client for staff scopes gets only what a student's role allows", async () => {
      const { scopes } = await authorize(STUDENT, 'courses:read lecturers:write analytics:read');
      assert.deepEqual(scopes, ['courses:read']);
    });

    test('an unknown scope at authorization is still invalid_scope', async () => {
      const { challenge } = pkce();
      const response = await fetch(
        authorizeUrl(server.url, {
          response_type: 'code',
          client_id: client.client_id,
          redirect_uri: redirectUri,
          scope: 'courses:read courses:delete',
          code_challenge: challenge,
          code_challenge_method: 'S256',
          state: 'st',
        }),
        { redirect: 'manual' },
      );
      const location = new URL(String(response.headers.get('location')));
      assert.equal(location.searchParams.get('error'), 'invalid_scope');
    });
  });
}
