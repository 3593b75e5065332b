import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppearanceService } from '../../areas/appearance/service.ts';
import { etagMatches } from '../../http/etag.ts';
import { escapeHtml } from '../../text/html.ts';

export const FAVICON_PATH = '/favicon.svg';

/** The first letter of the school's name (not a space, digit or mark), upper-cased; "L" before setup. */
export function initialOf(name: string | undefined): string {
  const letter = /\p{L}/u.exec(name ?? '')?.[0];
  return (letter ?? 'L').toLocaleUpperCase();
}

/**
 * The school's icon: its initial in the background colour on a rounded square of its primary colour. Drawn with
 * presentation attributes only, since the CSP admits no inline style.
 */
export function faviconSvg(opts: { initial: string; primary: string; background: string }): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="${escapeHtml(
    opts.primary,
  )}"/><text x="32" y="45" text-anchor="middle" font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif" font-size="40" font-weight="700" fill="${escapeHtml(
    opts.background,
  )}">${escapeHtml(opts.initial)}</text></svg>`;
}

/**
 * /favicon.svg, and /favicon.ico for the browsers and tools that ask for it by that name without reading the page:
 * the same picture (every current browser takes an SVG icon whatever its address). Revalidated by its ETag, so a new
 * name or colour shows at the next visit.
 */
export function registerFaviconRoutes(
  app: FastifyInstance,
  deps: { appearance: AppearanceService; schoolName: () => Promise<string | undefined> },
) {
  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    const [appearance, name] = await Promise.all([deps.appearance.get(), deps.schoolName()]);
    const svg = faviconSvg({
      initial: initialOf(name),
      primary: appearance.colors.primary,
      background: appearance.colors.background,
    });
    const etag = `"${createHash('sha256').update(svg).digest('base64url').slice(0, 16)}"`;
    reply.header('etag', etag).header('cache-control', 'public, no-cache');
    if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
    return reply.type('image/svg+xml').send(svg);
  };
  app.get(FAVICON_PATH, { config: { public: true } }, serve);
  app.get('/favicon.ico', { config: { public: true } }, serve);
}
