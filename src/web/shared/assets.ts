import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { DESIGN_CSS } from './design-css.ts';
import { PICTURE_CSS } from './picture-css.ts';
import { SHOWCASE_CSS } from './showcase-css.ts';

/** The rules of the other pages (catalog search, events, plans, the player, checkout, account), on the design system. */
const PAGE_CSS = `
.search { display: flex; flex-wrap: wrap; gap: .75rem; align-items: end; }
.search p { margin: 0; flex: 1 1 12rem; }
.search p.submit { flex: 0 0 auto; }
.search + * { margin-top: var(--space-m); }
.catalog-count { color: var(--muted); margin-bottom: var(--space-xs); }
.snippet { color: var(--muted); font-size: .95rem; }
.snippet mark { background: color-mix(in srgb, var(--accent) 22%, transparent); color: var(--text); border-radius: .2em; padding: 0 .1em; }
.hero { width: 100%; max-height: 24rem; object-fit: cover; border-radius: .5rem; }
.course-head { display: grid; gap: 1rem 2rem; }
@media (min-width: 50rem) { .course-head { grid-template-columns: 3fr 2fr; } }
.buy { border: 1px solid color-mix(in srgb, var(--text) 20%, transparent); border-radius: .5rem; padding: 1rem; align-self: start; }
.buy > :first-child { margin-top: 0; }
.buy .price { font-size: 1.5rem; }
.when { font-weight: 700; }
.event-zone { display: block; font-weight: 400; font-size: .9rem; }
.buy form + form { margin-top: .5rem; }
#feed-url { width: 100%; max-width: 40rem; }
.people p { margin: .25rem 0; }
.outline ol { padding-left: 1.25rem; }
.outline li { margin: .25rem 0; }
.posts { list-style: none; padding: 0; }
.posts li { margin-bottom: 1.5rem; }
.posts h2, .posts h3 { margin-bottom: 0; }
.posts p { margin: .25rem 0; }
.offers { list-style: none; padding: 0; margin: 0; }
.offers li + li { border-top: 1px solid color-mix(in srgb, var(--text) 20%, transparent); margin-top: .75rem; padding-top: .5rem; }
.offers p { margin: .35rem 0; }
.plans { grid-template-columns: repeat(auto-fill, minmax(18rem, 1fr)); }
.people { list-style: none; padding: 0; display: grid; gap: 1rem; grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); }
.avatar { width: 4rem; height: 4rem; border-radius: 50%; object-fit: cover; }
.player { display: grid; gap: 1rem 2rem; }
@media (min-width: 56rem) { .player { grid-template-columns: minmax(0, 2fr) minmax(14rem, 1fr); } }
.player-outline { border-top: 1px solid color-mix(in srgb, var(--text) 20%, transparent); padding-top: .5rem; }
@media (min-width: 56rem) { .player-outline { border-top: 0; border-left: 1px solid color-mix(in srgb, var(--text) 20%, transparent); padding: 0 0 0 1rem; } }
.player-outline .outline { padding-left: 0; list-style: none; }
.outline-section { font-weight: 700; margin: .75rem 0 .25rem; }
.outline .current > a { font-weight: 700; }
.state { font-size: .85rem; white-space: nowrap; }
.state.done { color: var(--success); }
.progress progress, .my-courses progress { width: 100%; max-width: 16rem; height: 1rem; accent-color: var(--primary); }
.progress label { display: block; }
.media { width: 100%; max-height: 70vh; background: #000; }
audio.media { background: none; }
.embed { width: 100%; min-height: 28rem; border: 1px solid color-mix(in srgb, var(--text) 20%, transparent); }
.quiz fieldset { border: 1px solid color-mix(in srgb, var(--text) 25%, transparent); border-radius: .4rem; margin: 0 0 1rem; }
.quiz legend { font-weight: 600; padding: 0 .25rem; }
.choice { display: flex; gap: .5rem; align-items: baseline; margin: .35rem 0; }
.choice input { width: auto; }
.choice label { font-weight: 400; }
.right { color: var(--success); font-weight: 600; }
.wrong { color: var(--danger); font-weight: 600; }
.my-courses { list-style: none; padding: 0; }
.my-courses li { margin-bottom: 1.5rem; }
.my-courses h2 { margin-bottom: .25rem; }
.order-lines { border-collapse: collapse; width: 100%; max-width: 34rem; margin: 1rem 0; }
.order-lines th, .order-lines td { text-align: left; padding: .4rem .5rem; overflow-wrap: normal; border-bottom: 1px solid color-mix(in srgb, var(--text) 20%, transparent); }
.order-lines th:last-child, .order-lines td:last-child { text-align: right; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
.facts dt { font-weight: 600; }
.facts dd { margin: 0; }
.coupon { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: 1rem 0; }
.coupon label { flex-basis: 100%; }
.coupon input { flex: 1 1 12rem; }
.page-form { border-top: 1px solid color-mix(in srgb, var(--text) 20%, transparent); margin-top: 2rem; }
.page-form fieldset { border: 1px solid color-mix(in srgb, var(--text) 25%, transparent); border-radius: .4rem; margin: 0 0 1rem; max-width: 24rem; }
.page-form legend { font-weight: 600; padding: 0 .25rem; }
.page-form .help, .page-form .field-error { display: block; }
.hp { position: absolute; left: -999rem; width: 1px; height: 1px; overflow: hidden; }
.test-banner { border-color: var(--danger); }
.account-part { border-top: 1px solid color-mix(in srgb, var(--text) 20%, transparent); margin-top: 1.5rem; max-width: 40rem; }
.account-part h2 { font-size: 1.2rem; margin: 1rem 0 .5rem; }
.account-list { list-style: none; padding: 0; }
.account-list li { margin: .5rem 0; }
.account-list .meta { display: block; }
.account-list form { margin-top: .25rem; }
${PICTURE_CSS}`;

/**
 * The site's one static stylesheet: the design system, then the pages' rules. The school's colours, fonts and theme
 * arrive as custom properties from /assets/theme.css (generated from its appearance).
 */
const SITE_CSS = `${DESIGN_CSS}${SHOWCASE_CSS}${PAGE_CSS}`;

/** Where pages link it: the version in the URL lets browsers keep it for a year. */
export const SITE_CSS_HREF = `/assets/site.css?v=${createHash('sha256').update(SITE_CSS).digest('base64url').slice(0, 12)}`;

export function registerAssetRoutes(app: FastifyInstance) {
  app.get('/assets/site.css', { config: { public: true } }, async (request, reply) =>
    reply
      .type('text/css; charset=utf-8')
      .header(
        'cache-control',
        request.url === SITE_CSS_HREF ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
      )
      .send(SITE_CSS),
  );
}
