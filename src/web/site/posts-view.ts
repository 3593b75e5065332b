import type { Post } from '../../areas/posts/schema.ts';
import type { SchoolDates } from '../../text/dates.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { NO_PICTURES, type Pictures, picture } from '../shared/picture.ts';
import { summary } from '../shared/text.ts';
import { pager } from './catalog-view.ts';

export const postPath = (slug: string) => `/posts/${encodeURIComponent(slug)}`;

/** A post's feature image in a list: a small 16:9 picture above its title. */
const LIST_SIZES = '(min-width: 40rem) 20rem, 100vw';

/** Posts as a list of feature image, title, date and excerpt; `heading` is the level of each title. */
export function postItems(
  posts: Post[],
  dates: SchoolDates,
  heading: 'h2' | 'h3' = 'h2',
  pictures: Pictures = NO_PICTURES,
): SafeHtml {
  return html`<ul class="posts">${posts.map((p) => {
    const title = html`<a href="${postPath(p.slug)}">${p.title}</a>`;
    const cover = p.cover_url
      ? picture({
          src: p.cover_url,
          alt: '',
          sizes: LIST_SIZES,
          facts: pictures.facts(p.cover_url),
          ratio: [16, 9],
          className: 'post-cover',
        })
      : '';
    return html`<li>${cover}${heading === 'h2' ? html`<h2>${title}</h2>` : html`<h3>${title}</h3>`}${
      p.published_at
        ? html`<p class="meta"><time datetime="${p.published_at}">${dates.day(p.published_at)}</time></p>`
        : ''
    }<p>${p.excerpt || summary(p.body)}</p></li>`;
  })}</ul>`;
}

export function postListView(data: {
  posts: Post[];
  dates: SchoolDates;
  previousHref: string | null;
  nextHref: string | null;
  pictures?: Pictures;
}) {
  if (!data.posts.length) return html`<p>No posts yet.</p>`;
  return html`${postItems(data.posts, data.dates, 'h2', data.pictures)}${pager(data.previousHref, data.nextHref)}`;
}
