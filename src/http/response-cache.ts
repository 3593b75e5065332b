import type { FastifyInstance } from 'fastify';
import { isStaff, type Principal } from './principal.ts';

/**
 * The two views of a public-view read that many callers share: anonymous callers, and staff (who see everything, so
 * every staff member sees the same answer). Anyone else's view is personal and never shared. Only reads that serve
 * anonymous callers may be cached by view: what else a route answers can depend on who exactly is asking.
 */
export const sharedView = (principal: Principal): 'anonymous' | 'staff' | undefined =>
  principal.kind === 'anonymous' ? 'anonymous' : isStaff(principal) ? 'staff' : undefined;

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
export function responseCache(options: {
  ttlMs: number;
  maxEntries?: number;
  maxBytes?: number;
  now?: () => number;
  /** Told of each lookup's result (the metrics' hit rate). */
  onLookup?: (hit: boolean) => void;
}) {
  const told = options.onLookup ?? (() => {});
  const now = options.now ?? Date.now;
  const max = options.maxEntries ?? 1000;
  /** Entries are whole answers, some large: the cache is bounded by bytes too, whatever the entry count. */
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
  let bytes = 0;
  const areas = new Map<string, Map<string, { body: Buffer; until: number; size: number; tag?: string }>>();
  const drop = (entries: Map<string, { size: number }>) => {
    for (const entry of entries.values()) bytes -= entry.size;
    entries.clear();
  };
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
  function lookup(name: string, key: string): { body: Buffer; tag: string | undefined } | undefined {
    const entry = areas.get(name)?.get(key);
    const hit = entry !== undefined && entry.until > now();
    told(hit);
    return hit ? { body: entry.body, tag: entry.tag } : undefined;
  }
  return {
    enabled: options.ttlMs > 0,
    get: (name: string, key: string): Buffer | undefined => lookup(name, key)?.body,
    /** An entry with the tag it was stored with (a page's ETag). */
    lookup,
    generation: (name: string) => generations.get(name) ?? 0,
    set(name: string, key: string, body: string, generation: number, tag?: string) {
      if ((generations.get(name) ?? 0) !== generation) return;
      const entries = area(name);
      // Kept encoded: writing the same page to every socket would otherwise re-encode the string each time.
      const encoded = Buffer.from(body);
      const size = encoded.length + key.length;
      if (size > maxBytes / 16) return;
      const previous = entries.get(key);
      if (previous) {
        // Out of the count and out of the map, so a drop below cannot subtract it a second time.
        bytes -= previous.size;
        entries.delete(key);
      }
      if (entries.size >= max || bytes + size > maxBytes) for (const each of areas.values()) drop(each);
      bytes += size;
      entries.set(key, { body: encoded, until: now() + options.ttlMs, size, tag });
    },
    /** Drops every entry of an area: called by its service after any write. */
    clear(name: string) {
      generations.set(name, (generations.get(name) ?? 0) + 1);
      const entries = areas.get(name);
      if (entries) drop(entries);
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
    const view = sharedView(principal);
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
