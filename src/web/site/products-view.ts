import type { DigitalProduct, ProductDownloads, ProductFile } from '../../areas/digital-products/schema.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { formatMoney } from '../../text/money.ts';
import { CARD_SIZES } from '../shared/course-cover.ts';
import { markdownHtml, markdownText } from '../shared/markdown.ts';
import { NO_PICTURES, type Pictures, picture } from '../shared/picture.ts';
import { summary } from '../shared/text.ts';
import { pager } from './catalog-view.ts';

export const productPath = (slug: string) => `/products/${encodeURIComponent(slug)}`;

const priceText = (product: Pick<DigitalProduct, 'price'>, locale: string) =>
  product.price ? formatMoney(product.price, locale) : 'Free';

/** "840 bytes", "12.5 kB", "3.1 MB": a file's size as people read it (decimal units, as file managers show). */
export function fileSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

const filesText = (files: ProductFile[]) => `${files.length} ${files.length === 1 ? 'file' : 'files'}`;

/** The products as cards: title (the link), a line of description, the files and the price. */
export function productListView(data: {
  products: DigitalProduct[];
  locale: string;
  previousHref: string | null;
  nextHref: string | null;
  pictures?: Pictures;
}): SafeHtml {
  if (!data.products.length) return html`<p>No products are on sale yet.</p>`;
  const pictures = data.pictures ?? NO_PICTURES;
  const cover = (url: string) =>
    picture({ src: url, alt: '', sizes: CARD_SIZES, facts: pictures.facts(url), ratio: [16, 9], className: 'cover' });
  return html`<ul class="cards">${data.products.map(
    (p) =>
      html`<li class="card">${p.image_url ? cover(p.image_url) : ''}<div class="body"><h2><a href="${productPath(p.slug)}">${p.title}</a></h2>${
        p.description.trim() ? html`<p>${summary(markdownText(p.description), 160)}</p>` : ''
      }<p class="meta">${filesText(p.files)}</p><p class="price">${priceText(p, data.locale)}</p></div></li>`,
  )}</ul>
${pager(data.previousHref, data.nextHref)}`;
}

/** What the product page offers the viewer: decided by the handler from the product and who is looking. */
export type ProductAction =
  /** The viewer holds it (or is staff, who download every product): its files with signed links. */
  | { kind: 'download'; downloads: ProductDownloads; staff: boolean }
  /** On sale: Buy (paid) or Get it (free), both to the checkout. */
  | { kind: 'checkout'; href: string; free: boolean }
  /** Paid, and the school takes no payments. */
  | { kind: 'no-payments' }
  /** Not on sale (archived, or a draft staff look at). */
  | { kind: 'none' };

export type ProductData = { product: DigitalProduct; locale: string; action: ProductAction; pictures?: Pictures };

/** The product's picture beside its buy box: three fifths of a wide page, the whole of a phone's. */
const HERO_SIZES = '(min-width: 72rem) 43rem, (min-width: 50rem) 60vw, 100vw';

/** The files with their download links, each a plain link the browser saves (the file is sent as an attachment). */
function downloadList(downloads: ProductDownloads): SafeHtml {
  if (!downloads.files.length) return html`<p>This product has no files yet.</p>`;
  return html`<ul class="posts">${downloads.files.map(
    (f) =>
      html`<li><a href="${f.url}" download="${f.filename}">${f.filename}</a> <span class="meta">(${fileSize(f.byte_size)})</span></li>`,
  )}</ul>`;
}

const linksHint = html`<p class="meta">The links work for a while; reload the page for fresh ones.</p>`;

function actionBox(data: ProductData): SafeHtml {
  const { product, action } = data;
  const price = html`<p class="price">${priceText(product, data.locale)}</p>`;
  switch (action.kind) {
    case 'download':
      return html`<p><strong>${action.staff ? 'Staff can download the files.' : 'You have this product.'}</strong></p>${downloadList(action.downloads)}${linksHint}`;
    case 'checkout':
      return html`${price}<p><a class="button" href="${action.href}">${action.free ? 'Get it' : 'Buy'}</a></p>`;
    case 'no-payments':
      return html`${price}<p><button type="button" disabled>Buy</button></p><p>This school does not take payments yet.</p>`;
    case 'none':
      return price;
  }
}

function notice(product: DigitalProduct): SafeHtml {
  if (product.status === 'draft')
    return html`<p class="warning">This product is a draft: only staff can see this page.</p>`;
  if (product.status === 'archived')
    return html`<p class="notice">This product is no longer sold; those who have it keep their downloads.</p>`;
  return html``;
}

/** A product's page: description, what is in it (files by name and size), price and the buy box — or the downloads. */
export function productView(data: ProductData): SafeHtml {
  const { product } = data;
  return html`${notice(product)}
<div class="course-head"><section aria-labelledby="about-heading">${
    product.image_url
      ? picture({
          src: product.image_url,
          alt: '',
          sizes: HERO_SIZES,
          facts: (data.pictures ?? NO_PICTURES).facts(product.image_url),
          className: 'hero',
          priority: true,
        })
      : ''
  }<h2 id="about-heading">About this product</h2>
${product.description.trim() ? markdownHtml(product.description) : html`<p>No description yet.</p>`}</section>
<aside class="buy" aria-label="${data.action.kind === 'download' ? 'Downloads' : 'Buying'}">${actionBox(data)}</aside></div>
${
  data.action.kind === 'download'
    ? ''
    : html`<section aria-labelledby="files-heading"><h2 id="files-heading">What you get</h2>${
        product.files.length
          ? html`<ul class="posts">${product.files.map(
              (f) => html`<li>${f.filename} <span class="meta">(${fileSize(f.byte_size)})</span></li>`,
            )}</ul>`
          : html`<p>The files are being prepared.</p>`
      }</section>`
}`;
}

/** schema.org Product (https://schema.org/Product) with its offer, as search engines read it from the page. */
export function productJsonLd(product: DigitalProduct, site: { baseUrl: string }): Record<string, unknown> {
  const url = `${site.baseUrl}${productPath(product.slug)}`;
  const digits = product.price
    ? (new Intl.NumberFormat('en', { style: 'currency', currency: product.price.currency }).resolvedOptions()
        .maximumFractionDigits ?? 2)
    : 0;
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    '@id': url,
    url,
    name: product.title,
    description: markdownText(product.description) || product.title,
    offers: {
      '@type': 'Offer',
      price: product.price ? (product.price.amount / 10 ** digits).toFixed(digits) : '0',
      ...(product.price ? { priceCurrency: product.price.currency } : {}),
      availability: product.status === 'published' ? 'https://schema.org/InStock' : 'https://schema.org/Discontinued',
      url,
    },
  };
}

/** "My downloads": every product the person holds, each with its files' links. */
export function myDownloadsView(items: { product: DigitalProduct; downloads: ProductDownloads }[]): SafeHtml {
  if (!items.length) return html`<p>You have no downloads yet. <a href="/products">See the products</a>.</p>`;
  return html`<ul class="my-courses">${items.map(
    (item) => html`<li><h2><a href="${productPath(item.product.slug)}">${item.product.title}</a></h2>
${downloadList(item.downloads)}</li>`,
  )}</ul>${linksHint}`;
}
