import type { Areas } from '../../areas/index.ts';
import { ANONYMOUS } from '../../http/principal.ts';

export type SiteLink = { label: string; url: string };

/** The links a school shows by default, from what it has to show (the layout uses them while the owner chose none). */
export type DefaultLinks = { menu: SiteLink[]; footer: SiteLink[] };

/** How many of the school's pages the default footer links, oldest first (About, FAQ, Terms … as they were made). */
const FOOTER_PAGES = 8;

/**
 * What the default menu and footer link, decided from what a signed-out visitor can open: the site's lists, the
 * membership plans and the products only when the school offers any, and the published pages (the menu names About
 * when the school has it; the footer lists the pages). Read through the services as an anonymous caller, so a draft
 * page or a hidden plan is never linked.
 */
export async function defaultLinksOf(
  areas: Pick<Areas, 'pages' | 'membershipPlans' | 'digitalProducts'>,
): Promise<DefaultLinks> {
  const [pages, plans, products] = await Promise.all([
    areas.pages.list(ANONYMOUS, { limit: FOOTER_PAGES, sort: 'created_at' }),
    areas.membershipPlans.list(ANONYMOUS, { limit: 1, status: 'active', visibility: 'public' }),
    areas.digitalProducts.list(ANONYMOUS, { limit: 1, status: 'published' }),
  ]);
  const pageLinks = pages.data.map((page) => ({ label: page.title, url: `/p/${encodeURIComponent(page.slug)}` }));
  const sells = [
    ...(plans.data.length ? [{ label: 'Plans', url: '/plans' }] : []),
    ...(products.data.length ? [{ label: 'Products', url: '/products' }] : []),
  ];
  const about = pageLinks.find((link) => link.url === '/p/about');
  return {
    menu: [
      { label: 'Courses', url: '/courses' },
      ...sells,
      { label: 'Events', url: '/events' },
      { label: 'Lecturers', url: '/lecturers' },
      { label: 'Posts', url: '/posts' },
      ...(about ? [about] : []),
    ],
    footer: [...pageLinks, ...sells],
  };
}

/**
 * The default links, kept `ttlMs` and dropped by `invalidate` (any write through the API: a page published, a plan
 * archived), so a page render costs no query of them; a crowd asking at once waits for one read.
 */
export function defaultLinksCache(read: () => Promise<DefaultLinks>, opts: { ttlMs: number; now: () => number }) {
  let kept: { at: number; links: Promise<DefaultLinks> } | undefined;
  return {
    get(): Promise<DefaultLinks> {
      const at = opts.now();
      if (kept && at - kept.at < opts.ttlMs) return kept.links;
      const links = read();
      kept = { at, links };
      links.catch(() => {
        if (kept?.links === links) kept = undefined;
      });
      return links;
    },
    invalidate() {
      kept = undefined;
    },
  };
}
