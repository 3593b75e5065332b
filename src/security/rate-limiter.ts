import { connectRedis } from '../db/redis.ts';

export type LimitState = { count: number; retryAfterSeconds: number };

/**
 * Fixed-window counters keyed by strings such as `signin:email:a@b.c`. In memory for one instance; in Redis when
 * `REDIS_URL` is set, so every instance sees the same counts.
 */
export type RateLimiter = {
  /** Adds one to the key's counter (opening a window of `windowSeconds` if none) and returns the new state. */
  hit(key: string, windowSeconds: number): Promise<LimitState>;
  /** Reads the key's counter without changing it. */
  peek(key: string): Promise<LimitState>;
  reset(key: string): Promise<void>;
  /** Takes back one hit (never below zero): an attempt that was reserved with `hit` and turned out fine. */
  release(key: string): Promise<void>;
  close(): Promise<void>;
};

export function memoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const live = (key: string) => {
    const entry = windows.get(key);
    if (entry && entry.resetAt <= now()) {
      windows.delete(key);
      return undefined;
    }
    return entry;
  };
  const sweep = setInterval(() => {
    for (const key of windows.keys()) live(key);
  }, 60_000);
  sweep.unref();
  const state = (entry: { count: number; resetAt: number } | undefined): LimitState =>
    entry
      ? { count: entry.count, retryAfterSeconds: Math.max(1, Math.ceil((entry.resetAt - now()) / 1000)) }
      : { count: 0, retryAfterSeconds: 0 };
  return {
    async hit(key, windowSeconds) {
      const entry = live(key) ?? { count: 0, resetAt: now() + windowSeconds * 1000 };
      entry.count += 1;
      windows.set(key, entry);
      return state(entry);
    },
    async peek(key) {
      return state(live(key));
    },
    async reset(key) {
      windows.delete(key);
    },
    async release(key) {
      const entry = live(key);
      if (entry && entry.count > 0) entry.count -= 1;
    },
    async close() {
      clearInterval(sweep);
    },
  };
}

export function redisRateLimiter(url: string, prefix = 'lyceum:rl:'): RateLimiter {
  const redis = connectRedis(url);
  const toState = (count: number | null, ttlMs: number): LimitState => ({
    count: count ?? 0,
    retryAfterSeconds: count ? Math.max(1, Math.ceil(ttlMs / 1000)) : 0,
  });
  return {
    async hit(key, windowSeconds) {
      const result = await redis
        .multi()
        .incr(prefix + key)
        .pexpire(prefix + key, windowSeconds * 1000, 'NX')
        .pttl(prefix + key)
        .exec();
      const count = Number(result?.[0]?.[1] ?? 0);
      const ttl = Number(result?.[2]?.[1] ?? 0);
      return toState(count, ttl);
    },
    async peek(key) {
      const [count, ttl] = await Promise.all([redis.get(prefix + key), redis.pttl(prefix + key)]);
      return toState(count === null ? null : Number(count), ttl);
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
    async release(key) {
      // Decrement only an existing, positive counter, atomically.
      await redis.eval(
        "local v = redis.call('GET', KEYS[1]) if v and tonumber(v) > 0 then return redis.call('DECR', KEYS[1]) end return 0",
        1,
        prefix + key,
      );
    },
    async close() {
      await redis.quit();
    },
  };
}
