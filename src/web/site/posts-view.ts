import type { Post } from '../../areas/posts/schema.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { day, summary } from '../shared/text.ts';
import { pager } from './catalog-view.ts';

export const postPath = (slug: string) => `/posts/${encodeURIComponent(slug)}`;

/** Posts as a list of title, date and excerpt; `heading` is the level of each title. */
export function postItems(posts: Post[], heading: 'h2' | 'h3' = 'h2'): SafeHtml {
  return html`<ul class="posts">${posts.map((p) => {
    const title = html`<a href="${postPath(p.slug)}">${p.title}</a>`;
    return html`<li>${heading === 'h2' ? html`<h2>${title}</h2>` : html`<h3>${title}</h3>`}${
      p.published_at ? html`<p class="meta"><time datetime="${p.published_at}">${day(p.published_at)}</time></p>` : ''
    }<p>${p.excerpt || summary(p.body)}</p></li>`;
  })}</ul>`;
}

export function postListView(data: { posts: Post[]; previousHref: string | null; nextHref: string | null }) {
  if (!data.posts.length) return html`<p>No posts yet.</p>`;
  return html`${postItems(data.posts)}${pager(data.previousHref, data.nextHref)}`;
}
