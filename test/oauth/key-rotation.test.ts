import assert from 'node:assert/strict';
import { createPublicKey, type JsonWebKey, verify } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { connectDatabase } from '../../src/db/connect.ts';
import { JWKS_MAX_AGE_SECONDS, KEY_TIMES, rotateSigningKeys } from '../../src/oauth/keys.ts';
import { engines } from '../support/databases.ts';
import { authorizeThroughForms, authorizeUrl, pkce, registerClient, tokenRequest } from '../support/oauth.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { completeSetup, OWNER, WebClient } from '../support/web-client.ts';

const REDIRECT = 'http://127.0.0.1:47011/callback';

type KeySet = { keys: (JsonWebKey & { kid: string })[] };

/**
 * A strict relying party: it fetches the key set only when its copy is older than the Cache-Control max-age, and
 * verifies an ID token's RS256 signature with the key of its `kid` from that copy, never fetching again for a kid it
 * does not know.
 */
function strictClient(now: () => number) {
  let copy: { set: KeySet; until: number } | undefined;
  return {
    async keys(base: string): Promise<KeySet> {
      if (copy && copy.until > now()) return copy.set;
      const answer = await fetch(`${base}/api/oauth/jwks`);
      const maxAge = Number(/max-age=(\d+)/.exec(answer.headers.get('cache-control') ?? '')?.[1] ?? 0);
      copy = { set: (await answer.json()) as KeySet, until: now() + maxAge * 1000 };
      return copy.set;
    },
    async verifies(base: string, idToken: string): Promise<boolean> {
      const [head = '', body = '', signature = ''] = idToken.split('.');
      const { kid } = JSON.parse(Buffer.from(head, 'base64url').toString()) as { kid: string };
      const key = (await this.keys(base)).keys.find((k) => k.kid === kid);
      if (!key) return false;
      return verify(
        'RSA-SHA256',
        Buffer.from(`${head}.${body}`),
        createPublicKey({ key, format: 'jwk' }),
        Buffer.from(signature, 'base64url'),
      );
    },
  };
}

const kidOf = (idToken: string) =>
  (JSON.parse(Buffer.from(idToken.split('.')[0] ?? '', 'base64url').toString()) as { kid: string }).kid;

/** An ID token from `server` for the owner, through the real forms. */
const idToken = async (server: TestServer) => {
  const client = await registerClient(server.url, 47011);
  const { verifier, challenge } = pkce();
  const url = authorizeUrl(server.url, {
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    scope: 'openid',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 's',
  });
  const { location } = await authorizeThroughForms(new WebClient(server.url), url, OWNER);
  const answer = await tokenRequest(server.url, {
    grant_type: 'authorization_code',
    code: location.searchParams.get('code') ?? '',
    redirect_uri: REDIRECT,
    client_id: client.client_id,
    code_verifier: verifier,
  });
  return String(answer.body.id_token);
};

