import { escapeHtml } from '../../text/html.ts';

export type SitemapEntry = { loc: string; lastmod?: string };

/** A sitemap (sitemaps.org protocol 0.9): at most 50,000 URLs a file. */
export function sitemapXml(entries: SitemapEntry[]): string {
  const urls = entries.map(
    (e) =>
      `<url><loc>${escapeHtml(e.loc)}</loc>${e.lastmod ? `<lastmod>${escapeHtml(e.lastmod)}</lastmod>` : ''}</url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** A sitemap index naming the sitemap files of a site too large for one. */
export function sitemapIndexXml(locations: string[]): string {
  const items = locations.map((loc) => `<sitemap><loc>${escapeHtml(loc)}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items.join('\n')}\n</sitemapindex>\n`;
}

/**
 * Paths no crawler has business in: the API, the authorization server, the admin, a person's own pages (account,
 * learning, orders, downloads, checkout) and the forms of signing in and recovering an account.
 */
export const DISALLOWED_PATHS = [
  '/api/',
  '/oauth/',
  '/mcp',
  '/admin',
  '/account',
  '/dashboard',
  '/learn',
  '/orders',
  '/downloads',
  '/checkout/',
  '/signin',
  '/signup',
  '/signout',
  '/setup',
  '/password',
  '/verify-email',
];

export function robotsTxt(baseUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    ...DISALLOWED_PATHS.map((p) => `Disallow: ${p}`),
    '',
    `Sitemap: ${baseUrl}/sitemap.xml`,
    '',
  ].join('\n');
}
