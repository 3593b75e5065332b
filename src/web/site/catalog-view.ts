import type { Course } from '../../areas/courses/schema.ts';
import { html, SafeHtml } from '../../text/html.ts';
import { courseCards, coursePath, priceText } from '../shared/course-cards.ts';
import { CARD_SIZES, courseCover } from '../shared/course-cover.ts';
import { NO_PICTURES, type Pictures } from '../shared/picture.ts';
import { withQuery } from '../shared/site-deps.ts';

export type CatalogFilters = { q: string; lecturer: string; price: '' | 'free' | 'paid' };

export type CatalogData = {
  courses: Course[];
  filters: CatalogFilters;
  /** The lecturers the filter offers. */
  lecturers: { id: string; name: string }[];
  locale: string;
  previousHref: string | null;
  nextHref: string | null;
  /** With a search (`filters.q`): how many courses it found in all, on every page. */
  found?: number;
  /** The facts of the courses' uploaded covers (web/shared/pictures.ts). */
  pictures?: Pictures;
};

const option = (value: string, label: string, selected: string) =>
  html`<option value="${value}"${value === selected ? html` selected` : ''}>${label}</option>`;

/** Pagination links that work without JavaScript. */
export function pager(previousHref: string | null, nextHref: string | null): SafeHtml {
  if (!previousHref && !nextHref) return html``;
  return html`<nav class="pager" aria-label="Pages">${
    previousHref ? html`<a href="${previousHref}" rel="prev">← Previous</a>` : html`<span></span>`
  }${nextHref ? html`<a href="${nextHref}" rel="next">Next →</a>` : ''}</nav>`;
}

/** "12 courses for “watercolour”", the count in the school's way of writing numbers. */
const foundLine = (found: number, q: string, locale: string) =>
  html`<p class="catalog-count" role="status">${new Intl.NumberFormat(locale).format(found)} ${
    found === 1 ? 'course' : 'courses'
  } for “${q}”</p>`;

/**
 * A search's results, best first: the catalog's cards, each with the passage that says why it was found (the
 * search's snippet: already escaped, found words in <mark>), unless that passage is only its title.
 */
function results(courses: Course[], locale: string, pictures: Pictures): SafeHtml {
  return html`<ul class="cards search-results">${courses.map((c) => {
    const snippet = c.snippet && c.snippet.replace(/<\/?mark>/g, '') !== html`${c.title}`.value ? c.snippet : '';
    return html`<li class="card">${courseCover(c, pictures, { sizes: CARD_SIZES, className: 'cover' })}<div class="body"><h2><a class="card-link" href="${coursePath(c.slug)}">${c.title}</a></h2>${
      c.subtitle ? html`<p>${c.subtitle}</p>` : ''
    }${snippet ? html`<p class="snippet">${new SafeHtml(snippet)}</p>` : ''}<p class="price">${priceText(c, locale)}</p></div></li>`;
  })}</ul>`;
}

/** What to do when a search found nothing: other words, the same words without the other filters, or every course. */
function nothingFound(filters: CatalogFilters): SafeHtml {
  const narrowed = filters.lecturer || filters.price;
  return html`<div class="empty" role="status"><p>No courses match “${filters.q}”${narrowed ? ' with these filters' : ''}.</p>
<p>Check the spelling or try fewer or other words${
    narrowed ? html`, <a href="${withQuery('/courses', { q: filters.q })}">search every course</a>` : ''
  }, or <a href="/courses">see all courses</a>.</p></div>`;
}

/** The catalog: a search form (a plain GET form, so it works without JavaScript), the courses, and pagination. */
export function catalogView(data: CatalogData): SafeHtml {
  const { filters } = data;
  const filtered = filters.q || filters.lecturer || filters.price;
  const searched = filters.q !== '';
  const pictures = data.pictures ?? NO_PICTURES;
  const list = data.courses.length
    ? searched
      ? html`${foundLine(data.found ?? data.courses.length, filters.q, data.locale)}${results(data.courses, data.locale, pictures)}`
      : courseCards(data.courses, data.locale, 'h2', pictures)
    : searched
      ? nothingFound(filters)
      : html`<p>${filtered ? 'No courses match this search.' : 'No courses are published yet.'}</p>`;
  return html`<form class="search" method="get" action="/courses" role="search">
<p><label for="f-q">Search</label><input id="f-q" name="q" type="search" value="${filters.q}" maxlength="100"></p>
<p><label for="f-lecturer">Lecturer</label><select id="f-lecturer" name="lecturer">${option('', 'Any lecturer', filters.lecturer)}${data.lecturers.map((l) => option(l.id, l.name, filters.lecturer))}</select></p>
<p><label for="f-price">Price</label><select id="f-price" name="price">${option('', 'Any price', filters.price)}${option('free', 'Free', filters.price)}${option('paid', 'Paid', filters.price)}</select></p>
<p class="submit"><button type="submit">Search</button></p>
</form>
${list}
${pager(data.previousHref, data.nextHref)}`;
}
