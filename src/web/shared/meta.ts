import { html, SafeHtml } from '../../text/html.ts';

export type PageMeta = {
  title: string;
  description: string;
  /** The page's absolute URL: its canonical address and og:url. */
  url: string;
  siteName: string;
  type?: 'website' | 'article' | 'profile';
  image?: string | null;
  /** Pages search engines should not index (unlisted, private or draft items). */
  noindex?: boolean;
  /** schema.org data for the page, as JSON-LD. */
  jsonLd?: Record<string, unknown>;
};

/** JSON inside <script>: "<" is escaped so no text in the data can close the element. */
const scriptJson = (data: unknown) => new SafeHtml(JSON.stringify(data).replace(/</g, '\\u003c'));

/** What search engines and link previews read: description, canonical URL, Open Graph tags and JSON-LD. */
export function metaTags(meta: PageMeta): SafeHtml {
  return html`<meta name="description" content="${meta.description}">
<link rel="canonical" href="${meta.url}">
${meta.noindex ? html`<meta name="robots" content="noindex">\n` : ''}<meta property="og:type" content="${meta.type ?? 'website'}">
<meta property="og:site_name" content="${meta.siteName}">
<meta property="og:title" content="${meta.title}">
<meta property="og:description" content="${meta.description}">
<meta property="og:url" content="${meta.url}">
${meta.image ? html`<meta property="og:image" content="${meta.image}">\n` : ''}<meta name="twitter:card" content="${meta.image ? 'summary_large_image' : 'summary'}">
${meta.jsonLd ? html`<script type="application/ld+json">${scriptJson(meta.jsonLd)}</script>` : ''}`;
}
