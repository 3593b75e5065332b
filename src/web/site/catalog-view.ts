import type { Course } from '../../areas/courses/schema.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { courseCards } from '../shared/course-cards.ts';

export type CatalogFilters = { q: string; lecturer: string; price: '' | 'free' | 'paid' };

export type CatalogData = {
  courses: Course[];
  filters: CatalogFilters;
  /** The lecturers the filter offers. */
  lecturers: { id: string; name: string }[];
  locale: string;
  previousHref: string | null;
  nextHref: string | null;
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

/** The catalog: a search form (a plain GET form, so it works without JavaScript), the courses, and pagination. */
export function catalogView(data: CatalogData): SafeHtml {
  const { filters } = data;
  const filtered = filters.q || filters.lecturer || filters.price;
  return html`<form class="search" method="get" action="/courses" role="search">
<p><label for="f-q">Search</label><input id="f-q" name="q" type="search" value="${filters.q}" maxlength="100"></p>
<p><label for="f-lecturer">Lecturer</label><select id="f-lecturer" name="lecturer">${option('', 'Any lecturer', filters.lecturer)}${data.lecturers.map((l) => option(l.id, l.name, filters.lecturer))}</select></p>
<p><label for="f-price">Price</label><select id="f-price" name="price">${option('', 'Any price', filters.price)}${option('free', 'Free', filters.price)}${option('paid', 'Paid', filters.price)}</select></p>
<p class="submit"><button type="submit">Search</button></p>
</form>
${
  data.courses.length
    ? courseCards(data.courses, data.locale)
    : html`<p>${filtered ? 'No courses match this search.' : 'No courses are published yet.'}</p>`
}
${pager(data.previousHref, data.nextHref)}`;
}
