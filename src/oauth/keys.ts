import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { JWK } from 'oidc-provider';
import type { Db } from '../db/tables.ts';
import { loadOrCreateSecret } from '../security/server-secrets.ts';
import type { Clock } from '../time/clock.ts';

const SECRET = 'oidc_signing_keys';

/**
 * How keys move through a rotation. A new key is published (in the JWKS) for `publishAheadMs` before it signs, longer
 * than the JWKS may be cached (`JWKS_MAX_AGE_SECONDS`, plus an instance's own cache), so a client that caches the key
 * set already holds it when the first token it signed arrives. A key that stopped signing stays published for
 * `keepRetiredMs`, longer than the ID tokens it signed live (an hour) and than instances take to move onto the new
 * key (a minute). A key signs for `rotateEveryMs` (unless SIGNING_KEY_ROTATE_DAYS says otherwise) before the next
 * rotation begins.
 */
export const KEY_TIMES = {
  publishAheadMs: 15 * 60_000,
  keepRetiredMs: 24 * 3_600_000,
  rotateEveryMs: 90 * 24 * 3_600_000,
} as const;

/** How long a client may cache the JWKS (its Cache-Control). */
export const JWKS_MAX_AGE_SECONDS = 300;

type State = 'next' | 'current' | 'retired';
/** A private signing key as kept, with where it is in its rotation (keys kept before rotations existed have none). */
type StoredKey = JWK & { lyceum?: { state: State; since: string } };

const newKey = (state: State, at: Date): StoredKey => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' });
  return {
    ...jwk,
    kid: randomUUID(),
    use: 'sig',
    alg: 'RS256',
    lyceum: { state, since: at.toISOString() },
  } as StoredKey;
};

const stateOf = (key: StoredKey, index: number): State => key.lyceum?.state ?? (index === 0 ? 'current' : 'retired');
const sinceOf = (key: StoredKey) => Date.parse(key.lyceum?.since ?? '1970-01-01T00:00:00Z');
const bare = ({ lyceum: _, ...jwk }: StoredKey): JWK => jwk;
const PUBLIC_MEMBERS = ['kty', 'kid', 'use', 'alg', 'n', 'e'] as const;

async function stored(db: Db, clock: Clock): Promise<{ text: string; keys: StoredKey[] }> {
  const text = await loadOrCreateSecret(db, clock, SECRET, () => JSON.stringify([newKey('current', clock.now())]));
  return { text, keys: JSON.parse(text) as StoredKey[] };
}

/**
 * The ID-token signing keys (RS256, what every OIDC client accepts by default) for the authorization server: the
 * current key first, since oidc-provider signs with the first key of an algorithm, then the others, which it only
 * publishes. Made at the first start and kept in the database; an instance reads them when it starts.
 */
export async function loadSigningKeys(db: Db, clock: Clock): Promise<JWK[]> {
  const { keys } = await stored(db, clock);
  const rank: Record<State, number> = { current: 0, next: 1, retired: 2 };
  return keys
    .map((key, i) => ({ key, state: stateOf(key, i) }))
    .sort((a, b) => rank[a.state] - rank[b.state])
    .map(({ key }) => bare(key));
}

/** The public halves of every key in its rotation, as the JWKS publishes them: read from the database, not memory. */
export async function publishedKeys(db: Db, clock: Clock): Promise<{ keys: Record<string, unknown>[] }> {
  const ordered = await loadSigningKeys(db, clock);
  return {
    keys: ordered.map((key) =>
      Object.fromEntries(PUBLIC_MEMBERS.flatMap((m) => (key[m] === undefined ? [] : [[m, key[m]]]))),
    ),
  };
}

export type Rotation =
  | { did: 'published'; kid: string; signsFrom: string }
  | { did: 'promoted'; kid: string; retired: string }
  | { did: 'waiting'; kid: string; until: string }
  | { did: 'nothing'; nextRotation: string };

/**
 * One step of a key rotation, safe to run on a timer (daily, say) on any one machine: when the current key has signed
 * for `rotateEveryMs` (or `now` is asked), a new key is published; once it has been published for `publishAheadMs`, it
 * becomes the signing key and the old one is retired; retired keys are dropped after `keepRetiredMs`. Every instance
 * signs with the new key within a minute (signing-key-keeper.ts); until then with the retired one, still published.
 * Two runs at once cannot both change the keys (the write is conditional on what was read).
 */
export async function rotateSigningKeys(
  db: Db,
  clock: Clock,
  options: { now?: boolean; everyMs?: number } = {},
): Promise<Rotation> {
  const everyMs = options.everyMs ?? KEY_TIMES.rotateEveryMs;
  const at = clock.now();
  const { text, keys: read } = await stored(db, clock);
  const keys = read
    .map((key, i) => ({ ...key, lyceum: { state: stateOf(key, i), since: new Date(sinceOf(key)).toISOString() } }))
    .filter((key) => key.lyceum.state !== 'retired' || at.getTime() - sinceOf(key) < KEY_TIMES.keepRetiredMs);
  const current = keys.find((k) => k.lyceum.state === 'current');
  const next = keys.find((k) => k.lyceum.state === 'next');
  let result: Rotation;
  if (next) {
    const ready = sinceOf(next) + KEY_TIMES.publishAheadMs;
    if (at.getTime() < ready) {
      result = { did: 'waiting', kid: String(next.kid), until: new Date(ready).toISOString() };
    } else {
      next.lyceum = { state: 'current', since: at.toISOString() };
      if (current) current.lyceum = { state: 'retired', since: at.toISOString() };
      result = { did: 'promoted', kid: String(next.kid), retired: String(current?.kid ?? '') };
    }
  } else if (options.now || !current || at.getTime() - sinceOf(current) >= everyMs) {
    const made = newKey('next', at);
    keys.push(made as (typeof keys)[number]);
    result = {
      did: 'published',
      kid: String(made.kid),
      signsFrom: new Date(at.getTime() + KEY_TIMES.publishAheadMs).toISOString(),
    };
  } else {
    result = { did: 'nothing', nextRotation: new Date(sinceOf(current) + everyMs).toISOString() };
  }
  const written = JSON.stringify(keys);
  if (written !== text) {
    const changed = await db
      .updateTable('server_secrets')
      .set({ value: written })
      .where('name', '=', SECRET)
      .where('value', '=', text)
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1)
      throw new Error('The keys were changed meanwhile by another rotation; run it again.');
  }
  return result;
}

/**
 * The JWKS as served: read from the database at most every `ttlMs` per instance, so a key published by a rotation
 * appears on every instance within that time, whenever the instance started.
 */
export function keySetReader(db: Db, clock: Clock, ttlMs = 60_000) {
  let kept: { until: number; set: Promise<{ keys: Record<string, unknown>[] }> } | undefined;
  return () => {
    const now = clock.now().getTime();
    if (!kept || kept.until <= now) {
      const set = publishedKeys(db, clock);
      kept = { until: now + ttlMs, set };
      // A failed read is not kept: the next request tries again.
      set.catch(() => {
        if (kept?.set === set) kept = undefined;
      });
    }
    return kept.set;
  };
}
