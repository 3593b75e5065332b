import type { User } from '../../identity/schema.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { SITE_CSS_HREF } from './assets.ts';
import { FAVICON_PATH } from './favicon.ts';

/** What every page shows of the school's look: its logo, menu and footer (the colours come from /assets/theme.css). */
export type SiteLook = {
  logoUrl: string | null;
  /** The menu: the owner's, or the default one (site-links.ts). */
  navigation: { label: string; url: string }[];
  /** The footer's links: the owner's, or the default ones. */
  footer: { label: string; url: string }[];
  /** Changes whenever the theme stylesheet does, so the link to it can be cached for good. */
  themeVersion: string;
  /** The built-in theme, named on <html> for rules of one theme only. */
  theme: string;
  /** The fonts' files that the page asks for early, so text is shown in them soon after it is first drawn. */
  fontPreloads: string[];
  /** The language of the school's pages (its locale). */
  locale: string;
};

export type PageContext = { schoolName: string | undefined; viewer: User | undefined; look?: SiteLook };

export type LayoutOptions = {
  /** Extra elements of <head>: description, canonical link, Open Graph tags, JSON-LD. */
  head?: SafeHtml;
  /** The path the page is at, so "Sign in" can come back to it, and the menu can mark where the visitor is. */
  path?: string;
  /**
   * A band across the whole width at the top of the page (the home page's hero, a course's head) that holds the
   * page's <h1> in place of the plain title.
   */
  banner?: SafeHtml;
};

/** Whether a menu item leads to the page at `path` or to the section it is in ("/courses" for "/courses/oil"). */
function isCurrent(url: string, path: string | undefined): boolean {
  if (!path || !url.startsWith('/')) return false;
  const page = path.split('?')[0] ?? '';
  return url === '/' ? page === '/' : page === url || page.startsWith(`${url.replace(/\/$/, '')}/`);
}

export function layout(ctx: PageContext, title: string, body: SafeHtml, options: LayoutOptions = {}): string {
  const school = ctx.schoolName ?? 'Lyceum';
  const look = ctx.look;
  const back = options.path && options.path !== '/' ? `?return_to=${encodeURIComponent(options.path)}` : '';
  const account = ctx.viewer
    ? html`${ctx.viewer.role === 'student' ? '' : html`<a href="/admin">Admin</a> <a href="/dashboard">Dashboard</a> `}<a href="/learn">My courses</a> <a href="/orders">My orders</a> <a href="/account">Signed in as ${ctx.viewer.name}</a> <a href="/signout">Sign out</a>`
    : html`<a href="/signin${back}">Sign in</a> <a class="button" href="/signup${back}">Create account</a>`;
  const menu = look?.navigation ?? [];
  const footerLinks = look?.footer ?? [];
  const brand = look?.logoUrl ? html`<img src="${look.logoUrl}" alt="${school}" class="logo">` : school;
  const current = (url: string) => (isCurrent(url, options.path) ? html` aria-current="page"` : '');
  return `<!doctype html>${html`<html lang="${look?.locale ?? 'en'}" class="theme-${look?.theme ?? 'classic'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title === school ? school : `${title} · ${school}`}</title>
<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">
<link rel="stylesheet" href="${SITE_CSS_HREF}">
<link rel="stylesheet" href="/assets/theme.css${look ? `?v=${look.themeVersion}` : ''}">
${(look?.fontPreloads ?? []).map(
  (href) => html`<link rel="preload" href="${href}" as="font" type="font/woff2" crossorigin>
`,
)}${options.head ?? ''}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site-header"><div class="wrap bar"><a class="brand" href="/">${brand}</a>${
    menu.length
      ? html`<nav aria-label="Site" class="site-nav"><ul>${menu.map((item) => html`<li><a href="${item.url}"${current(item.url)}>${item.label}</a></li>`)}</ul></nav>`
      : ''
  }<nav aria-label="Account" class="account">${account}</nav></div></header>
<main id="main">
${options.banner ?? ''}<div class="wrap page">
${
  options.banner
    ? ''
    : html`<h1>${title}</h1>
`
}${body}
</div>
</main>
<footer class="site-footer"><div class="wrap">${
    footerLinks.length
      ? html`<nav aria-label="Footer" class="footer-nav"><ul>${footerLinks.map((item) => html`<li><a href="${item.url}">${item.label}</a></li>`)}</ul></nav>`
      : ''
  }<p>${school} · Powered by Lyceum</p></div></footer>
</body>
</html>`}`;
}

export type FieldProblem = { field: string; message: string };

/**
 * The problems of a refused form above it. `link`, when given, makes each problem a link to its field, named by the
 * field's label (a form of many fields, where the reader jumps to the one to correct).
 */
export function errorSummary(
  message: string | undefined,
  problems: FieldProblem[] = [],
  link?: { href: (field: string) => string; label: (field: string) => string | undefined },
): SafeHtml {
  if (!message && problems.length === 0) return html``;
  // A problem with no field on the form (a lesson named by the course's publish) is told by its sentence alone.
  const item = (p: FieldProblem) => {
    if (!link) return html`<li>${p.field}: ${p.message}</li>`;
    const label = link.label(p.field);
    return label
      ? html`<li><a href="${link.href(p.field)}">${label}</a>: ${p.message}</li>`
      : html`<li>${p.message}</li>`;
  };
  return html`<div class="error" role="alert"><p>${message ?? 'Please correct the fields below.'}</p>${
    problems.length ? html`<ul>${problems.map(item)}</ul>` : ''
  }</div>`;
}

export function field(opts: {
  name: string;
  label: string;
  type?: string;
  value?: string;
  autocomplete?: string;
  required?: boolean;
  minlength?: number;
  /** When two forms of one page have a field of the same name. */
  id?: string;
}): SafeHtml {
  const id = opts.id ?? `f-${opts.name}`;
  return html`<p><label for="${id}">${opts.label}</label>
<input id="${id}" name="${opts.name}" type="${opts.type ?? 'text'}" value="${opts.value ?? ''}"${
    opts.autocomplete ? html` autocomplete="${opts.autocomplete}"` : ''
  }${opts.required === false ? '' : html` required`}${opts.minlength ? html` minlength="${opts.minlength}"` : ''}></p>`;
}

export const csrfField = (token: string) => html`<input type="hidden" name="_csrf" value="${token}">`;
