import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../support/databases.ts';
import {
  authorizeThroughForms,
  authorizeUrl,
  formPost,
  pkce,
  type RegisteredClient,
  registerClient,
  tokenRequest,
} from '../support/oauth.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { completeSetup, OWNER, WebClient } from '../support/web-client.ts';

const REDIRECT = 'http://127.0.0.1:47001/callback';

for (const engine of engines) {
  describe(`token, refresh, introspection, revocation and userinfo (${engine})`, () => {
    let server: TestServer;
    let client: RegisteredClient;
    let confidential: RegisteredClient;
    let other: RegisteredClient;
    // The server's clock, moved by hand past OAUTH_REUSE_GRACE_SECONDS (1 s here): a second presentation is then a
    // replay, not a retry.
    let skew = 0;
    const clock = { now: () => new Date(Date.now() + skew) };
    const afterGrace = () => {
      skew += 1100;
    };

    before(async () => {
      server = await startTestServer(
        engine,
        { OAUTH_ACCESS_TOKEN_TTL_SECONDS: '900', OAUTH_REUSE_GRACE_SECONDS: '1' },
        { clock },
      );
      await completeSetup(server.url, server.setupUrl ?? '');
      client = await registerClient(server.url, 47001);
      other = await registerClient(server.url, 47001, { client_name: 'Someone else' });
      confidential = await registerClient(server.url, 47001, {
        client_name: 'Desktop',
        token_endpoint_auth_method: 'client_secret_post',
      });
    });
    after(() => server.close());

    async function authorize(opts: { scope?: string; resource?: string; client?: RegisteredClient } = {}) {
      const c = opts.client ?? client;
      const { verifier, challenge } = pkce();
      const url = authorizeUrl(server.url, {
        response_type: 'code',
        client_id: c.client_id,
        redirect_uri: REDIRECT,
        scope: opts.scope ?? 'openid profile email courses:read courses:write',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 's',
        resource: opts.resource,
      });
      const result = await authorizeThroughForms(new WebClient(server.url), url, OWNER);
      const code = result.location.searchParams.get('code');
      assert.ok(code, `authorized: ${result.location}`);
      /** The code exchange as the client would post it (without its secret: tests add it when they mean to). */
      const form = {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: c.client_id,
        code_verifier: verifier,
      };
      return { form, client: c };
    }

    async function tokens(opts: Parameters<typeof authorize>[0] = {}) {
      const { form, client: c } = await authorize(opts);
      const response = await tokenRequest(server.url, { ...form, client_secret: c.client_secret });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      return response.body as unknown as {
        access_token: string;
        refresh_token: string;
        id_token?: string;
        scope: string;
        expires_in: number;
      };
    }

    const introspect = (token: string, c: RegisteredClient = client) =>
      formPost(server.url, '/api/oauth/introspect', { token, client_id: c.client_id, client_secret: c.client_secret });
    const revoke = (token: string, c: RegisteredClient = client) =>
      formPost(server.url, '/api/oauth/revoke', { token, client_id: c.client_id, client_secret: c.client_secret });
    const userinfo = (token?: string, header = token ? `Bearer ${token}` : undefined) =>
      fetch(`${server.url}/api/oauth/userinfo`, { headers: header ? { authorization: header } : {} });
    const refresh = (refreshToken: string, extra: Record<string, string> = {}) =>
      tokenRequest(server.url, {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: client.client_id,
        ...extra,
      });

    test('the code exchange answers the documented fields, no-store, and an id_token with openid', async () => {
      const { form } = await authorize();
      const response = await tokenRequest(server.url, form);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.equal(response.body.token_type, 'Bearer');
      assert.equal(response.body.expires_in, 900);
      assert.match(response.body.access_token, /^[\w-]{40,}$/);
      assert.match(response.body.refresh_token, /^[\w-]{40,}$/);
      assert.match(response.body.id_token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
      assert.deepEqual(String(response.body.scope).split(' ').sort(), [
        'courses:read',
        'courses:write',
        'email',
        'openid',
        'profile',
      ]);
    });

    test('without openid there is no id_token, and userinfo refuses the token with 403', async () => {
      const t = await tokens({ scope: 'courses:read' });
      assert.equal(t.id_token, undefined);
      assert.equal(t.scope, 'courses:read');
      const response = await userinfo(t.access_token);
      assert.equal(response.status, 403);
      assert.match(
        response.headers.get('www-authenticate') ?? '',
        /^Bearer error="insufficient_scope", .*scope="openid", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource"$/,
      );
    });

    test('userinfo answers sub, name with profile, email with email', async () => {
      const full = await tokens();
      const body = (await (await userinfo(full.access_token)).json()) as Record<string, unknown>;
      assert.match(String(body.sub), /^usr_/);
      assert.equal(body.name, OWNER.name);
      assert.equal(body.email, OWNER.email);
      assert.equal(body.email_verified, false);
      const narrow = await tokens({ scope: 'openid' });
      assert.deepEqual(Object.keys((await (await userinfo(narrow.access_token)).json()) as object), ['sub']);
    });

    test('userinfo: no token is 403 (anonymous is never challenged with 401), a bad token 401', async () => {
      const anonymous = await userinfo();
      assert.equal(anonymous.status, 403);
      assert.equal(((await anonymous.json()) as { error: string }).error, 'insufficient_scope');
      const invalid = await userinfo('not-a-real-token-at-all-xxxxxxxx');
      assert.equal(invalid.status, 401);
      assert.match(invalid.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
      const malformed = await userinfo(undefined, 'Basic abc');
      assert.equal(malformed.status, 401);
    });

    test('a wrong code_verifier is invalid_grant', async () => {
      const { form } = await authorize();
      const response = await tokenRequest(server.url, { ...form, code_verifier: pkce().verifier });
      assert.equal(response.status, 400);
      assert.equal(response.body.error, 'invalid_grant');
    });

    test('a redirect_uri that differs from the authorization request is invalid_grant', async () => {
      const { form } = await authorize();
      const response = await tokenRequest(server.url, { ...form, redirect_uri: 'http://127.0.0.1:47002/callback' });
      assert.equal(response.status, 400);
      assert.equal(response.body.error, 'invalid_grant');
    });

    test('a code is single-use: the replay fails and revokes what the first use issued', async () => {
      const { form } = await authorize();
      const first = await tokenRequest(server.url, form);
      assert.equal(first.status, 200);
      assert.equal((await userinfo(first.body.access_token)).status, 200);
      const retry = await tokenRequest(server.url, form);
      assert.equal(retry.body.error, 'invalid_grant', 'a second use within the grace period fails...');
      assert.equal((await userinfo(first.body.access_token)).status, 200, '...without revoking anything');
      afterGrace();
      const replay = await tokenRequest(server.url, form);
      assert.equal(replay.status, 400);
      assert.equal(replay.body.error, 'invalid_grant');
      assert.equal((await introspect(first.body.access_token)).body.active, false);
      assert.equal((await userinfo(first.body.access_token)).status, 401);
      assert.equal((await refresh(first.body.refresh_token)).body.error, 'invalid_grant');
    });

    test('two concurrent exchanges of one code: exactly one wins', async () => {
      const { form } = await authorize();
      const results = await Promise.all([
        tokenRequest(server.url, form),
        tokenRequest(server.url, form),
        tokenRequest(server.url, form),
      ]);
      assert.deepEqual(results.map((r) => r.status).sort(), [200, 400, 400]);
      for (const loser of results.filter((r) => r.status === 400)) assert.equal(loser.body.error, 'invalid_grant');
      const winner = results.find((r) => r.status === 200)?.body;
      assert.equal((await userinfo(winner?.access_token)).status, 200, "the winner's tokens work");
      assert.equal((await refresh(String(winner?.refresh_token))).status, 200);
    });

    test('refresh tokens rotate; presenting a used one revokes the whole grant', async () => {
      const t = await tokens();
      const rotated = await refresh(t.refresh_token);
      assert.equal(rotated.status, 200);
      assert.notEqual(rotated.body.refresh_token, t.refresh_token);
      assert.notEqual(rotated.body.access_token, t.access_token);
      assert.equal((await userinfo(rotated.body.access_token)).status, 200);
      afterGrace();
      const reuse = await refresh(t.refresh_token);
      assert.equal(reuse.status, 400);
      assert.equal(reuse.body.error, 'invalid_grant');
      assert.equal(
        (await refresh(rotated.body.refresh_token)).body.error,
        'invalid_grant',
        'the newer refresh token died too',
      );
      assert.equal((await userinfo(rotated.body.access_token)).status, 401, 'and its access token');
    });

    test('two concurrent refreshes of one token: exactly one wins', async () => {
      const t = await tokens();
      const results = await Promise.all([refresh(t.refresh_token), refresh(t.refresh_token), refresh(t.refresh_token)]);
      assert.deepEqual(results.map((r) => r.status).sort(), [200, 400, 400]);
      for (const loser of results.filter((r) => r.status === 400)) assert.equal(loser.body.error, 'invalid_grant');
      const winner = results.find((r) => r.status === 200)?.body;
      assert.equal((await userinfo(winner?.access_token)).status, 200, "the winner's tokens work");
      const next = await refresh(String(winner?.refresh_token));
      assert.equal(next.status, 200);
      // A later replay of the original token is a replay, not a race: the whole grant goes.
      afterGrace();
      assert.equal((await refresh(t.refresh_token)).body.error, 'invalid_grant');
      assert.equal((await userinfo(next.body.access_token)).status, 401);
    });

    test('refresh may narrow the scope but not widen it', async () => {
      const t = await tokens({ scope: 'openid courses:read courses:write' });
      const narrowed = await refresh(t.refresh_token, { scope: 'openid courses:read' });
      assert.equal(narrowed.status, 200);
      assert.equal(narrowed.body.scope, 'openid courses:read');
      const wider = await refresh(narrowed.body.refresh_token, { scope: 'openid courses:read posts:write' });
      assert.equal(wider.status, 400);
      assert.equal(wider.body.error, 'invalid_scope');
    });

    test('resource binds the audience: the API by default, /mcp on request, anything else invalid_target', async () => {
      const api = await tokens();
      const apiIntrospection = await introspect(api.access_token);
      assert.equal(apiIntrospection.body.aud, server.config.BASE_URL);
      const mcp = await tokens({ resource: `${server.config.BASE_URL}/mcp` });
      assert.equal((await introspect(mcp.access_token)).body.aud, `${server.config.BASE_URL}/mcp`);
      const refreshedForApi = await refresh(mcp.refresh_token, { resource: `${server.config.BASE_URL}/mcp` });
      assert.equal(refreshedForApi.status, 200);
      const unknown = await refresh(refreshedForApi.body.refresh_token, { resource: 'https://elsewhere.example/' });
      assert.equal(unknown.status, 400);
      assert.equal(unknown.body.error, 'invalid_target');
    });

    test('introspection: the owning client sees the fields; any other client sees inactive', async () => {
      const t = await tokens();
      const mine = await introspect(t.access_token);
      assert.equal(mine.status, 200);
      const body = mine.body;
      assert.equal(body.active, true);
      assert.equal(body.client_id, client.client_id);
      assert.match(String(body.sub), /^usr_/);
      assert.equal(body.aud, server.config.BASE_URL);
      assert.equal(body.token_type, 'Bearer');
      assert.deepEqual(String(body.scope).split(' ').sort(), [
        'courses:read',
        'courses:write',
        'email',
        'openid',
        'profile',
      ]);
      assert.equal(typeof body.exp, 'number');
      assert.equal(typeof body.iat, 'number');
      assert.deepEqual((await introspect(t.access_token, other)).body, { active: false });
      assert.deepEqual((await introspect('no-such-token-xxxxxxxxxxxxxxxxxxxxxxx')).body, { active: false });
      const refreshIntrospection = await introspect(t.refresh_token);
      assert.equal(refreshIntrospection.body.active, true);
      assert.equal(refreshIntrospection.body.client_id, client.client_id);
    });

    test("introspection of an access token is answered from the validated-token cache, field for field the provider's", async () => {
      // An extra form field (which the provider ignores) sends the request to oidc-provider itself.
      const byProvider = (token: string, c: RegisteredClient) =>
        formPost(server.url, '/api/oauth/introspect', {
          token,
          client_id: c.client_id,
          client_secret: c.client_secret,
          ignored: 'x',
        });
      for (const c of [client, confidential]) {
        const t = await tokens({ client: c });
        const fast = await introspect(t.access_token, c);
        const slow = await byProvider(t.access_token, c);
        assert.equal(fast.status, 200);
        assert.equal(fast.headers.get('cache-control'), 'no-store');
        assert.deepEqual(fast.body, slow.body);
        assert.equal(fast.body.active, true);
        assert.deepEqual((await introspect(t.access_token, other)).body, { active: false });
        assert.deepEqual((await byProvider(t.access_token, other)).body, { active: false });
      }
      const mcp = await tokens({ resource: `${server.config.BASE_URL}/mcp` });
      assert.deepEqual((await introspect(mcp.access_token)).body, (await byProvider(mcp.access_token, client)).body);

      // A confidential client with a wrong or missing secret is refused by the provider's own client authentication.
      const t = await tokens({ client: confidential });
      for (const secret of ['wrong', undefined]) {
        const refused = await formPost(server.url, '/api/oauth/introspect', {
          token: t.access_token,
          client_id: confidential.client_id,
          client_secret: secret,
        });
        assert.equal(refused.status, 401);
        assert.equal(refused.body.error, 'invalid_client');
      }
      // A public client that sends a secret is not authenticated as `none`.
      const withSecret = await formPost(server.url, '/api/oauth/introspect', {
        token: t.access_token,
        client_id: client.client_id,
        client_secret: 'anything',
      });
      assert.equal(withSecret.status, 401);
      // Credentials outside the form are the provider's to judge: Basic beside a public client's form is refused.
      const withBasic = await formPost(
        server.url,
        '/api/oauth/introspect',
        { token: t.access_token, client_id: client.client_id },
        { authorization: `Basic ${Buffer.from(`${client.client_id}:x`).toString('base64')}` },
      );
      assert.equal(withBasic.status >= 400, true, JSON.stringify(withBasic.body));
      // A body over oidc-provider's limit gets a 413 in the error shape, not a reset connection.
      const huge = await formPost(server.url, '/api/oauth/introspect', {
        token: 'x'.repeat(60 * 1024),
        client_id: client.client_id,
      });
      assert.equal(huge.status, 413);
      assert.equal(huge.body.error, 'payload_too_large');
      // Revoked on this instance: inactive at once, though the token was cached a moment ago.
      assert.equal((await introspect(t.access_token, confidential)).body.active, true);
      assert.equal((await revoke(t.access_token, confidential)).status, 200);
      assert.deepEqual((await introspect(t.access_token, confidential)).body, { active: false });
    });

    test('revocation: an access token; a refresh token ends its grant; unknown tokens answer 200', async () => {
      const a = await tokens();
      assert.equal((await revoke(a.access_token)).status, 200);
      assert.equal((await userinfo(a.access_token)).status, 401);
      assert.equal((await introspect(a.access_token)).body.active, false);

      const b = await tokens();
      assert.equal((await revoke(b.refresh_token)).status, 200);
      assert.equal((await userinfo(b.access_token)).status, 401, "the grant's access token ended with it");
      assert.equal((await refresh(b.refresh_token)).body.error, 'invalid_grant');

      assert.equal((await revoke('never-issued-token-xxxxxxxxxxxxxxxxx')).status, 200);

      const c = await tokens();
      await revoke(c.access_token, other);
      assert.equal((await userinfo(c.access_token)).status, 200, 'another client cannot revoke it');
    });

    test('a confidential client authenticates with client_secret_post', async () => {
      const { form } = await authorize({ client: confidential });
      const missing = await tokenRequest(server.url, form);
      assert.equal(missing.status, 401);
      assert.equal(missing.body.error, 'invalid_client');
      const wrong = await tokenRequest(server.url, { ...form, client_secret: 'wrong' });
      assert.equal(wrong.status, 401);
      assert.equal(wrong.body.error, 'invalid_client');
      const right = await tokenRequest(server.url, { ...form, client_secret: confidential.client_secret });
      assert.equal(right.status, 200);
      const revokeWithoutSecret = await formPost(server.url, '/api/oauth/revoke', {
        token: right.body.access_token,
        client_id: confidential.client_id,
      });
      assert.equal(revokeWithoutSecret.status, 401);
      assert.equal((await revoke(right.body.access_token, confidential)).status, 200);
    });

    test('unknown clients and unsupported grants are refused', async () => {
      const unknown = await tokenRequest(server.url, {
        grant_type: 'authorization_code',
        code: 'x',
        redirect_uri: REDIRECT,
        client_id: 'cli_nobody',
        code_verifier: pkce().verifier,
      });
      assert.equal(unknown.status, 401);
      assert.equal(unknown.body.error, 'invalid_client');
      const grant = await tokenRequest(server.url, { grant_type: 'client_credentials', client_id: client.client_id });
      assert.equal(grant.status, 400);
      assert.equal(grant.body.error, 'unsupported_grant_type');
      const password = await tokenRequest(server.url, {
        grant_type: 'password',
        username: 'a',
        password: 'b',
        client_id: client.client_id,
      });
      assert.equal(password.body.error, 'unsupported_grant_type');
    });

    test('tokens are stored only as hashes', async () => {
      const t = await tokens();
      const rows = await server.database.db.selectFrom('oauth_models').select(['id', 'payload']).execute();
      const dump = JSON.stringify(rows);
      assert.ok(!dump.includes(t.access_token));
      assert.ok(!dump.includes(t.refresh_token));
    });

    test('no token, code or secret reaches the logs', async () => {
      const t = await tokens();
      await userinfo(t.access_token);
      const joined = server.logs.join('\n');
      assert.ok(!joined.includes(t.access_token));
      assert.ok(!joined.includes(t.refresh_token));
      assert.ok(!joined.includes(String(confidential.client_secret)));
    });
  });
}
