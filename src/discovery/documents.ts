import { createHash } from 'node:crypto';
import type { Event } from '../areas/events/schema.ts';
import type { SchoolStore } from '../areas/school/store.ts';
import type { Db } from '../db/tables.ts';
import type { Clock } from '../time/clock.ts';
import type { CatalogStore } from './catalog-store.ts';
import { legalLinks } from './legal-links.ts';
import { LLMS_TXT_LIMIT, llmsTxt, type OutlineSection } from './llms-txt.ts';
import { courseRow, pricingMd } from './pricing-md.ts';

/** At most this many plans and products are listed in /pricing.md (a school has a handful). */
const PRICING_LIMIT = 5_000;

/** A strong ETag of a document's bytes. */
export const strongEtag = (body: string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;

/** A generated document with what HTTP caches need: a strong ETag of its bytes and when it last changed. */
export type GeneratedDocument = { body: string; etag: string; lastModified: Date };

/**
 * /llms.txt, /llms-full.txt and /pricing.md, generated from the live catalog with bounded queries (the newest
 * LLMS_TXT_LIMIT courses and posts, totals, and how to page through the rest), so their size does not grow with the
 * catalog. A generated document is kept `ttlMs` and dropped at once by `invalidate()`, which every catalog
 * invalidation calls (a write through the API here, or on another instance through Redis). Last-Modified is when this
 * instance first produced the current bytes; the ETag alone decides 304s (see conditional.ts).
 */
export function discoveryDocuments(deps: {
  db: Db;
  clock: Clock;
  baseUrl: string;
  school: SchoolStore;
  store: CatalogStore;
  ttlMs: number;
  /** Whether a payment provider is configured. */
  takesPayments: boolean;
  /** The upcoming public events, soonest first, as anonymous sees them (the events area's own rule). */
  upcomingEvents: (limit: number) => Promise<Event[]>;
}) {
  const { db, store } = deps;
  const seen = new Map<string, { etag: string; since: Date }>();
  const kept = new Map<string, { document: Promise<GeneratedDocument>; until: number }>();

  /** One generation at a time per document: concurrent requests share it instead of each building 10 MB. */
  function cached(name: string, generate: () => Promise<string>): Promise<GeneratedDocument> {
    const now = deps.clock.now().getTime();
    const entry = kept.get(name);
    if (entry && entry.until > now) return entry.document;
    const document = generate().then((body) => stamp(name, body));
    if (deps.ttlMs > 0) {
      kept.set(name, { document, until: now + deps.ttlMs });
      document.catch(() => kept.delete(name));
    }
    return document;
  }

  function stamp(name: string, body: string): GeneratedDocument {
    const etag = strongEtag(body);
    let known = seen.get(name);
    if (known?.etag !== etag) {
      // HTTP dates have whole seconds; a date in the future of the body would make If-Modified-Since lie.
      known = { etag, since: new Date(Math.floor(deps.clock.now().getTime() / 1000) * 1000) };
      seen.set(name, known);
    }
    return { body, etag, lastModified: known.since };
  }

  async function llms(full: boolean) {
    const school = await deps.school.get(db);
    const [legal, courses, posts, pages, plans, products, events] = await Promise.all([
      legalLinks(db, store, deps.baseUrl, school),
      store.newestCourses(db, LLMS_TXT_LIMIT),
      store.newestPosts(db, LLMS_TXT_LIMIT),
      store.pages(db, LLMS_TXT_LIMIT),
      store.publicPlans(db, LLMS_TXT_LIMIT),
      store.publishedProducts(db, LLMS_TXT_LIMIT),
      deps.upcomingEvents(LLMS_TXT_LIMIT),
    ]);
    const ids = courses.courses.map((c) => c.id);
    const sizes = await store.courseSizes(db, ids);
    let outlines: Map<string, OutlineSection[]> | undefined;
    if (full) {
      outlines = new Map();
      for (const row of await store.outlines(db, ids)) {
        const sections = outlines.get(row.course_id) ?? [];
        let section: OutlineSection | undefined = sections.at(-1);
        if (section?.id !== row.section_id) {
          section = { id: row.section_id, title: row.section_title, lessons: [] };
          sections.push(section);
        }
        section.lessons.push({
          title: row.title,
          type: row.type,
          duration_s: row.duration_s,
          is_preview: Number(row.is_preview) === 1,
        });
        outlines.set(row.course_id, sections);
      }
    }
    return llmsTxt({
      baseUrl: deps.baseUrl,
      school,
      legal,
      courses: { items: courses.courses, total: courses.total },
      posts: { items: posts.posts, total: posts.total },
      pages,
      plans,
      products,
      events,
      sizes,
      outlines,
    });
  }

  return {
    llmsTxt: () => cached('llms.txt', () => llms(false)),
    llmsFullTxt: () => cached('llms-full.txt', () => llms(true)),
    pricingMd: () =>
      cached('pricing.md', async () => {
        const school = await deps.school.get(db);
        const locale = school?.locale ?? 'en';
        const [newest, plans, products, legal] = await Promise.all([
          store.newestCourses(db, LLMS_TXT_LIMIT),
          store.publicPlans(db, PRICING_LIMIT),
          store.publishedProducts(db, PRICING_LIMIT),
          legalLinks(db, store, deps.baseUrl, school),
        ]);
        const sizes = await store.courseSizes(
          db,
          newest.courses.map((c) => c.id),
        );
        const courseRows = newest.courses.map((c) => courseRow(c, sizes.get(c.id), deps.baseUrl, locale));
        return pricingMd({
          baseUrl: deps.baseUrl,
          school,
          courseRows,
          courseTotal: newest.total,
          legal,
          plans,
          products,
          takesPayments: deps.takesPayments,
        });
      }),
    /** Called after every successful write through the API on this instance. */
    invalidate() {
      kept.clear();
    },
  };
}

export type DiscoveryDocuments = ReturnType<typeof discoveryDocuments>;
