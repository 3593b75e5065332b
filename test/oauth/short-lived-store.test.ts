import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import {
  memoryShortLivedStore,
  redisShortLivedStore,
  type ShortLivedStore,
} from '../../src/oauth/short-lived-store.ts';
import { engines } from '../support/databases.ts';
import { authorizeThroughForms, authorizeUrl, pkce, registerClient, tokenRequest } from '../support/oauth.ts';
import { freePort, startTestServer } from '../support/server.ts';
import { completeSetup, OWNER, WebClient } from '../support/web-client.ts';

const redisUrl = process.env.TEST_REDIS_URL;

const kinds: [string, () => ShortLivedStore][] = [
  ['memory', () => memoryShortLivedStore({ now: Date.now })],
  ...(redisUrl
    ? [
        ['redis', () => redisShortLivedStore(redisUrl, `lyceum-test-${randomUUID()}:oidc:`)] as [
          string,
          () => ShortLivedStore,
        ],
      ]
    : []),
];

for (const [kind, make] of kinds) {
  describe(`the short-lived store (${kind})`, () => {
    test('keeps, finds by id and by uid, and deletes', async (t) => {
      const store = make();
      t.after(() => store.close());
      await store.set('Session', 'h1', { uid: 'u1', accountId: 'usr_1' }, 60);
      assert.deepEqual((await store.get('Session', 'h1'))?.payload, { uid: 'u1', accountId: 'usr_1' });
      assert.deepEqual(await store.getByUid('Session', 'u1'), { uid: 'u1', accountId: 'usr_1' });
      assert.equal(await store.get('Interaction', 'h1'), undefined, 'models are apart');
      await store.delete('Session', 'h1');
      assert.equal(await store.get('Session', 'h1'), undefined);
      assert.equal(await store.getByUid('Session', 'u1'), undefined);
    });

    test('of many concurrent consumers of one code exactly one wins, and the record says when', async (t) => {
      const store = make();
      t.after(() => store.close());
      await store.set('AuthorizationCode', 'c1', { grantId: 'g1' }, 60);
      const wins = await Promise.all(Array.from({ length: 10 }, () => store.consume('AuthorizationCode', 'c1', 1234)));
      assert.equal(wins.filter(Boolean).length, 1);
      assert.equal((await store.get('AuthorizationCode', 'c1'))?.consumedAt, 1234);
      assert.equal(await store.consume('AuthorizationCode', 'missing', 1), false);
    });

    test("revoking a grant removes that model's records of the grant, and nothing else", async (t) => {
      const store = make();
      t.after(() => store.close());
      await store.set('AuthorizationCode', 'c1', { grantId: 'g1' }, 60);
      await store.set('AuthorizationCode', 'c2', { grantId: 'g2' }, 60);
      await store.set('Interaction', 'i1', { grantId: 'g1' }, 60);
      await store.deleteByGrant('AuthorizationCode', 'g1');
      assert.equal(await store.get('AuthorizationCode', 'c1'), undefined);
      assert.ok(await store.get('AuthorizationCode', 'c2'));
      assert.ok(await store.get('Interaction', 'i1'));
    });
  });
}

