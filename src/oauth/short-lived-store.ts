import type { Redis } from 'ioredis';
import type { AdapterPayload } from 'oidc-provider';
import { connectRedis, redisCall } from '../db/redis.ts';

/**
 * The authorization server's records that live minutes (interactions, authorization codes) or die with a browser
 * (provider sessions — the school's own sign-in is checked on every authorization anyway). They are kept out of SQL:
 * in this process when the school is one process (SQLite), in Redis when REDIS_URL is set, so that any instance can
 * continue a flow another one began. Losing them (a restart without Redis) only makes an in-flight authorization
 * start again. Ids arrive hashed (adapter.ts `storedId`), so neither memory nor Redis holds a usable code or cookie.
 */
export const SHORT_LIVED_MODELS = new Set([
  'Interaction',
  'Session',
  'AuthorizationCode',
  'ReplayDetection',
  'PushedAuthorizationRequest',
]);

export type ShortLivedRecord = { payload: AdapterPayload; consumedAt?: number };

export type ShortLivedStore = {
  set(model: string, id: string, payload: AdapterPayload, ttlSeconds: number): Promise<void>;
  get(model: string, id: string): Promise<ShortLivedRecord | undefined>;
  getByUid(model: string, uid: string): Promise<AdapterPayload | undefined>;
  /** Marks the record used at `at` (ms); true for exactly one caller, across every instance sharing the store. */
  consume(model: string, id: string, at: number): Promise<boolean>;
  delete(model: string, id: string): Promise<void>;
  deleteByGrant(model: string, grantId: string): Promise<void>;
  close(): Promise<void>;
};

type Entry = { payload: AdapterPayload; expiresAt: number; consumedAt?: number; bytes: number };

/**
 * What a record holds in memory, estimated from its JSON text (its strings dominate; a small fixed part stands for
 * the objects and index entries around it). An estimate, but one that grows with what a client sends, which a count
 * of records does not: a bound in records alone would let large records take whatever memory they like.
 */
const recordBytes = (key: string, payload: AdapterPayload) => 256 + key.length + JSON.stringify(payload).length;

/**
 * In this process: expired records are dropped when read and swept every minute (and when the store is full), and at
 * most `maxEntries` records and `maxBytes` (16 MB) of them are kept — the oldest sessions and interactions go first,
 * codes never — so memory stays bounded whatever the traffic.
 */
export function memoryShortLivedStore(options: {
  now: () => number;
  maxEntries?: number;
  maxBytes?: number;
}): ShortLivedStore {
  const max = options.maxEntries ?? 100_000;
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
  let bytes = 0;
  const entries = new Map<string, Entry>();
  const byUid = new Map<string, string>();
  const byGrant = new Map<string, Set<string>>();
  const k = (model: string, id: string) => `${model}\0${id}`;

  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
    const model = key.slice(0, key.indexOf('\0'));
    const id = key.slice(key.indexOf('\0') + 1);
    // The uid may point at a newer record by now.
    if (entry.payload.uid && byUid.get(k(model, entry.payload.uid)) === id) byUid.delete(k(model, entry.payload.uid));
    const grant = entry.payload.grantId && byGrant.get(entry.payload.grantId);
    if (grant) {
      grant.delete(key);
      if (grant.size === 0) byGrant.delete(entry.payload.grantId as string);
    }
  };
  const live = (key: string) => {
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= options.now()) {
      remove(key);
      return undefined;
    }
    return entry;
  };
  let sweptAt = Number.NEGATIVE_INFINITY;
  const sweepExpired = () => {
    const now = options.now();
    sweptAt = now;
    for (const [key, entry] of entries) if (entry.expiresAt <= now) remove(key);
  };
  const sweep = setInterval(sweepExpired, 60_000);
  sweep.unref();
  // A full store makes room in bulk, so the writes after it do not each walk the whole map again: expired records go
  // (at most one sweep a second), then, if still full, the oldest sessions and interactions down to 90 % of the
  // bound. A code (60 s, made only after consent) is never evicted.
  const lowWater = Math.floor(max * 0.9);
  const lowBytes = Math.floor(maxBytes * 0.9);
  const full = () => entries.size >= max || bytes >= maxBytes;
  const makeRoom = () => {
    if (options.now() - sweptAt >= 1000) sweepExpired();
    for (const key of entries.keys()) {
      if (entries.size <= lowWater && bytes <= lowBytes) break;
      if (!key.startsWith('AuthorizationCode\0')) remove(key);
    }
  };

  return {
    async set(model, id, payload, ttlSeconds) {
      const key = k(model, id);
      remove(key);
      const size = recordBytes(key, payload);
      bytes += size;
      if (full()) makeRoom();
      entries.set(key, { payload, expiresAt: options.now() + ttlSeconds * 1000, bytes: size });
      if (payload.uid) byUid.set(k(model, payload.uid), id);
      if (payload.grantId) {
        const grant = byGrant.get(payload.grantId) ?? new Set<string>();
        grant.add(key);
        byGrant.set(payload.grantId, grant);
      }
    },
    async get(model, id) {
      const entry = live(k(model, id));
      return entry && { payload: entry.payload, ...(entry.consumedAt ? { consumedAt: entry.consumedAt } : {}) };
    },
    async getByUid(model, uid) {
      const id = byUid.get(k(model, uid));
      return id === undefined ? undefined : live(k(model, id))?.payload;
    },
    async consume(model, id, at) {
      const entry = live(k(model, id));
      if (!entry || entry.consumedAt) return false;
      entry.consumedAt = at;
      return true;
    },
    async delete(model, id) {
      remove(k(model, id));
    },
    async deleteByGrant(model, grantId) {
      for (const key of [...(byGrant.get(grantId) ?? [])]) if (key.startsWith(`${model}\0`)) remove(key);
    },
    async close() {
      clearInterval(sweep);
    },
  };
}

