import { html, type SafeHtml } from '../../text/html.ts';
import { csrfField } from '../shared/layout.ts';

export type DraftLesson = { id: string; title: string; status: string };
export type DraftSection = { id: string; title: string; status: string; lessons: DraftLesson[] };

/** A lesson the last publishing refused, with why in a person's words. */
export type RefusedLesson = { id: string; title: string };

const lessonLink = (lesson: DraftLesson | RefusedLesson) =>
  html`<a href="/admin/lessons/${lesson.id}">${lesson.title || 'Untitled lesson'}</a>`;

/**
 * What of a course is still a draft (the course, its sections, their lessons), and one button that publishes the
 * course with all of them. A section still a draft hides every lesson in it, so it is listed with its lessons.
 */
export function courseDraftsView(opts: {
  coursePath: string;
  course: { title: string; status: string };
  sections: DraftSection[];
  refused?: { message: string; lessons: RefusedLesson[] };
  csrf: string;
}): SafeHtml {
  const { course, sections, refused } = opts;
  const draftSections = sections.filter(
    (s) => s.status === 'draft' || s.lessons.some((lesson) => lesson.status === 'draft'),
  );
  const lessonCount = sections.reduce((n, s) => n + s.lessons.length, 0);
  const nothingLeft = course.status === 'published' && draftSections.length === 0;
  const back = html`<p><a href="${opts.coursePath}">Back to the course</a> · <a href="${opts.coursePath}/curriculum">Curriculum</a></p>`;
  const problem = refused
    ? html`<div class="error" role="alert"><p>${refused.message}</p>${
        refused.lessons.length
          ? html`<ul>${refused.lessons.map(
              (lesson) =>
                html`<li>${lessonLink(lesson)} has nothing in it yet: add its text, file or questions, or delete it.</li>`,
            )}</ul>`
          : ''
      }</div>`
    : '';
  const list = draftSections.length
    ? html`<ul class="drafts">${draftSections.map((section) => {
        const drafts = section.lessons.filter((lesson) => lesson.status === 'draft');
        return html`<li><a href="/admin/sections/${section.id}">${section.title || 'Untitled section'}</a> <span class="meta">${
          section.status === 'draft' ? 'section still a draft' : 'section published'
        }</span>${
          drafts.length
            ? html`<ul>${drafts.map((lesson) => html`<li>${lessonLink(lesson)} <span class="meta">lesson still a draft</span></li>`)}</ul>`
            : ''
        }</li>`;
      })}</ul>`
    : html`<p class="meta">${lessonCount ? 'Every section and lesson is published.' : 'This course has no lessons yet.'}</p>`;
  const courseLine = html`<p>The course is <strong>${
    course.status === 'published' ? 'published' : course.status === 'archived' ? 'archived' : 'a draft'
  }</strong>.</p>`;
  const button =
    nothingLeft || lessonCount === 0
      ? lessonCount === 0
        ? html`<p>Add a lesson in the <a href="${opts.coursePath}/curriculum">curriculum</a> first: a course goes on sale only with something to learn in it.</p>`
        : ''
      : html`<form method="post" action="${opts.coursePath}/drafts">${csrfField(opts.csrf)}<p><button type="submit">Publish the course with its sections and lessons</button></p></form>`;
  return html`${back}${problem}${courseLine}${list}${button}`;
}
