import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches } from '../../http/etag.ts';
import type { ResponseCache } from '../../http/response-cache.ts';
import type { SafeHtml } from '../../text/html.ts';
import type { LayoutOptions } from './layout.ts';
import type { PageWriter } from './page-context.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A public page whose signed-out view is the same for every visitor, so it may be shared by caches. */
    sharedPage?: boolean;
  }
}

/** The micro-cache area of the public pages; every catalog invalidation clears it. */
export const WEB_CACHE = 'web';

const etagOf = (body: string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

/**
 * Public pages, sent with what caches need. A signed-out visitor's page is the same for everyone: it is sent
 * `public, no-cache` with a strong ETag (a browser or proxy may keep it but asks each time, and gets a 304 while it is
 * unchanged — the catalog can change at any moment, so no max-age), `Vary: Cookie`, and kept in the micro-cache
 * (LIST_CACHE_MS, cleared by any write) so a crowd of visitors costs one render. A signed-in visitor's page names them
 * and may carry a CSRF token: `private, no-store`, never cached.
 */
export function sharedPages(deps: { write: PageWriter; cache: ResponseCache }) {
  const { cache } = deps;

  function sendShared(request: FastifyRequest, reply: FastifyReply, body: string | Buffer, etag: string) {
    reply.header('etag', etag).header('cache-control', 'public, no-cache').header('vary', 'Cookie');
    if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
    return reply.type('text/html; charset=utf-8').send(body);
  }

  return {
    /** Answers a signed-out visitor's request from the micro-cache; registered after the viewer is known. */
    install(app: FastifyInstance) {
      app.addHook('preHandler', async (request, reply) => {
        if (!request.routeOptions.config.sharedPage || request.viewer || !cache.enabled) return;
        if (request.method !== 'GET' && request.method !== 'HEAD') return;
        const hit = cache.lookup(WEB_CACHE, request.url);
        if (hit?.tag) return sendShared(request, reply.header('x-cache', 'hit'), hit.body, hit.tag);
      });
    },

    /** Drops the shared pages of this instance: after a change made through a page rather than the API. */
    forget() {
      cache.clear(WEB_CACHE);
    },

    /**
     * Renders and sends a page in the school's layout with the cache headers of its viewer. A `personal` page (one
     * carrying a form's CSRF token, or a visitor's own entries) is never shared, whoever the viewer is.
     */
    async send(
      request: FastifyRequest,
      reply: FastifyReply,
      title: string,
      body: SafeHtml,
      { personal = false, ...options }: LayoutOptions & { personal?: boolean } = {},
    ): Promise<FastifyReply> {
      const generation = cache.generation(WEB_CACHE);
      const page = await deps.write(request, title, body, { path: request.url, ...options });
      if (request.viewer || personal) {
        return reply.type('text/html; charset=utf-8').header('cache-control', 'private, no-store').send(page);
      }
      const etag = etagOf(page);
      if (cache.enabled) cache.set(WEB_CACHE, request.url, page, generation, etag);
      return sendShared(request, reply, page, etag);
    },
  };
}

export type SharedPages = ReturnType<typeof sharedPages>;
