import type { Appearance } from '../../areas/appearance/schema.ts';
import type { Course } from '../../areas/courses/schema.ts';
import type { Event } from '../../areas/events/schema.ts';
import type { Lecturer } from '../../areas/lecturers/schema.ts';
import type { Post } from '../../areas/posts/schema.ts';
import type { SchoolDates } from '../../text/dates.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { courseCards } from '../shared/course-cards.ts';
import { markdownText } from '../shared/markdown.ts';
import { NO_PICTURES, type Pictures, picture } from '../shared/picture.ts';
import { portrait } from '../shared/portrait.ts';
import { summary } from '../shared/text.ts';
import { lecturerPath } from './course-view.ts';
import { eventPath, eventTime } from './events-view.ts';
import { postItems } from './posts-view.ts';

export type HomeSection = Appearance['home']['sections'][number];

export type HomeData = {
  schoolName: string;
  description: string;
  home: Appearance['home'];
  /** The courses the owner features, or else the most enrolled, or else the newest. */
  featured: Course[];
  newest: Course[];
  lecturers: Lecturer[];
  events: Event[];
  posts: Post[];
  locale: string;
  dates: SchoolDates;
  /** Who is looking, for a word of welcome under the hero; undefined when signed out. */
  greeting?: string;
  /** The facts of the page's pictures: covers, portraits, feature images (web/shared/pictures.ts). */
  pictures?: Pictures;
};

/** The first letter of a name, shown where a person has no portrait. */
const initial = (name: string) => name.trim().charAt(0).toUpperCase() || '?';

/** The hero: the school's promise as the page's heading, a sentence under it, and the owner's call to action. */
export function homeHero(data: HomeData): SafeHtml {
  const { home } = data;
  const headline = home.headline || data.schoolName;
  const text = home.text || summary(markdownText(data.description), 280);
  // Lazy: the picture shows on wide screens only, and a phone should not fetch what it does not show.
  const art = data.featured.find((c) => c.cover_url);
  return html`<section class="hero-band" aria-labelledby="hero-heading"><div class="wrap"><div>
${home.headline ? html`<p class="eyebrow">${data.schoolName}</p>` : ''}<h1 id="hero-heading">${headline}</h1>
${text ? html`<p class="lead">${text}</p>` : ''}<p class="actions"><a class="button large" href="${home.call_to_action.url}">${home.call_to_action.label}</a>${
    data.greeting ? '' : html` <a class="button quiet large" href="/signup">Create a free account</a>`
  }</p>${data.greeting ? html`<p class="greeting">${data.greeting}</p>` : ''}</div>${
    art
      ? html`<div class="hero-art">${picture({
          src: art.cover_url ?? '',
          alt: '',
          sizes: '(min-width: 72rem) 28rem, 40vw',
          facts: (data.pictures ?? NO_PICTURES).facts(art.cover_url),
          ratio: [4, 3],
        })}</div>`
      : ''
  }</div></section>`;
}

function band(id: string, title: string, content: SafeHtml, more?: { href: string; label: string }): SafeHtml {
  return html`<section class="band" aria-labelledby="${id}"><div class="band-head"><h2 id="${id}">${title}</h2>${
    more ? html`<a href="${more.href}">${more.label} <span aria-hidden="true">→</span></a>` : ''
  }</div>${content}</section>`;
}

function lecturerCards(lecturers: Lecturer[], pictures: Pictures): SafeHtml {
  return html`<ul class="people-cards">${lecturers.map(
    (l) =>
      html`<li class="person">${
        l.avatar_url
          ? portrait(l, pictures, 'portrait')
          : html`<span class="portrait" aria-hidden="true">${initial(l.name)}</span>`
      }<div><p class="name"><a href="${lecturerPath(l.id)}">${l.name}</a></p>${
        l.title ? html`<p class="meta">${l.title}</p>` : ''
      }</div></li>`,
  )}</ul>`;
}

function eventCards(events: Event[], locale: string): SafeHtml {
  return html`<ul class="cards event-cards">${events.map(
    (
      e,
    ) => html`<li class="card"><div class="body"><h3><a class="card-link" href="${eventPath(e.slug)}">${e.title}</a></h3>
<p class="meta">${eventTime(e, locale)}</p>${e.status === 'live' ? html`<p><span class="badge">Live now</span></p>` : ''}</div></li>`,
  )}</ul>`;
}

/**
 * The parts of the home page under the hero, in the order the owner chose (appearance `home.sections`); a part with
 * nothing to show is left out, and a school with nothing at all says so.
 */
export function homeView(data: HomeData): SafeHtml {
  const pictures = data.pictures ?? NO_PICTURES;
  const parts: Record<HomeSection, () => SafeHtml | ''> = {
    featured_courses: () =>
      data.featured.length
        ? band('featured-heading', 'Featured courses', courseCards(data.featured, data.locale, 'h3', pictures), {
            href: '/courses',
            label: 'All courses',
          })
        : '',
    new_courses: () =>
      data.newest.length
        ? band('newest-heading', 'New courses', courseCards(data.newest, data.locale, 'h3', pictures), {
            href: '/courses',
            label: 'All courses',
          })
        : '',
    lecturers: () =>
      data.lecturers.length
        ? band('lecturers-heading', 'Meet the lecturers', lecturerCards(data.lecturers, pictures), {
            href: '/lecturers',
            label: 'All lecturers',
          })
        : '',
    events: () =>
      data.events.length
        ? band('events-heading', 'Upcoming events', eventCards(data.events, data.locale), {
            href: '/events',
            label: 'All events',
          })
        : '',
    posts: () =>
      data.posts.length
        ? band('posts-heading', 'Latest posts', postItems(data.posts, data.dates, 'h3', pictures), {
            href: '/posts',
            label: 'All posts',
          })
        : '',
  };
  const shown = data.home.sections.map((section) => parts[section]()).filter((part) => part !== '');
  if (!shown.length && !data.featured.length && !data.newest.length)
    return html`<div class="empty band"><p>No courses are published yet.</p><p>Come back soon.</p></div>`;
  return html`${shown}`;
}
