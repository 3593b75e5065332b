/**
 * The CSS of the two pages that sell, part of site.css: the home page's hero and its bands of courses, lecturers,
 * events and posts; the course page's head (cover or trailer, title, facts), its sections (what you will learn, who
 * it is for, requirements, the curriculum accordion, lecturers) and its buy box — beside the content and staying in
 * view on a wide screen, a bar fixed to the bottom on a phone.
 */
export const SHOWCASE_CSS = `
.hero-band { background: linear-gradient(180deg, var(--surface-strong), var(--background)); border-bottom: 1px solid var(--border); }
.hero-band .wrap { padding-block: var(--space-xl) var(--space-xl); display: grid; gap: var(--space-l); align-items: center; }
@media (min-width: 56rem) { .hero-band .wrap { grid-template-columns: minmax(0, 7fr) minmax(0, 5fr); padding-block: var(--space-2xl); } }
.hero-band h1 { font-size: var(--step-5); margin: 0 0 var(--space-s); max-width: 20ch; }
.hero-band .lead { margin-bottom: var(--space-m); }
.hero-band .actions { display: flex; flex-wrap: wrap; gap: var(--space-xs); align-items: center; margin: 0; }
.hero-band .wrap:not(:has(.hero-art)) { grid-template-columns: 1fr; text-align: center; justify-items: center; }
.hero-band .wrap:not(:has(.hero-art)) :is(h1, .lead) { margin-inline: auto; }
.hero-band .wrap:not(:has(.hero-art)) .actions { justify-content: center; }
.hero-art { display: none; }
@media (min-width: 56rem) { .hero-art { display: block; } }
.hero-art .pic, .hero-art img, .hero-art .cover { border-radius: var(--radius); box-shadow: var(--shadow); aspect-ratio: 4 / 3; width: 100%; object-fit: cover; }
.hero-art .cover { background: linear-gradient(135deg, var(--primary), var(--accent)); }
.greeting { margin: var(--space-s) 0 0; color: var(--muted); }
.people-cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(14rem, 100%), 1fr)); gap: var(--space-m); list-style: none; padding: 0; margin: var(--space-s) 0 var(--space-m); }
.people-cards > li { max-width: none; }
.person { display: flex; gap: var(--space-s); align-items: center; position: relative; }
.person .portrait, .person .pic { width: 4.5rem; height: 4.5rem; flex: none; border-radius: 50%; object-fit: cover; background: var(--surface-strong); display: grid; place-items: center; font-family: var(--heading-font); font-size: var(--step-2); color: var(--link); overflow: hidden; }
.person p { margin: 0; }
.person .name { font-weight: 700; font-size: var(--step-1); font-family: var(--heading-font); line-height: 1.25; }
.person .name a { color: var(--text); text-decoration: none; }
.person .name a::after { content: ""; position: absolute; inset: 0; }
.person .name a:hover { text-decoration: underline; }
.event-cards .date { display: flex; gap: var(--space-xs); align-items: baseline; }

.course-top { background: var(--surface); border-bottom: 1px solid var(--border); }
.course-top .wrap { padding-block: var(--space-l); display: grid; gap: var(--space-m) var(--space-xl); }
.course-top h1 { margin: 0 0 var(--space-2xs); font-size: var(--step-4); }
.course-top .lead { margin-bottom: var(--space-s); }
.course-facts { display: flex; flex-wrap: wrap; gap: var(--space-2xs) var(--space-m); list-style: none; padding: 0; margin: 0; color: var(--muted); font-size: var(--step--1); }
.course-facts li { max-width: none; }
.course-facts strong { color: var(--text); }
.course-media .pic, .course-media img, .course-media video, .course-media .cover { display: block; width: 100%; aspect-ratio: 16 / 9; object-fit: cover; border-radius: var(--radius); background: linear-gradient(135deg, var(--primary), var(--accent)); }
.course-media video { background: #000; }
@media (min-width: 56rem) { .course-top .wrap { grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); align-items: center; } .course-media { order: 2; } }
.course-layout { display: grid; gap: var(--space-l); padding-top: var(--space-m); }
.course-layout > div > section:first-child > h2 { margin-top: var(--space-s); }
@media (min-width: 56rem) { .course-layout { grid-template-columns: minmax(0, 1fr) 21rem; gap: var(--space-xl); align-items: start; } }
.checks { list-style: none; padding: 0; display: grid; gap: var(--space-2xs) var(--space-m); }
.outcomes .checks { grid-template-columns: repeat(auto-fill, minmax(min(17rem, 100%), 1fr)); border: 1px solid var(--border); border-radius: var(--radius); padding: var(--space-s) var(--space-m); background: var(--surface); }
.checks li { position: relative; padding-left: 1.75rem; }
.checks li::before { content: ""; position: absolute; left: .15rem; top: .5em; width: .85rem; height: .45rem; border-left: 2px solid var(--success); border-bottom: 2px solid var(--success); transform: rotate(-45deg); }
.bullets li::before { border: 0; width: .45rem; height: .45rem; border-radius: 50%; background: var(--accent-text); transform: none; top: .6em; left: .4rem; }
.curriculum-summary { color: var(--muted); margin-top: 0; }
.accordion { border: 1px solid var(--border); border-radius: var(--radius); overflow: hidden; margin-bottom: var(--space-m); }
.accordion details + details { border-top: 1px solid var(--border); }
.accordion summary { display: flex; gap: var(--space-s); justify-content: space-between; align-items: baseline; padding: var(--space-xs) var(--space-s); cursor: pointer; background: var(--surface); font-weight: 600; list-style: none; }
.accordion summary::-webkit-details-marker { display: none; }
.accordion summary::before { content: ""; flex: none; align-self: center; width: .5rem; height: .5rem; border-right: 2px solid currentColor; border-bottom: 2px solid currentColor; transform: rotate(-45deg); transition: transform .15s; margin-right: var(--space-3xs); }
.accordion details[open] > summary::before { transform: rotate(45deg); }
.accordion summary .title { flex: 1; }
.accordion summary .meta { font-weight: 400; white-space: nowrap; }
.accordion summary:hover { background: var(--surface-strong); }
.course-layout .accordion ol { list-style: none; margin: 0; padding: 0; }
.course-layout .accordion li { display: flex; margin: 0; flex-wrap: wrap; gap: var(--space-3xs) var(--space-xs); align-items: baseline; padding: var(--space-2xs) var(--space-s) var(--space-2xs) 2.35rem; border-top: 1px solid var(--border); max-width: none; }
.accordion li .lesson-title { flex: 1 1 12rem; }
.accordion li a { text-decoration: none; font-weight: 600; }
.accordion li a:hover { text-decoration: underline; }
.accordion li .meta { white-space: nowrap; }
.lecturer-card { display: grid; grid-template-columns: auto 1fr; gap: var(--space-s) var(--space-m); align-items: start; border: 1px solid var(--border); border-radius: var(--radius); padding: var(--space-m); margin-bottom: var(--space-s); }
.lecturer-card .portrait, .lecturer-card .pic { width: 6rem; height: 6rem; border-radius: 50%; object-fit: cover; background: var(--surface-strong); display: grid; place-items: center; font-family: var(--heading-font); font-size: var(--step-3); color: var(--link); overflow: hidden; }
.lecturer-card h3 { margin: 0; }
.lecturer-card p { margin: var(--space-3xs) 0 0; }
.buy-box { border: 1px solid var(--border); border-radius: var(--radius); padding: var(--space-m); background: var(--background); box-shadow: var(--shadow); }
.buy-box > :first-child { margin-top: 0; }
.buy-box .price { font-size: var(--step-3); margin: 0 0 var(--space-xs); font-family: var(--heading-font); }
.buy-box .button, .buy-box button { width: 100%; }
.buy-box ul { list-style: none; padding: 0; margin: var(--space-s) 0 0; font-size: var(--step--1); color: var(--muted); display: grid; gap: var(--space-3xs); }
.buy-box form { margin: 0; }
@media (min-width: 56rem) { .buy-box { position: sticky; top: var(--space-s); } }
@media (max-width: 55.99rem) {
  .buy-box { position: fixed; inset: auto 0 0 0; z-index: 5; border-radius: 0; border-width: 1px 0 0; padding: var(--space-xs) var(--space-s); display: flex; align-items: center; gap: var(--space-s); box-shadow: 0 -4px 16px rgb(0 0 0 / 12%); }
  .buy-box .price { font-size: var(--step-1); margin: 0; white-space: nowrap; }
  .buy-box > p, .buy-box > form { margin: 0; }
  .buy-box > :is(p, form):has(.button, button) { flex: 1; }
  .buy-box ul, .buy-box .note { display: none; }
  body:has(.buy-box) .site-footer { padding-bottom: 7rem; }
}
`;
