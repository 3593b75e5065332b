import type { FastifyInstance } from 'fastify';
import { isStaff } from './principal.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Micro-cache this read's serialized answer under the named cache (shared views only; see below). */
    microcache?: string;
  }
  interface FastifyRequest {
    microcacheKey: { key: string; generation: number } | undefined;
  }
}

/**
 * Micro-caching of hot list responses. Only the two shared views are cached — anonymous callers, and staff (who see
 * everything) — never a student's personal view. An entry lives `ttlMs`; a write through the area's service clears
 * the area's entries at once on this instance, so other instances serve a change at most `ttlMs` late.
 */
export function responseCache(options: { ttlMs: number; maxEntries?: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  const max = options.maxEntries ?? 1000;
  const areas = new Map<string, Map<string, { body: Buffer; until: number }>>();
  /** Bumped by every clear(): a page read before a write must not be stored after it. */
  const generations = new Map<string, number>();
  const area = (name: string) => {
    let entries = areas.get(name);
    if (!entries) {
      entries = new Map();
      areas.set(name, entries);
    }
    return entries;
  };
  return {
    enabled: options.ttlMs > 0,
    get(name: string, key: string): Buffer | undefined {
      const entry = areas.get(name)?.get(key);
      if (!entry || entry.until <= now()) return undefined;
      return entry.body;
    },
    generation: (name: string) => generations.get(name) ?? 0,
    set(name: string, key: string, body: string, generation: number) {
      if ((generations.get(name) ?? 0) !== generation) return;
      const entries = area(name);
      if (entries.size >= max) entries.clear();
      // Kept encoded: writing the same page to every socket would otherwise re-encode the string each time.
      entries.set(key, { body: Buffer.from(body), until: now() + options.ttlMs });
    },
    /** Drops every entry of an area: called by its service after any write. */
    clear(name: string) {
      generations.set(name, (generations.get(name) ?? 0) + 1);
      areas.get(name)?.clear();
    },
  };
}

export type ResponseCache = ReturnType<typeof responseCache>;

export function installResponseCache(app: FastifyInstance, cache: ResponseCache) {
  app.decorateRequest('microcacheKey', undefined);
  app.addHook('preHandler', async (request, reply) => {
    const name = request.routeOptions.config.microcache;
    if (!name || !cache.enabled || request.method !== 'GET') return;
    const principal = request.principal;
    const view = principal.kind === 'anonymous' ? 'anonymous' : isStaff(principal) ? 'staff' : undefined;
    if (!view) return;
    const key = `${view} ${request.url}`;
    const body = cache.get(name, key);
    if (body !== undefined) return reply.type('application/json; charset=utf-8').header('x-cache', 'hit').send(body);
    request.microcacheKey = { key, generation: cache.generation(name) };
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const name = request.routeOptions.config.microcache;
    if (name && request.microcacheKey && reply.statusCode === 200 && typeof payload === 'string') {
      cache.set(name, request.microcacheKey.key, payload, request.microcacheKey.generation);
    }
    return payload;
  });
}
