import { html, type SafeHtml } from '../../text/html.ts';
import { csrfField } from '../shared/layout.ts';

export type BuilderLesson = { id: string; title: string; type: string; status: string };
export type BuilderSection = { id: string; title: string; status: string; lessons: BuilderLesson[] };

const LESSON_TYPES = ['text', 'video', 'audio', 'pdf', 'download', 'embed', 'quiz'] as const;

/**
 * The course builder: sections and their lessons in order. Every change is a small form (works without JavaScript,
 * and by keyboard: Move up / Move down, Move to a section); admin.js adds drag-and-drop on top, posting the same
 * forms' action with the new order.
 */
export function curriculumView(opts: {
  action: string;
  coursePath: string;
  sections: BuilderSection[];
  csrf: string;
}): SafeHtml {
  const { action, csrf } = opts;
  const post = (fields: Record<string, string>, label: string, extra = '') =>
    html`<form method="post" action="${action}" class="inline">${csrfField(csrf)}${Object.entries(fields).map(
      ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
    )}<button type="submit" class="small${extra}">${label}</button></form>`;
  const moveTargets = (lesson: BuilderLesson, from: BuilderSection) => {
    const others = opts.sections.filter((s) => s.id !== from.id);
    if (others.length === 0) return '';
    const id = `to-${lesson.id}`;
    return html`<form method="post" action="${action}" class="inline">${csrfField(csrf)}<input type="hidden" name="do" value="lesson-to-section"><input type="hidden" name="lesson" value="${lesson.id}"><label for="${id}" class="visually-hidden">Move “${lesson.title}” to</label><select id="${id}" name="to_section">${others.map(
      (s) => html`<option value="${s.id}">${s.title}</option>`,
    )}</select> <button type="submit" class="small">Move to section</button></form>`;
  };
  const lessonItem = (
    lesson: BuilderLesson,
    section: BuilderSection,
    i: number,
  ) => html`<li class="builder-lesson" draggable="true" data-id="${lesson.id}">
<span class="drag-handle" aria-hidden="true">⠿</span> <a href="/admin/lessons/${lesson.id}">${lesson.title || 'Untitled lesson'}</a> <span class="meta">${lesson.type} · ${lesson.status}</span>
<span class="builder-actions">${
    i > 0 ? post({ do: 'move-lesson', section: section.id, lesson: lesson.id, direction: 'up' }, 'Move up') : ''
  }${
    i < section.lessons.length - 1
      ? post({ do: 'move-lesson', section: section.id, lesson: lesson.id, direction: 'down' }, 'Move down')
      : ''
  }${moveTargets(lesson, section)}</span></li>`;
  const sectionItem = (
    section: BuilderSection,
    i: number,
  ) => html`<li class="builder-section" draggable="true" data-id="${section.id}">
<h2><span class="drag-handle" aria-hidden="true">⠿</span> <a href="/admin/sections/${section.id}">${section.title || 'Untitled section'}</a> <span class="meta">${section.status}</span></h2>
<div class="builder-actions">${i > 0 ? post({ do: 'move-section', section: section.id, direction: 'up' }, 'Move up') : ''}${
    i < opts.sections.length - 1
      ? post({ do: 'move-section', section: section.id, direction: 'down' }, 'Move down')
      : ''
  }</p>
<ol class="builder-lessons" data-sortable="lessons" data-section="${section.id}" aria-label="Lessons of ${section.title}">${section.lessons.map((l, j) => lessonItem(l, section, j))}</ol>
<form method="post" action="${action}" class="add-lesson">${csrfField(csrf)}<input type="hidden" name="do" value="add-lesson"><input type="hidden" name="section" value="${section.id}">
<label for="new-lesson-${section.id}">New lesson in “${section.title}”</label>
<span class="add-row"><input id="new-lesson-${section.id}" name="title" required maxlength="200">
<label for="new-type-${section.id}" class="visually-hidden">Type</label><select id="new-type-${section.id}" name="type">${LESSON_TYPES.map(
    (t) => html`<option>${t}</option>`,
  )}</select> <button type="submit">Add lesson</button></span></form>
</li>`;
  return html`<p><a href="${opts.coursePath}">Back to the course</a></p>
<p class="meta">Drag sections and lessons to reorder them, or use the Move buttons.</p>
<p class="visually-hidden" role="status" aria-live="polite" id="builder-status"></p>
<form id="builder-order" method="post" action="${action}" hidden>${csrfField(csrf)}</form>
<ol class="builder" data-sortable="sections" aria-label="Sections">${opts.sections.map(sectionItem)}</ol>
${opts.sections.length === 0 ? html`<p class="meta">No sections yet: add the first one.</p>` : ''}
<form method="post" action="${action}" class="add-section">${csrfField(csrf)}<input type="hidden" name="do" value="add-section">
<label for="new-section">New section</label><span class="add-row"><input id="new-section" name="title" required maxlength="200"> <button type="submit">Add section</button></span></form>`;
}