describe('the short-lived store in memory', () => {
  test('records expire on the injected clock, and the store never holds more than its bound', async () => {
    let now = 1_000_000;
    const store = memoryShortLivedStore({ now: () => now, maxEntries: 3 });
    try {
      await store.set('Interaction', 'a', { uid: 'ua' }, 10);
      now += 9_999;
      assert.ok(await store.get('Interaction', 'a'));
      now += 1;
      assert.equal(await store.get('Interaction', 'a'), undefined);
      assert.equal(await store.getByUid('Interaction', 'ua'), undefined);
      await store.set('AuthorizationCode', 'code', {}, 60);
      for (const id of ['b', 'c', 'd']) await store.set('Interaction', id, {}, 60);
      assert.ok(await store.get('AuthorizationCode', 'code'), 'a code is never evicted');
      assert.equal(await store.get('Interaction', 'b'), undefined, 'the oldest interaction went first');
      for (const id of ['c', 'd']) assert.ok(await store.get('Interaction', id));
      // A full store first drops what has expired: here the newest record, not the oldest.
      await store.set('Session', 's1', {}, 1); // evicts c
      now += 1_000;
      await store.set('Session', 's2', {}, 60);
      assert.ok(await store.get('Interaction', 'd'), 'the expired session made room, not the oldest interaction');
      assert.ok(await store.get('Session', 's2'));
    } finally {
      await store.close();
    }
  });

  test('the store is bounded by bytes too: large records push the oldest out long before the count is reached', async () => {
    const store = memoryShortLivedStore({ now: () => 1_000_000, maxBytes: 100_000 });
    try {
      const large = { params: { state: 'x'.repeat(9_000) } };
      await store.set('AuthorizationCode', 'code', large, 60);
      for (let i = 0; i < 30; i++) await store.set('Interaction', `i${i}`, large, 60);
      let kept = 0;
      for (let i = 0; i < 30; i++) if (await store.get('Interaction', `i${i}`)) kept++;
      assert.ok(kept <= 10, `${kept} records of 9 KB kept under a 100 KB bound`);
      assert.ok(await store.get('Interaction', 'i29'), 'the newest is kept');
      assert.equal(await store.get('Interaction', 'i0'), undefined, 'the oldest went first');
      assert.ok(await store.get('AuthorizationCode', 'code'), 'a code is never evicted');
    } finally {
      await store.close();
    }
  });

  test('a full store makes room in bulk: the oldest tenth goes at once, so the next writes need no eviction', async () => {
    const store = memoryShortLivedStore({ now: () => 1_000_000, maxEntries: 100 });
    try {
      for (let i = 0; i < 101; i++) await store.set('Interaction', `i${i}`, {}, 60);
      for (let i = 0; i < 10; i++) assert.equal(await store.get('Interaction', `i${i}`), undefined, `i${i} evicted`);
      for (let i = 10; i < 101; i++) assert.ok(await store.get('Interaction', `i${i}`), `i${i} kept`);
    } finally {
      await store.close();
    }
  });
});

for (const engine of engines) {
  describe(`codes are single-use across instances sharing Redis (${engine})`, { skip: !redisUrl }, () => {
    test('a code issued by one instance is exchanged on another, once; a concurrent second exchange loses', async () => {
      const port = await freePort();
      const env = {
        REDIS_URL: redisUrl ?? '',
        REDIS_PREFIX: `lyceum-test-${randomUUID()}:`,
        BASE_URL: `http://127.0.0.1:${port}`,
      };
      const a = await startTestServer(engine, { ...env, PORT: String(port) });
      const b = await startTestServer(engine, env, { databaseUrl: a.databaseUrl });
      try {
        await completeSetup(a.url, a.setupUrl ?? '');
        const client = await registerClient(a.url, 47021);
        const redirect = 'http://127.0.0.1:47021/callback';
        const code = async () => {
          const { verifier, challenge } = pkce();
          const url = authorizeUrl(a.url, {
            response_type: 'code',
            client_id: client.client_id,
            redirect_uri: redirect,
            scope: 'openid courses:read',
            code_challenge: challenge,
            code_challenge_method: 'S256',
          });
          const { location } = await authorizeThroughForms(new WebClient(a.url), url, OWNER);
          const form = {
            grant_type: 'authorization_code',
            code: location.searchParams.get('code') ?? '',
            redirect_uri: redirect,
            client_id: client.client_id,
            code_verifier: verifier,
          };
          return form;
        };
        const first = await code();
        const onB = await tokenRequest(b.url, first);
        assert.equal(onB.status, 200, JSON.stringify(onB.body));
        assert.equal((await tokenRequest(a.url, first)).body.error, 'invalid_grant', 'used up, on either instance');

        const second = await code();
        const both = await Promise.all([tokenRequest(a.url, second), tokenRequest(b.url, second)]);
        assert.deepEqual(both.map((r) => r.status).sort(), [200, 400]);
      } finally {
        await b.close();
        await a.close();
      }
    });
  });
}