/**
 * In Redis, shared by every instance: each record is a key with the record's own TTL; consumption is a second key set
 * with NX, so of two instances exchanging one code at once exactly one wins. A uid and a grant index point at ids.
 *
 * While Redis is unreachable there is no fallback: an interaction begun on one instance must be found by whichever
 * instance the browser comes back to, and a code must be spent exactly once across all of them, which a copy in one
 * process cannot promise. Each command then fails at once (db/redis.ts) as an UnavailableError, which the
 * authorization server answers with 503; flows work again as soon as Redis is back.
 */
export function redisShortLivedStore(connection: Redis | string, prefix: string): ShortLivedStore {
  const owned = typeof connection === 'string';
  const redis = typeof connection === 'string' ? connectRedis(connection) : connection;
  const key = (model: string, id: string) => `${prefix}${model}:${id}`;
  const uidKey = (model: string, uid: string) => `${prefix}${model}:uid:${uid}`;
  const grantKey = (grantId: string) => `${prefix}grant:${grantId}`;

  return {
    async set(model, id, payload, ttlSeconds) {
      const ms = Math.max(1, Math.ceil(ttlSeconds * 1000));
      await redisCall(redis, (r) => {
        const batch = r.multi().set(key(model, id), JSON.stringify(payload), 'PX', ms);
        if (payload.uid) batch.set(uidKey(model, payload.uid), id, 'PX', ms);
        if (payload.grantId) {
          // Records that name a grant (codes, interactions) live minutes; the index outlives them all.
          batch.sadd(grantKey(payload.grantId), `${model}:${id}`);
          batch.pexpire(grantKey(payload.grantId), Math.max(ms, 3_600_000));
        }
        return batch.exec();
      });
    },
    async get(model, id) {
      const [payload, consumed] = await redisCall(redis, (r) => r.mget(key(model, id), `${key(model, id)}:consumed`));
      if (!payload) return undefined;
      return { payload: JSON.parse(payload) as AdapterPayload, ...(consumed ? { consumedAt: Number(consumed) } : {}) };
    },
    async getByUid(model, uid) {
      const id = await redisCall(redis, (r) => r.get(uidKey(model, uid)));
      const payload = id ? await redisCall(redis, (r) => r.get(key(model, id))) : null;
      return payload ? (JSON.parse(payload) as AdapterPayload) : undefined;
    },
    async consume(model, id, at) {
      const ttl = await redisCall(redis, (r) => r.pttl(key(model, id)));
      if (ttl <= 0) return false;
      return (await redisCall(redis, (r) => r.set(`${key(model, id)}:consumed`, String(at), 'PX', ttl, 'NX'))) === 'OK';
    },
    async delete(model, id) {
      await redisCall(redis, (r) => r.del(key(model, id), `${key(model, id)}:consumed`));
    },
    async deleteByGrant(model, grantId) {
      const members = (await redisCall(redis, (r) => r.smembers(grantKey(grantId)))).filter((m) =>
        m.startsWith(`${model}:`),
      );
      if (members.length === 0) return;
      await redisCall(redis, (r) => r.del(...members.flatMap((m) => [`${prefix}${m}`, `${prefix}${m}:consumed`])));
      await redisCall(redis, (r) => r.srem(grantKey(grantId), ...members));
    },
    async close() {
      if (owned) await redis.quit().catch(() => redis.disconnect());
    },
  };
}