for (const engine of engines) {
  describe(`ID-token signing key rotation (${engine})`, () => {
    const servers: TestServer[] = [];
    after(async () => {
      for (const server of servers) await server.close();
    });

    test('a new key is published before it signs, the old one stays until its tokens are gone; a caching client never fails', async () => {
      // The servers' clock stands still but for the steps taken below, so the client's cached copy ages only by them.
      const base = Date.now();
      let skew = 0;
      const clock = { now: () => new Date(base + skew) };
      // Rotation steps are taken by hand here; the instance's own steps are the next test's.
      const first = await startTestServer(engine, { SIGNING_KEY_ROTATE_DAYS: '0' }, { clock });
      servers.push(first);
      await completeSetup(first.url, first.setupUrl ?? '');
      const database = connectDatabase(loadConfig({ DATABASE_URL: first.databaseUrl }).database);
      after(() => database.close());

      const party = strictClient(() => clock.now().getTime());

      const before = await idToken(first);
      assert.equal(await party.verifies(first.url, before), true);
      const oldKid = kidOf(before);
      const jwks = await fetch(`${first.url}/api/oauth/jwks`);
      assert.equal(jwks.headers.get('cache-control'), `public, max-age=${JWKS_MAX_AGE_SECONDS}`);
      assert.ok(KEY_TIMES.publishAheadMs > (JWKS_MAX_AGE_SECONDS + 60) * 1000, 'published longer than it is cached');

      // Step one: a new key is published, on the running instance too (within its minute of cache), and does not sign.
      const published = await rotateSigningKeys(database.db, clock, { now: true });
      assert.equal(published.did, 'published');
      const newKid = published.did === 'published' ? published.kid : '';
      assert.equal((await rotateSigningKeys(database.db, clock)).did, 'waiting', 'not before its time');
      skew += 61_000;
      const seen = (await (await fetch(`${first.url}/api/oauth/jwks`)).json()) as KeySet;
      assert.deepEqual(seen.keys.map((k) => k.kid).sort(), [oldKid, newKid].sort());
      assert.ok(
        seen.keys.every((k) => !('d' in k) && !('p' in k)),
        'only public halves are published',
      );
      assert.equal(kidOf(await idToken(first)), oldKid, 'the old key still signs');

      // The client's copy is as old as it may be when the new key starts signing: fetched max-age before that.
      skew = KEY_TIMES.publishAheadMs - JWKS_MAX_AGE_SECONDS * 1000 + 5_000;
      await party.keys(first.url);
      skew = KEY_TIMES.publishAheadMs + 1_000;
      const promoted = await rotateSigningKeys(database.db, clock);
      assert.deepEqual(promoted, { did: 'promoted', kid: newKid, retired: oldKid });

      // The running instance signs with it once it looks (every minute), without a restart; the strict client
      // verifies it from its cached copy.
      assert.equal(kidOf(await idToken(first)), oldKid, 'until it looks');
      assert.equal(await first.services.signingKeys.look(), true);
      assert.equal(kidOf(await idToken(first)), newKid);
      const signedNew = await idToken(first);
      assert.equal(kidOf(signedNew), newKid);
      assert.equal(await party.verifies(first.url, signedNew), true, 'no failure for a client that caches the key set');
      assert.equal(await party.verifies(first.url, before), true, 'tokens of the old key still verify');

      // A day later the retired key goes.
      skew += KEY_TIMES.keepRetiredMs + 1_000;
      assert.equal((await rotateSigningKeys(database.db, clock)).did, 'nothing');
      skew += 61_000;
      const later = (await (await fetch(`${first.url}/api/oauth/jwks`)).json()) as KeySet;
      assert.deepEqual(
        later.keys.map((k) => k.kid),
        [newKid],
      );
    });

    test('the instances rotate by themselves when a key has signed for SIGNING_KEY_ROTATE_DAYS, and move onto the new key', async () => {
      const base = Date.now();
      let skew = 0;
      const clock = { now: () => new Date(base + skew) };
      const server = await startTestServer(engine, { SIGNING_KEY_ROTATE_DAYS: '30' }, { clock });
      servers.push(server);
      await completeSetup(server.url, server.setupUrl ?? '');
      const keeper = server.services.signingKeys;
      const oldKid = kidOf(await idToken(server));

      assert.equal(await keeper.look(), false, 'nothing is due before 30 days');
      skew = 30 * 86_400_000 + 1_000;
      assert.equal(await keeper.look(), true, 'a new key is published');
      assert.equal(kidOf(await idToken(server)), oldKid, 'which does not sign yet');
      skew += 60_000;
      const published = (await (await fetch(`${server.url}/api/oauth/jwks`)).json()) as KeySet;
      assert.equal(published.keys.length, 2);
      const newKid = published.keys.map((k) => k.kid).find((kid) => kid !== oldKid) ?? '';

      skew += KEY_TIMES.publishAheadMs;
      assert.equal(await keeper.look(), true, 'promoted and taken on');
      assert.equal(kidOf(await idToken(server)), newKid);
      assert.ok(server.logs.some((l) => l.includes('signing with the current key') && l.includes(newKid)));
    });
  });
}
