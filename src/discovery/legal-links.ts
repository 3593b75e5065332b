import type { Db } from '../db/tables.ts';
import type { CatalogStore } from './catalog-store.ts';

export type LegalLinks = { terms: string | null; privacy: string | null };

/**
 * Where the school's terms and privacy notice are, the one answer every discovery document gives: the URL set in the
 * school's settings, else its own published page of that slug (/p/terms, /p/privacy), else none.
 */
export async function legalLinks(
  db: Db,
  store: CatalogStore,
  baseUrl: string,
  school: { terms_url: string | null; privacy_url: string | null } | undefined,
): Promise<LegalLinks> {
  const published = new Set((await store.publishedPages(db, ['terms', 'privacy'])).map((p) => p.slug));
  const page = (slug: string) => (published.has(slug) ? `${baseUrl}/p/${slug}` : null);
  return { terms: school?.terms_url ?? page('terms'), privacy: school?.privacy_url ?? page('privacy') };
}
