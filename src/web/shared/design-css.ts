/**
 * The design system of the public site, first part of site.css: the page's frame, type, links, buttons, cards,
 * badges, forms, notices and empty states, all drawn from the custom properties of /assets/theme.css (the school's
 * colours, fonts and theme: theme-tokens.ts). The values under :root here only stand in until that loads.
 *
 * Links are underlined in running text only (paragraphs, lists, tables); titles, cards, menus and buttons are not,
 * and show hover and keyboard focus by colour, underline or ring. Every interactive thing has a visible focus ring.
 */
export const DESIGN_CSS = `
:root {
  --primary: #1d4ed8; --accent: #c2410c; --background: #ffffff; --text: #1f2937; --surface: #f9fafb;
  --surface-strong: #eef2fc; --border: #dcdfe4; --border-strong: #8a9099; --muted: #4b5563; --link: #1d4ed8;
  --accent-text: #c2410c; --button: #1d4ed8; --on-button: #ffffff; --button-hover: #3a63e0; --badge: #c2410c;
  --on-badge: #ffffff; --focus: #1d4ed8; --danger: #b3261e; --success: #2e7d32; --warning: #9a5b00;
  --heading-font: system-ui, sans-serif; --body-font: system-ui, sans-serif; --heading-weight: 700;
  --heading-tracking: 0; --radius: .5rem; --radius-button: .375rem; --radius-badge: .25rem;
  --shadow: 0 1px 2px rgb(0 0 0 / 6%), 0 4px 12px rgb(0 0 0 / 6%);
  --step--1: .875rem; --step-0: 1rem; --step-1: 1.25rem; --step-2: 1.5rem; --step-3: 1.875rem; --step-4: 2.25rem; --step-5: 2.75rem;
  --space-3xs: .25rem; --space-2xs: .5rem; --space-xs: .75rem; --space-s: 1rem; --space-m: 1.5rem; --space-l: 2rem;
  --space-xl: 3rem; --space-2xl: 4.5rem; --measure: 68ch; --wide: 72rem;
}
*, *::before, *::after { box-sizing: border-box; }
html { font-family: var(--body-font); font-size: 100%; line-height: 1.6; background: var(--background); color: var(--text); -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; font-size: var(--step-0); overflow-wrap: anywhere; min-height: 100vh; display: flex; flex-direction: column; }
main { flex: 1 0 auto; }
h1, h2, h3, h4 { font-family: var(--heading-font); font-weight: var(--heading-weight); letter-spacing: var(--heading-tracking); line-height: 1.2; margin: var(--space-l) 0 var(--space-2xs); text-wrap: balance; overflow-wrap: normal; }
h1 { font-size: var(--step-4); margin-top: var(--space-l); }
h2 { font-size: var(--step-2); }
h3 { font-size: var(--step-1); }
h4 { font-size: var(--step-0); }
p, ul, ol, dl, table, blockquote, figure { margin: 0 0 var(--space-s); }
p, li { max-width: var(--measure); }
img, video, svg { max-width: 100%; height: auto; }
hr { border: 0; border-top: 1px solid var(--border); margin: var(--space-l) 0; }
code, pre, kbd { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: .9em; }
pre { overflow-x: auto; background: var(--surface); padding: var(--space-s); border-radius: var(--radius); }
blockquote { border-left: 3px solid var(--border-strong); padding-left: var(--space-s); color: var(--muted); }
::selection { background: color-mix(in srgb, var(--primary) 28%, transparent); }

/* Links: underlined in running text, not in titles, menus and cards; every one shows keyboard focus. */
a { color: var(--link); text-decoration-line: underline; text-decoration-thickness: .08em; text-underline-offset: .18em; }
a:hover { text-decoration-thickness: .14em; }
:is(h1, h2, h3, h4) a, nav a, .brand, .button { text-decoration: none; }
:is(h1, h2, h3, h4) a { color: inherit; }
:is(h1, h2, h3, h4) a:hover, nav a:hover { text-decoration: underline; text-decoration-thickness: .08em; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; border-radius: 2px; }
.skip { position: absolute; left: -999rem; z-index: 10; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.skip:focus { left: var(--space-s); top: var(--space-2xs); background: var(--background); padding: var(--space-3xs) var(--space-2xs); }

/* The frame: a bar with the school's name and menus, the page, a footer; content keeps to a readable width. */
.wrap { width: 100%; max-width: var(--wide); margin: 0 auto; padding: 0 var(--space-s); }
@media (min-width: 40rem) { .wrap { padding: 0 var(--space-m); } }
.site-header { border-bottom: 1px solid var(--border); background: var(--background); }
.site-header .bar { display: flex; flex-wrap: wrap; align-items: center; gap: var(--space-2xs) var(--space-m); padding-block: var(--space-xs); }
.brand { font-family: var(--heading-font); font-weight: var(--heading-weight); font-size: var(--step-1); color: var(--text); letter-spacing: var(--heading-tracking); line-height: 1.2; }
.brand .logo { max-height: 2.5rem; width: auto; display: block; }
.site-header nav ul { display: flex; gap: var(--space-3xs) var(--space-s); list-style: none; margin: 0; padding: 0; }
.site-header nav li { max-width: none; }
.site-header nav a { color: var(--text); display: inline-block; padding: var(--space-3xs) 0; white-space: nowrap; }
.site-header nav a[aria-current="page"] { color: var(--link); text-decoration: underline; text-decoration-thickness: 2px; text-underline-offset: .4em; }
.site-nav { order: 3; flex: 1 0 100%; overflow-x: auto; scrollbar-width: none; margin: 0 calc(-1 * var(--space-s)); padding: 0 var(--space-s); }
.site-header .account { margin-left: auto; display: flex; flex-wrap: wrap; justify-content: flex-end; gap: var(--space-3xs) var(--space-s); align-items: center; font-size: var(--step--1); }
.site-header .account a { color: var(--text); }
.site-header .account a.button { display: inline-flex; color: var(--on-button); min-height: 2.25rem; padding: .3rem .9rem; }
@media (max-width: 29.99rem) { .site-header .account a.button { display: none; } }
@media (min-width: 56rem) {
  .site-nav { order: 0; flex: 1 1 auto; overflow: visible; margin: 0; padding: 0; }
  .site-header .account { margin-left: 0; }
}
.page { padding-bottom: var(--space-xl); }
.page > h1:first-child { margin-top: var(--space-l); }
.site-footer { margin-top: var(--space-xl); padding: var(--space-l) 0 var(--space-xl); background: var(--surface); border-top: 1px solid var(--border); font-size: var(--step--1); color: var(--muted); }
.site-footer p { margin: var(--space-s) 0 0; }
.footer-nav ul { display: flex; flex-wrap: wrap; gap: var(--space-3xs) var(--space-m); list-style: none; margin: 0; padding: 0; }
.footer-nav a { display: inline-block; padding: var(--space-3xs) 0; color: var(--text); }
.lead { font-size: var(--step-1); line-height: 1.45; color: var(--muted); margin-top: 0; max-width: 40rem; }
.meta { color: var(--muted); font-size: var(--step--1); }
.eyebrow { font-size: var(--step--1); font-weight: 600; letter-spacing: .06em; text-transform: uppercase; color: var(--accent-text); margin: 0 0 var(--space-2xs); }

/* Buttons: one filled, one outlined, one quiet; each with hover, focus, pressed and disabled states. */
button, .button { font: inherit; font-weight: 600; line-height: 1.25; display: inline-flex; align-items: center; justify-content: center; gap: var(--space-2xs); min-height: 2.75rem; padding: .6rem 1.25rem; cursor: pointer; border-radius: var(--radius-button); border: 2px solid var(--button); background: var(--button); color: var(--on-button); text-decoration: none; text-align: center; transition: background-color .15s, border-color .15s, color .15s, transform .05s; }
button:hover, .button:hover { background: var(--button-hover); border-color: var(--button-hover); }
button:active, .button:active { transform: translateY(1px); }
button:disabled, button[aria-disabled="true"] { cursor: not-allowed; background: transparent; color: var(--muted); border-color: var(--border); transform: none; }
button.secondary, .button.secondary { background: transparent; color: var(--link); border-color: currentColor; }
button.secondary:hover, .button.secondary:hover { background: var(--surface-strong); }
.button.quiet { background: transparent; border-color: transparent; color: var(--link); padding-inline: .5rem; }
.button.large { font-size: var(--step-1); padding: .75rem 1.75rem; min-height: 3.25rem; }
.button.block { display: flex; width: 100%; }
button.danger { background: var(--danger); border-color: var(--danger); color: #fff; }

/* Forms. */
label { display: block; font-weight: 600; margin-bottom: var(--space-3xs); }
input, select, textarea { font: inherit; color: var(--text); background: var(--background); padding: .55rem .7rem; width: 100%; max-width: 26rem; border: 1px solid var(--border-strong); border-radius: calc(var(--radius-button) * .75); min-height: 2.75rem; }
input:hover, select:hover, textarea:hover { border-color: var(--text); }
input[type="checkbox"], input[type="radio"] { width: 1.15rem; height: 1.15rem; min-height: 0; accent-color: var(--button); }
input:disabled, select:disabled, textarea:disabled { opacity: .6; cursor: not-allowed; }
input[aria-invalid="true"] { border-color: var(--danger); }

/* Notices, errors and the empty state. */
.error, .warning, .notice { border: 1px solid; border-left-width: 4px; padding: var(--space-xs) var(--space-s); border-radius: var(--radius); background: var(--surface); }
.error { border-color: var(--danger); }
.warning { border-color: var(--warning); }
.notice { border-color: var(--success); }
.error > :last-child, .warning > :last-child, .notice > :last-child { margin-bottom: 0; }
.empty { border: 1px dashed var(--border-strong); border-radius: var(--radius); padding: var(--space-l) var(--space-m); text-align: center; color: var(--muted); background: var(--surface); }
.empty p { margin: 0 auto var(--space-2xs); }
.field-error { color: var(--danger); font-weight: 600; flex-basis: 100%; }

/* Badges: small labels on cards and lessons. */
.badge { display: inline-block; font-family: var(--body-font); font-size: var(--step--1); font-weight: 600; line-height: 1.4; letter-spacing: .01em; padding: .05rem .55rem; border-radius: var(--radius-badge); background: var(--badge); color: var(--on-badge); white-space: nowrap; vertical-align: .1em; }
.badge.quiet { background: var(--surface-strong); color: var(--text); }
.badge.outline { background: transparent; color: var(--accent-text); box-shadow: inset 0 0 0 1px currentColor; }

/* Cards: a whole card is one link when it has a .card-link (its title's link covers the card). */
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(16.5rem, 100%), 1fr)); gap: var(--space-m); list-style: none; padding: 0; margin: var(--space-s) 0 var(--space-m); }
.cards > li { max-width: none; }
.card { position: relative; border: 1px solid var(--border); border-radius: var(--radius); overflow: hidden; display: flex; flex-direction: column; background: var(--background); transition: box-shadow .2s, transform .2s, border-color .2s; }
.card:has(.card-link:hover) { box-shadow: var(--shadow); transform: translateY(-2px); border-color: var(--border-strong); }
.card:has(.card-link:focus-visible) { outline: 3px solid var(--focus); outline-offset: 2px; }
.card .card-link:focus-visible { outline: none; }
.card .card-link::after { content: ""; position: absolute; inset: 0; z-index: 1; }
.card .cover { aspect-ratio: 16 / 9; width: 100%; object-fit: cover; display: block; background: linear-gradient(135deg, var(--primary), var(--accent)); }
.card .body { padding: var(--space-s) var(--space-s) var(--space-m); display: flex; flex-direction: column; gap: var(--space-3xs); flex: 1; }
.card .body > * { margin: 0; }
.card h2, .card h3 { font-size: var(--step-1); margin: 0; }
.card h2 a, .card h3 a { color: var(--text); }
.card .body .price { margin-top: auto; padding-top: var(--space-2xs); }
.price { font-weight: 700; font-variant-numeric: tabular-nums; }

/* Sections of a page, with a heading and a link to more on one line. */
.band { padding: var(--space-xl) 0 var(--space-s); }
.band-head { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: baseline; gap: var(--space-2xs) var(--space-m); }
.band-head h2 { margin: 0; font-size: var(--step-3); }
.band-head a { font-weight: 600; text-decoration: none; white-space: nowrap; }
.band-head a:hover { text-decoration: underline; }
.pager { display: flex; justify-content: space-between; gap: var(--space-s); margin: var(--space-m) 0; }
.pager a { font-weight: 600; text-decoration: none; padding: var(--space-2xs) 0; }
`;
