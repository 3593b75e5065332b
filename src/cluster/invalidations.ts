import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { connectRedis, type RedisLog } from '../db/redis.ts';

/**
 * What one instance changed that other instances keep a copy of: `tokens` (a token, grant or app was revoked: drop the
 * validated-token cache) and `catalog` (a write changed what the micro-cached lists, MCP answers and generated agent
 * documents show).
 */
export type Invalidation = 'tokens' | 'catalog';

/**
 * Publishes invalidations to every instance. Each one applies at once on the instance that made the change; with Redis
 * configured it is also published, and every other instance applies it as soon as the message arrives (well under
 * the caches' time bounds, which remain the fallback while Redis is unreachable). Without Redis there is nobody to
 * tell: the time bounds are the rule.
 *
 * While Redis is away a publish fails at once and is dropped (the writer's request never waits for it), and other
 * instances fall back on those time bounds (TOKEN_CACHE_SECONDS, LIST_CACHE_MS, DOCS_CACHE_SECONDS); the subscriber
 * reconnects and subscribes again by itself when Redis is back.
 */
export function invalidations(
  options: { redisUrl?: string; channel?: string; onError?: (error: unknown) => void; log?: RedisLog } = {},
) {
  const channel = options.channel ?? 'lyceum:invalidations';
  const instance = randomUUID();
  const handlers = new Map<Invalidation, (() => void)[]>();
  const received: ((kind: Invalidation) => void)[] = [];
  const apply = (kind: Invalidation) => {
    for (const handler of handlers.get(kind) ?? []) handler();
  };
  const onError = options.onError ?? (() => {});

  let publisher: Redis | undefined;
  let subscriber: Redis | undefined;
  let subscribed: Promise<unknown> = Promise.resolve();
  if (options.redisUrl) {
    publisher = connectRedis(options.redisUrl, { log: options.log });
    subscriber = connectRedis(options.redisUrl, { role: 'subscriber', log: options.log });
    publisher.on('error', onError);
    subscriber.on('error', onError);
    subscribed = subscriber.subscribe(channel).catch(onError);
    subscriber.on('message', (arrivedOn: string, message: string) => {
      if (arrivedOn !== channel) return;
      let parsed: { from?: string; kind?: string };
      try {
        parsed = JSON.parse(message) as { from?: string; kind?: string };
      } catch {
        return;
      }
      if (parsed.from === instance || (parsed.kind !== 'tokens' && parsed.kind !== 'catalog')) return;
      apply(parsed.kind);
      for (const listener of received.splice(0)) listener(parsed.kind);
    });
  }

  return {
    /** Registers what this instance drops when `kind` is invalidated (here or on another instance). */
    on(kind: Invalidation, handler: () => void) {
      handlers.set(kind, [...(handlers.get(kind) ?? []), handler]);
    },
    /** Applies here at once, then tells the other instances. */
    publish(kind: Invalidation) {
      apply(kind);
      publisher?.publish(channel, JSON.stringify({ from: instance, kind })).catch(onError);
    },
    /** Resolves once this instance is listening (tests start writing after it). */
    ready: () => subscribed,
    /** Resolves with the next invalidation that arrives from another instance. */
    nextFromElsewhere: () => new Promise<Invalidation>((resolve) => received.push(resolve)),
    async close() {
      await Promise.all([publisher?.quit().catch(() => {}), subscriber?.quit().catch(() => {})]);
    },
  };
}

export type Invalidations = ReturnType<typeof invalidations>;
