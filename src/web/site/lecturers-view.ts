import type { Course } from '../../areas/courses/schema.ts';
import type { Lecturer } from '../../areas/lecturers/schema.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { courseCards } from '../shared/course-cards.ts';
import { markdownHtml, markdownText } from '../shared/markdown.ts';
import { NO_PICTURES, type Pictures } from '../shared/picture.ts';
import { portrait } from '../shared/portrait.ts';
import { summary } from '../shared/text.ts';
import { pager } from './catalog-view.ts';
import { lecturerPath } from './course-view.ts';

export function lecturerListView(data: {
  lecturers: Lecturer[];
  previousHref: string | null;
  nextHref: string | null;
  pictures?: Pictures;
}): SafeHtml {
  if (!data.lecturers.length) return html`<p>No lecturers yet.</p>`;
  const pictures = data.pictures ?? NO_PICTURES;
  return html`<ul class="people">${data.lecturers.map(
    (l) =>
      html`<li>${portrait(l, pictures)}<h2><a href="${lecturerPath(l.id)}">${l.name}</a></h2>${
        l.title ? html`<p class="meta">${l.title}</p>` : ''
      }${l.bio ? html`<p>${summary(markdownText(l.bio), 160)}</p>` : ''}</li>`,
  )}</ul>${pager(data.previousHref, data.nextHref)}`;
}

export function lecturerView(data: {
  lecturer: Lecturer;
  courses: Course[];
  locale: string;
  moreHref: string | null;
  pictures?: Pictures;
}) {
  const { lecturer } = data;
  const pictures = data.pictures ?? NO_PICTURES;
  return html`${lecturer.title ? html`<p class="lead">${lecturer.title}</p>` : ''}${portrait(lecturer, pictures)}${
    lecturer.bio ? markdownHtml(lecturer.bio) : ''
  }
<section aria-labelledby="courses-heading"><h2 id="courses-heading">Courses</h2>
${data.courses.length ? courseCards(data.courses, data.locale, 'h3', pictures) : html`<p>No published courses yet.</p>`}
${data.moreHref ? html`<p><a href="${data.moreHref}">All courses by ${lecturer.name}</a></p>` : ''}</section>`;
}
