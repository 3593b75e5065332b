import { html, SafeHtml } from '../../text/html.ts';

export type PageMeta = {
  title: string;
  description: string;
  /** The page's absolute URL: its canonical address and og:url. */
  url: string;
  siteName: string;
  type?: 'website' | 'article' | 'profile';
  /** The picture a shared link shows: an absolute URL, with its size when known (share-image.ts makes 1200 × 630). */
  image?: string | null;
  imageSize?: { width: number; height: number };
  /** What the picture shows, for people who cannot see it. */
  imageAlt?: string;
  /** Pages search engines should not index (unlisted, private or draft items). */
  noindex?: boolean;
  /** schema.org data for the page, as JSON-LD. */
  jsonLd?: Record<string, unknown>;
};

/** JSON inside <script>: "<" is escaped so no text in the data can close the element. */
const scriptJson = (data: unknown) => new SafeHtml(JSON.stringify(data).replace(/</g, '\\u003c'));

/** A picture too small for a large card (a portrait): previews show it beside the text instead. */
const large = (size: PageMeta['imageSize']) => !size || size.width >= 600;

function imageTags(url: string, size: PageMeta['imageSize'], alt: string | undefined): SafeHtml {
  return html`<meta property="og:image" content="${url}">
${size ? html`<meta property="og:image:width" content="${size.width}">\n<meta property="og:image:height" content="${size.height}">\n` : ''}${alt ? html`<meta property="og:image:alt" content="${alt}">\n` : ''}<meta name="twitter:image" content="${url}">
${alt ? html`<meta name="twitter:image:alt" content="${alt}">\n` : ''}`;
}

/** What search engines and link previews read: description, canonical URL, Open Graph tags and JSON-LD. */
export function metaTags(meta: PageMeta): SafeHtml {
  return html`<meta name="description" content="${meta.description}">
<link rel="canonical" href="${meta.url}">
${meta.noindex ? html`<meta name="robots" content="noindex">\n` : ''}<meta property="og:type" content="${meta.type ?? 'website'}">
<meta property="og:site_name" content="${meta.siteName}">
<meta property="og:title" content="${meta.title}">
<meta property="og:description" content="${meta.description}">
<meta property="og:url" content="${meta.url}">
${meta.image ? imageTags(meta.image, meta.imageSize, meta.imageAlt) : ''}<meta name="twitter:card" content="${meta.image && large(meta.imageSize) ? 'summary_large_image' : 'summary'}">
${meta.jsonLd ? html`<script type="application/ld+json">${scriptJson(meta.jsonLd)}</script>` : ''}`;
}
