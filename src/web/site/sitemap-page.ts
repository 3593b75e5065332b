import { createHash } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { ListPage } from '../../areas/pagination.ts';
import { sendDocument } from '../../discovery/conditional.ts';
import type { GeneratedDocument } from '../../discovery/documents.ts';
import { errors } from '../../http/errors.ts';
import { ANONYMOUS } from '../../http/principal.ts';
import { coursePath } from '../shared/course-cards.ts';
import { Key } from '../shared/page-schemas.ts';
import type { SiteDeps } from '../shared/site-deps.ts';
import { lecturerPath } from './course-view.ts';
import { eventPath } from './events-view.ts';
import { planPath } from './plans-view.ts';
import { postPath } from './posts-view.ts';
import { productPath } from './products-view.ts';
import { schoolPagePath } from './school-page-view.ts';
import { robotsTxt, type SitemapEntry, sitemapIndexXml, sitemapXml } from './sitemap-view.ts';

/** The sitemaps.org limit of URLs in one file; a larger site gets a sitemap index. */
export const SITEMAP_LIMIT = 50_000;

/** Every item of a list, a page of 100 at a time. */
async function all<T extends { id: string }>(
  list: (cursor: { limit: number; starting_after?: string }) => Promise<ListPage<T>>,
) {
  const items: T[] = [];
  for (let after: string | undefined; ; ) {
    const page = await list({ limit: 100, ...(after ? { starting_after: after } : {}) });
    items.push(...page.data);
    if (!page.has_more || !page.next_cursor) return items;
    after = page.next_cursor;
  }
}

/**
 * /robots.txt and /sitemap.xml. The sitemap lists exactly what an anonymous visitor may find on the site — the
 * catalog's public published courses, published products, active lecturers, published public posts, published pages
 * the public membership plans on sale and the upcoming public events — read through the services as ANONYMOUS, so unlisted and private courses
 * and hidden plans never appear. It is kept `ttlMs` and dropped by `invalidate()` (every catalog invalidation):
 * walking a catalog of 100,000 courses takes seconds of queries.
 */
export function registerSitemap(fastify: FastifyInstance, deps: SiteDeps & { now: () => number; ttlMs: number }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { courses, lecturers, posts, pages, membershipPlans, digitalProducts, events } = deps.areas;
  const base = deps.baseUrl;
  let kept: { entries: Promise<SitemapEntry[]>; until: number } | undefined;
  const documents = new Map<string, GeneratedDocument>();

  async function collect(): Promise<SitemapEntry[]> {
    const [c, l, p, g, m, d, e] = await Promise.all([
      all((cursor) => courses.list(ANONYMOUS, { ...cursor, status: 'published', visibility: 'public' })),
      all((cursor) => lecturers.list(ANONYMOUS, { ...cursor, status: 'active' })),
      all((cursor) => posts.list(ANONYMOUS, { ...cursor, status: 'published' })),
      all((cursor) => pages.list(ANONYMOUS, { ...cursor, status: 'published' })),
      all((cursor) => membershipPlans.list(ANONYMOUS, { ...cursor, status: 'active', visibility: 'public' })),
      all((cursor) => digitalProducts.list(ANONYMOUS, { ...cursor, status: 'published' })),
      all((cursor) => events.list(ANONYMOUS, { ...cursor, when: 'upcoming' })),
    ]);
    return [
      { loc: `${base}/` },
      { loc: `${base}/courses` },
      { loc: `${base}/lecturers` },
      { loc: `${base}/posts` },
      { loc: `${base}/plans` },
      { loc: `${base}/products` },
      { loc: `${base}/events` },
      ...g.map((x) => ({ loc: `${base}${schoolPagePath(x.slug)}`, lastmod: x.updated_at })),
      ...l.map((x) => ({ loc: `${base}${lecturerPath(x.id)}`, lastmod: x.updated_at })),
      ...p.map((x) => ({ loc: `${base}${postPath(x.slug)}`, lastmod: x.updated_at })),
      ...c.map((x) => ({ loc: `${base}${coursePath(x.slug)}`, lastmod: x.updated_at })),
      ...m.map((x) => ({ loc: `${base}${planPath(x.slug)}`, lastmod: x.updated_at })),
      ...d.map((x) => ({ loc: `${base}${productPath(x.slug)}`, lastmod: x.updated_at })),
      ...e.map((x) => ({ loc: `${base}${eventPath(x.slug)}`, lastmod: x.updated_at })),
    ];
  }

  function entries() {
    const now = deps.now();
    if (kept && kept.until > now) return kept.entries;
    const current = { entries: collect(), until: now + deps.ttlMs };
    if (deps.ttlMs > 0) {
      kept = current;
      current.entries.catch(() => {
        if (kept === current) kept = undefined;
      });
    }
    return current.entries;
  }

  /** The document for these bytes, with the date this instance first produced them (see discovery/conditional.ts). */
  function stamp(name: string, body: string): GeneratedDocument {
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    const known = documents.get(name);
    if (known?.etag === etag) return known;
    const document = { body, etag, lastModified: new Date(Math.floor(deps.now() / 1000) * 1000) };
    documents.set(name, document);
    return document;
  }

  const xml = 'application/xml; charset=utf-8';
  const config = { public: true };

  app.get('/sitemap.xml', { config }, async (request, reply) => {
    const list = await entries();
    const body =
      list.length <= SITEMAP_LIMIT
        ? sitemapXml(list)
        : sitemapIndexXml(
            Array.from({ length: Math.ceil(list.length / SITEMAP_LIMIT) }, (_, i) => `${base}/sitemap/${i + 1}.xml`),
          );
    return sendDocument(request, reply, stamp('sitemap.xml', body), xml);
  });

  app.get('/sitemap/:part', { schema: { params: Type.Object({ part: Key }) }, config }, async (request, reply) => {
    const match = /^([1-9][0-9]{0,4})\.xml$/.exec(request.params.part);
    const list = await entries();
    const n = Number(match?.[1] ?? 0);
    if (!n || list.length <= SITEMAP_LIMIT || (n - 1) * SITEMAP_LIMIT >= list.length) throw errors.notFound('sitemap');
    const body = sitemapXml(list.slice((n - 1) * SITEMAP_LIMIT, n * SITEMAP_LIMIT));
    return sendDocument(request, reply, stamp(`sitemap/${n}`, body), xml);
  });

  app.get('/robots.txt', { config }, async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(robotsTxt(base)),
  );

  return {
    invalidate() {
      kept = undefined;
    },
  };
}
