import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { engines } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/** The scopes table of the interface spec (shared/spec/service-interface.md), as it reads there. */
const SPEC_SCOPES = [
  'openid',
  'profile',
  'email',
  'courses:read',
  'courses:write',
  'students:read',
  'students:write',
  'members:read',
  'members:write',
  'analytics:read',
  'curriculum:read',
  'curriculum:write',
  'orders:read',
  'school:read',
  'school:write',
  'appearance:read',
  'appearance:write',
  'events:read',
  'events:write',
  'membership_plans:read',
  'membership_plans:write',
  'coupons:read',
  'coupons:write',
  'posts:read',
  'posts:write',
  'subscriptions:read',
  'subscriptions:write',
  'digital_products:read',
  'digital_products:write',
  'comments:read',
  'lecturers:read',
  'lecturers:write',
  'storage:write',
  'forms:read',
  'pages:read',
  'pages:write',
  'account:read',
  'account:write',
];

const specPath = new URL('../../../shared/spec/service-interface.md', import.meta.url);

test('the scope list above is the spec table (when the spec is beside the repository)', {
  skip: !existsSync(specPath) && 'spec not present',
}, () => {
  const spec = readFileSync(specPath, 'utf8');
  const table = spec.slice(spec.indexOf('### Scopes (exact identifiers)'), spec.indexOf('## States and transitions'));
  const fromSpec = [...table.matchAll(/^\| ([a-z_:, ]+) \|/gm)]
    .flatMap((m) => m[1].split(',').map((s) => s.trim()))
    .filter((s) => s !== 'scope');
  assert.deepEqual([...fromSpec].sort(), [...SPEC_SCOPES].sort());
});

for (const engine of engines) {
  describe(`discovery documents (${engine})`, () => {
    let server: TestServer;
    let base: string;
    before(async () => {
      server = await startTestServer(engine);
      base = server.config.BASE_URL;
    });
    after(() => server.close());

    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      test(`${path} lists every endpoint, scope and capability of the spec`, async () => {
        const response = await fetch(`${server.url}${path}`);
        assert.equal(response.status, 200);
        const doc = (await response.json()) as Record<string, unknown>;
        assert.equal(doc.issuer, base);
        assert.equal(doc.authorization_endpoint, `${base}/oauth/authorize`);
        assert.equal(doc.token_endpoint, `${base}/api/oauth/token`);
        assert.equal(doc.registration_endpoint, `${base}/api/oauth/register`);
        assert.equal(doc.revocation_endpoint, `${base}/api/oauth/revoke`);
        assert.equal(doc.introspection_endpoint, `${base}/api/oauth/introspect`);
        assert.equal(doc.userinfo_endpoint, `${base}/api/oauth/userinfo`);
        assert.equal(doc.jwks_uri, `${base}/api/oauth/jwks`);
        assert.deepEqual([...(doc.scopes_supported as string[])].sort(), [...SPEC_SCOPES].sort());
        assert.deepEqual(doc.response_types_supported, ['code']);
        assert.deepEqual(doc.grant_types_supported, ['authorization_code', 'refresh_token']);
        assert.deepEqual(doc.code_challenge_methods_supported, ['S256']);
        assert.deepEqual(doc.token_endpoint_auth_methods_supported, ['none', 'client_secret_post']);
        assert.deepEqual(doc.revocation_endpoint_auth_methods_supported, ['none', 'client_secret_post']);
        assert.deepEqual(doc.introspection_endpoint_auth_methods_supported, ['none', 'client_secret_post']);
        assert.equal(doc.authorization_response_iss_parameter_supported, true);
        assert.equal(doc.client_id_metadata_document_supported, true);
        assert.equal(doc.service_documentation, `${base}/auth.md`);
        const text = JSON.stringify(doc);
        assert.doesNotMatch(
          text,
          /agent_auth|identity_assertion|id-jag|service_auth/i,
          'no agent_auth extension is advertised',
        );
        assert.equal(doc.end_session_endpoint, undefined);
        assert.equal(doc.pushed_authorization_request_endpoint, undefined);
      });
    }

    test('the metadata is asked of the provider once per origin, then served as the same bytes with an ETag', async () => {
      for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
        const first = await fetch(`${server.url}${path}`);
        const second = await fetch(`${server.url}${path}`);
        const etag = second.headers.get('etag') ?? '';
        assert.match(etag, /^"[\w-]{32}"$/);
        assert.equal(first.headers.get('etag'), etag);
        assert.equal(await second.text(), await first.text());
        assert.equal(second.headers.get('access-control-allow-origin'), '*');
        const again = await fetch(`${server.url}${path}`, { headers: { 'if-none-match': etag } });
        assert.equal(again.status, 304);
        const weak = await fetch(`${server.url}${path}`, { headers: { 'if-none-match': `"x", W/${etag}` } });
        assert.equal(weak.status, 304, 'If-None-Match compares weakly and takes a list');
      }
      // The provider writes its endpoints for the Host a request came to: one origin's bytes never answer another.
      const other = await new Promise<string>((resolve, reject) => {
        const request = http.get(`${server.url}/.well-known/oauth-authorization-server`, {
          headers: { host: 'school.invalid' },
        });
        request.on('response', (response) => {
          let body = '';
          response.on('data', (chunk) => {
            body += chunk;
          });
          response.on('end', () => resolve(body));
        });
        request.on('error', reject);
      });
      assert.equal(JSON.parse(other).token_endpoint, 'http://school.invalid/api/oauth/token');
      const ours = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as {
        token_endpoint: string;
      };
      assert.equal(ours.token_endpoint, `${base}/api/oauth/token`);
    });

    for (const [path, resource] of [
      ['/.well-known/oauth-protected-resource', ''],
      ['/.well-known/oauth-protected-resource/mcp', '/mcp'],
    ]) {
      test(`${path} is RFC 9728 metadata for ${resource || 'the API'}`, async () => {
        const doc = (await (await fetch(`${server.url}${path}`)).json()) as Record<string, unknown>;
        assert.equal(doc.resource, `${base}${resource}`);
        assert.deepEqual(doc.authorization_servers, [base]);
        assert.deepEqual([...(doc.scopes_supported as string[])].sort(), [...SPEC_SCOPES].sort());
        assert.deepEqual(doc.bearer_methods_supported, ['header']);
      });
    }

    test('the JWKS publishes the ID-token key without its private parts, the same across restarts', async () => {
      const jwks = (await (await fetch(`${server.url}/api/oauth/jwks`)).json()) as { keys: Record<string, string>[] };
      assert.equal(jwks.keys.length, 1);
      assert.equal(jwks.keys[0]?.kty, 'RSA');
      assert.equal(jwks.keys[0]?.alg, 'RS256');
      for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi']) assert.equal(jwks.keys[0]?.[secret], undefined);
      await server.close();
      server = await startTestServer(engine, {}, { databaseUrl: server.databaseUrl });
      const again = (await (await fetch(`${server.url}/api/oauth/jwks`)).json()) as { keys: Record<string, string>[] };
      assert.equal(again.keys[0]?.kid, jwks.keys[0]?.kid);
    });
  });
}
