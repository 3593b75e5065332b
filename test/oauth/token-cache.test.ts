import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { tokenCache } from '../../src/oauth/token-cache.ts';
import type { TokenPrincipal } from '../../src/security/token-principal.ts';
import { apiClient, schoolWithPeople, tokenFor } from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { startTestServer } from '../support/server.ts';

const principal = (expiresAt: number): TokenPrincipal => ({
  userId: 'usr_x',
  role: 'staff',
  name: 'x',
  emailVerified: false,
  email: 'x@y.z',
  clientId: 'cli_x',
  grantId: 'g',
  audience: 'http://a',
  scopes: new Set(['courses:read']),
  expiresAt,
  issuedAt: expiresAt - 900,
});

describe('token cache bounds', () => {
  test('entries live at most the TTL and never past the token expiry; clear() drops everything', () => {
    let now = 1_000_000;
    const cache = tokenCache({ ttlMs: 5000, now: () => now });
    cache.set('a-token', principal(2_000_000));
    assert.ok(cache.get('a-token'));
    now += 5001;
    assert.equal(cache.get('a-token'), undefined, 'TTL');
    cache.set('b-token', principal((now + 1000) / 1000));
    now += 1001;
    assert.equal(cache.get('b-token'), undefined, 'token expiry');
    cache.set('c-token', principal(2_000_000));
    cache.clear();
    assert.equal(cache.get('c-token'), undefined);
    assert.equal(tokenCache({ ttlMs: 0 }).enabled, false);
  });
});

for (const engine of engines) {
  describe(`revocation and the token cache (${engine})`, () => {
    test('revocation is immediate on the instance that revoked, and bounded by TOKEN_CACHE_SECONDS on another', async () => {
      const a = await startTestServer(engine, { TOKEN_CACHE_SECONDS: '2' });
      // A second instance on the same database and the same origin (as behind a load balancer).
      // B's clock is moved by hand: its cache bound is checked without waiting for it.
      let skew = 0;
      const b = await startTestServer(
        engine,
        { TOKEN_CACHE_SECONDS: '2', BASE_URL: a.config.BASE_URL },
        { databaseUrl: a.databaseUrl, clock: { now: () => new Date(Date.now() + skew) } },
      );
      try {
        const { staff } = await schoolWithPeople(a);
        const token = await tokenFor(a, staff, 'courses:read');
        const onA = apiClient(a.url, token);
        const onB = apiClient(b.url, token);
        assert.equal((await onA.get('/api/v1/courses')).status, 200);
        assert.equal((await onB.get('/api/v1/courses')).status, 200, 'B has now cached it');
        // The user disconnects the app on instance A (as /account/apps does): its grant and tokens go.
        const user = await a.database.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', staff.email)
          .executeTakeFirstOrThrow();
        for (const app of await a.services.connectedApps.list(user.id))
          await a.services.connectedApps.revoke(user.id, app.client_id);
        assert.equal((await onA.get('/api/v1/courses')).status, 401, 'immediately refused on A');
        const soon = (await onB.get('/api/v1/courses')).status;
        assert.ok(soon === 200 || soon === 401, 'B may still serve it from its cache for at most 2 s');
        skew = 2100;
        assert.equal((await onB.get('/api/v1/courses')).status, 401, 'refused on B once its cache entry expired');
      } finally {
        await b.close();
        await a.close();
      }
    });
  });
}
