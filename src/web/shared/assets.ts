import type { FastifyInstance } from 'fastify';

/**
 * The site's one static stylesheet. The school's colours and fonts arrive as custom properties from /assets/theme.css
 * (generated from its appearance); the values here are only the fallback until that loads.
 */
const SITE_CSS = `
:root { --primary: #1d4ed8; --accent: #c2410c; --background: #ffffff; --text: #1f2937; --heading-font: system-ui; --body-font: system-ui; }
* { box-sizing: border-box; }
html { font-family: var(--body-font), sans-serif; line-height: 1.5; background: var(--background); color: var(--text); }
body { max-width: 68rem; margin: 0 auto; padding: 0 1rem 1rem; overflow-wrap: anywhere; }
h1, h2, h3 { font-family: var(--heading-font), sans-serif; line-height: 1.25; }
a { color: var(--primary); }
img { max-width: 100%; height: auto; }
.skip { position: absolute; left: -999rem; }
.skip:focus { left: 1rem; top: .5rem; background: var(--background); padding: .25rem .5rem; }
header { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: .5rem 1.5rem; border-bottom: 1px solid color-mix(in srgb, var(--text) 25%, transparent); padding: .75rem 0; }
header nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; }
header .site-nav { flex: 1 1 auto; }
header .account { display: flex; flex-wrap: wrap; gap: .25rem 1rem; align-items: center; }
.brand { font-weight: 700; font-size: 1.15rem; text-decoration: none; color: var(--text); }
.brand .logo { max-height: 2.5rem; width: auto; display: block; }
main { min-height: 50vh; }
label { display: block; font-weight: 600; }
input, select, textarea { font: inherit; padding: .4rem; width: 100%; max-width: 24rem; }
button, .button { font: inherit; padding: .45rem 1.2rem; cursor: pointer; border-radius: .3rem; border: 2px solid var(--primary); background: var(--primary); color: var(--background); text-decoration: none; display: inline-block; }
button:disabled { cursor: not-allowed; background: transparent; color: var(--text); border-color: color-mix(in srgb, var(--text) 50%, transparent); }
.error { border: 2px solid #c62828; padding: .5rem 1rem; border-radius: .3rem; }
.warning { border: 2px solid #b26a00; padding: .5rem 1rem; border-radius: .3rem; }
.notice { border: 2px solid #2e7d32; padding: .5rem 1rem; border-radius: .3rem; }
.meta { color: color-mix(in srgb, var(--text) 80%, var(--background)); }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); gap: 1rem; list-style: none; padding: 0; }
.card { border: 1px solid color-mix(in srgb, var(--text) 20%, transparent); border-radius: .5rem; overflow: hidden; display: flex; flex-direction: column; }
.card .cover { aspect-ratio: 16 / 9; width: 100%; object-fit: cover; display: block; background: linear-gradient(135deg, var(--primary), var(--accent)); }
.card .body { padding: .5rem 1rem 1rem; }
.card h2, .card h3 { font-size: 1.1rem; margin: .25rem 0; }
.price { font-weight: 700; }
.search { display: flex; flex-wrap: wrap; gap: .75rem; align-items: end; }
.search p { margin: 0; flex: 1 1 12rem; }
.search p.submit { flex: 0 0 auto; }
.pager { display: flex; justify-content: space-between; gap: 1rem; margin: 1.5rem 0; }
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
.lead { font-size: 1.2rem; margin-top: 0; }
.badge { display: inline-block; font-size: .85rem; font-weight: 700; padding: 0 .4rem; border-radius: .25rem; border: 1px solid var(--accent); color: var(--accent); }
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
.state.done { color: #2e7d32; }
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
.right { color: #2e7d32; font-weight: 600; }
.wrong { color: #c62828; font-weight: 600; }
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
button.secondary { background: transparent; color: var(--primary); }
button.danger { background: #b3261e; border-color: #b3261e; color: #fff; }
.field-error { color: #b3261e; font-weight: 600; flex-basis: 100%; }
.page-form { border-top: 1px solid color-mix(in srgb, var(--text) 20%, transparent); margin-top: 2rem; }
.page-form fieldset { border: 1px solid color-mix(in srgb, var(--text) 25%, transparent); border-radius: .4rem; margin: 0 0 1rem; max-width: 24rem; }
.page-form legend { font-weight: 600; padding: 0 .25rem; }
.page-form .help, .page-form .field-error { display: block; }
.hp { position: absolute; left: -999rem; width: 1px; height: 1px; overflow: hidden; }
.test-banner { border-color: #b3261e; }
.account-part { border-top: 1px solid color-mix(in srgb, var(--text) 20%, transparent); margin-top: 1.5rem; max-width: 40rem; }
.account-part h2 { font-size: 1.2rem; margin: 1rem 0 .5rem; }
.account-list { list-style: none; padding: 0; }
.account-list li { margin: .5rem 0; }
.account-list .meta { display: block; }
.account-list form { margin-top: .25rem; }
footer { margin-top: 3rem; font-size: .9rem; border-top: 1px solid color-mix(in srgb, var(--text) 25%, transparent); }
.footer-nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; list-style: none; margin: 1rem 0 0; padding: 0; }
.footer-nav a { display: inline-block; padding: .25rem 0; }
`;

export function registerAssetRoutes(app: FastifyInstance) {
  app.get('/assets/site.css', { config: { public: true } }, async (_req, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(SITE_CSS),
  );
}
