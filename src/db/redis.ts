import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import { UnavailableError } from './unavailable.ts';

export type RedisLog = (level: 'warn' | 'info', message: string, fields?: Record<string, unknown>) => void;

/**
 * A Redis connection as every part of the school opens one, made to fail fast and heal by itself: a request must
 * never wait on a Redis that is away (before, a stopped Redis held sign-in 3.3 s and registration past 15 s while
 * commands queued for reconnection attempts).
 * - `commands` (the default): a command sent while the connection is down fails at once (no offline queue), one cut
 *   off mid-flight fails at the first reconnection attempt (maxRetriesPerRequest 1), and one unanswered fails after
 *   a second (commandTimeout: a Redis that hangs, or a network that drops packets without a reset). The caller falls
 *   back or answers 503.
 * - `subscriber`: a subscription is standing state rather than a request: it waits for the connection, and ioredis
 *   renews it on every reconnection.
 * Either way the client reconnects every second at most while Redis is away, and logs only when the connection is
 * lost and when it is back — not every failed attempt (an 'error' nobody listens to would go to the console each time).
 */
export function connectRedis(url: string, options: { role?: 'commands' | 'subscriber'; log?: RedisLog } = {}) {
  const subscriber = options.role === 'subscriber';
  // ioredis is loaded with the first connection, not at start: a school without Redis never loads it (≈ 20 MB).
  const { Redis: RedisClient } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
  const redis = new RedisClient(url, {
    enableOfflineQueue: subscriber,
    maxRetriesPerRequest: subscriber ? null : 1,
    ...(subscriber ? {} : { commandTimeout: 1_000 }),
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 200, 1_000),
  });
  const role = options.role ?? 'commands';
  let up = false;
  let lostSince: number | undefined;
  let lastError: string | undefined;
  redis.on('error', (error: Error) => {
    lastError = error.message;
  });
  redis.on('ready', () => {
    up = true;
    if (lostSince !== undefined)
      options.log?.('info', 'Redis reachable again', { role, away_ms: Date.now() - lostSince });
    lostSince = undefined;
  });
  redis.on('reconnecting', () => {
    if (lostSince !== undefined) return;
    lostSince = Date.now();
    options.log?.('warn', up ? 'Redis connection lost; reconnecting every second' : 'Redis not reachable; retrying', {
      role,
      err: lastError,
    });
  });
  return redis;
}

/**
 * Resolves true once `redis` is ready, false after `timeoutMs` — or, with `orFailure`, as soon as the attempt under
 * way fails (the connection closes before it is ready).
 */
export function whenReady(redis: Redis, timeoutMs: number, options: { orFailure?: boolean } = {}): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const settle = (ready: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('close', onClose);
      resolve(ready);
    };
    const onReady = () => settle(true);
    const onClose = () => settle(false);
    const timer = setTimeout(() => settle(false), timeoutMs);
    redis.once('ready', onReady);
    if (options.orFailure) redis.once('close', onClose);
  });
}

/** How long a command waits for a connection that is being made (at start, or as Redis comes back). */
const CONNECTING_WAIT_MS = 1_000;

/**
 * Runs `command` on `redis`. While the connection is being made (the first moments after start, or Redis coming
 * back) it waits up to a second for it; while Redis is away it fails at once. A failure to reach Redis (no connection,
 * a timeout, a connection lost mid-command) becomes an UnavailableError, so callers and the error handler tell it
 * from a genuine error reply, which passes unchanged.
 */
export async function redisCall<T>(redis: Redis, command: (redis: Redis) => Promise<T>): Promise<T> {
  try {
    if (['wait', 'connecting', 'connect'].includes(redis.status))
      await whenReady(redis, CONNECTING_WAIT_MS, { orFailure: true });
    return await command(redis);
  } catch (error) {
    if ((error as Error | undefined)?.name === 'ReplyError') throw error;
    throw new UnavailableError('redis', { cause: error });
  }
}
