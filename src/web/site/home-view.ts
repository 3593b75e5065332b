import type { Course } from '../../areas/courses/schema.ts';
import type { Post } from '../../areas/posts/schema.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { courseCards } from '../shared/course-cards.ts';
import { paragraphs } from '../shared/text.ts';
import { postItems } from './posts-view.ts';

export type HomeData = {
  description: string;
  featured: Course[];
  newest: Course[];
  posts: Post[];
  locale: string;
};

/** The school's front page: what it is, its most enrolled courses, its newest courses and its latest posts. */
export function homeView(data: HomeData): SafeHtml {
  const section = (id: string, title: string, content: SafeHtml, more?: SafeHtml) =>
    html`<section aria-labelledby="${id}"><h2 id="${id}">${title}</h2>${content}${more ?? ''}</section>`;
  return html`${data.description ? paragraphs(data.description) : ''}
${data.featured.length ? section('featured-heading', 'Popular courses', courseCards(data.featured, data.locale, 'h3')) : ''}
${section(
  'newest-heading',
  'New courses',
  data.newest.length ? courseCards(data.newest, data.locale, 'h3') : html`<p>No courses are published yet.</p>`,
  html`<p><a href="/courses">All courses</a></p>`,
)}
${data.posts.length ? section('posts-heading', 'Latest posts', postItems(data.posts, 'h3'), html`<p><a href="/posts">All posts</a></p>`) : ''}`;
}
