import type { Course } from '../../areas/courses/schema.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { formatMoney } from '../../text/money.ts';
import { CARD_SIZES, courseCover } from './course-cover.ts';
import { NO_PICTURES, type Pictures } from './picture.ts';

export const coursePath = (slug: string) => `/courses/${encodeURIComponent(slug)}`;

/** A course's price as the school writes it: "Free", or the amount in the school's locale. */
export const priceText = (course: Pick<Course, 'price'>, locale: string) =>
  course.price ? formatMoney(course.price, locale) : 'Free';

/** Courses as a grid of cards: cover, title (the link), subtitle and price. */
export function courseCards(
  courses: Course[],
  locale: string,
  heading: 'h2' | 'h3' = 'h2',
  pictures: Pictures = NO_PICTURES,
): SafeHtml {
  return html`<ul class="cards">${courses.map((c) => {
    const title = html`<a class="card-link" href="${coursePath(c.slug)}">${c.title}</a>`;
    return html`<li class="card">${courseCover(c, pictures, { sizes: CARD_SIZES, className: 'cover' })}<div class="body">${heading === 'h2' ? html`<h2>${title}</h2>` : html`<h3>${title}</h3>`}${
      c.subtitle ? html`<p>${c.subtitle}</p>` : ''
    }<p class="price">${priceText(c, locale)}</p></div></li>`;
  })}</ul>`;
}
