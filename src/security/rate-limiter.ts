import type { Redis } from 'ioredis';
import { connectRedis, redisCall } from '../db/redis.ts';

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

/** Counters in Redis, on `redis` (a connection the caller owns) or a connection of its own to the URL. */
export function redisRateLimiter(redis: Redis | string, prefix = 'lyceum:rl:'): RateLimiter {
  const owned = typeof redis === 'string';
  const connection = typeof redis === 'string' ? connectRedis(redis) : redis;
  const toState = (count: number | null, ttlMs: number): LimitState => ({
    count: count ?? 0,
    retryAfterSeconds: count ? Math.max(1, Math.ceil(ttlMs / 1000)) : 0,
  });
  return {
    async hit(key, windowSeconds) {
      const result = await redisCall(connection, (r) =>
        r
          .multi()
          .incr(prefix + key)
          .pexpire(prefix + key, windowSeconds * 1000, 'NX')
          .pttl(prefix + key)
          .exec(),
      );
      const count = Number(result?.[0]?.[1] ?? 0);
      const ttl = Number(result?.[2]?.[1] ?? 0);
      return toState(count, ttl);
    },
    async peek(key) {
      const [count, ttl] = await redisCall(connection, (r) => Promise.all([r.get(prefix + key), r.pttl(prefix + key)]));
      return toState(count === null ? null : Number(count), ttl);
    },
    async reset(key) {
      await redisCall(connection, (r) => r.del(prefix + key));
    },
    async release(key) {
      // Decrement only an existing, positive counter, atomically.
      await redisCall(connection, (r) =>
        r.eval(
          "local v = redis.call('GET', KEYS[1]) if v and tonumber(v) > 0 then return redis.call('DECR', KEYS[1]) end return 0",
          1,
          prefix + key,
        ),
      );
    },
    async close() {
      if (owned) await connection.quit().catch(() => connection.disconnect());
    },
  };
}

/**
 * Counts in `primary` (Redis) and, while it fails, in `fallback` (this instance's memory).
 *
 * Why memory, rather than failing closed or open, when Redis is away: failing closed would refuse every sign-in,
 * password reset, registration and form for as long as Redis is down, closing the school to everyone for the sake of
 * a part that only counts attempts; failing open would lift the limits on password guessing exactly when someone
 * able to knock Redis over wants them lifted. In memory the limits still hold, per instance: with N instances an
 * address gets at most N times its allowance while the outage lasts. Counts kept meanwhile are not carried over when
 * Redis returns (those windows start afresh there), and an attempt reserved in one and released in the other is
 * harmless: a release never goes below zero.
 */
export function fallbackRateLimiter(
  primary: RateLimiter,
  fallback: RateLimiter,
  onSwitch: (to: 'fallback' | 'primary', error?: unknown) => void = () => {},
): RateLimiter {
  let failing = false;
  const attempt =
    <A extends unknown[], R>(op: (limiter: RateLimiter, ...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        const result = await op(primary, ...args);
        if (failing) {
          failing = false;
          onSwitch('primary');
        }
        return result;
      } catch (error) {
        if (!failing) {
          failing = true;
          onSwitch('fallback', error);
        }
        return op(fallback, ...args);
      }
    };
  return {
    hit: attempt((limiter, key: string, windowSeconds: number) => limiter.hit(key, windowSeconds)),
    peek: attempt((limiter, key: string) => limiter.peek(key)),
    reset: attempt((limiter, key: string) => limiter.reset(key)),
    release: attempt((limiter, key: string) => limiter.release(key)),
    async close() {
      await Promise.all([primary.close(), fallback.close()]);
    },
  };
}
