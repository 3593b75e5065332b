import type { Course } from '../../areas/courses/schema.ts';
import type { Lesson } from '../../areas/curriculum/schema.ts';
import { formatDuration } from '../../discovery/catalog-text.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { coursePath } from '../shared/course-cards.ts';
import { lessonMedia } from '../shared/lesson-player.ts';
import { markdownHtml } from '../shared/markdown.ts';

const MEDIA: Record<string, string> = {
  video: 'Watch the video',
  audio: 'Listen to the recording',
  pdf: 'Open the PDF',
  download: 'Download the file',
  embed: 'Open the embedded material',
};

/**
 * One lesson of a course on the public site: a free preview's content, or — for a lesson that is not a preview — a
 * note that it opens on enrolling. Lesson bodies are plain text here (embed code is never inserted as HTML); a video,
 * audio or PDF plays or opens in the page as in the player (nothing is recorded here), other files are linked.
 */
export function lessonView(data: { course: Course; lesson: Lesson }): SafeHtml {
  const { course, lesson } = data;
  const facts = [
    lesson.type,
    lesson.duration_s ? formatDuration(lesson.duration_s) : '',
    lesson.is_preview ? 'free preview' : '',
  ]
    .filter(Boolean)
    .join(', ');
  const back = html`<p><a href="${coursePath(course.slug)}">← Back to ${course.title}</a></p>`;
  if (lesson.locked || lesson.body === null)
    return html`<p class="meta">${facts}</p>
<p class="notice">This lesson is part of the course. Enroll in <a href="${coursePath(course.slug)}">${course.title}</a> to open it.</p>
${back}`;
  const media =
    lessonMedia(lesson) ??
    (lesson.asset_url
      ? html`<p><a class="button" href="${lesson.asset_url}">${MEDIA[lesson.type] ?? 'Open the material'}</a></p>`
      : '');
  const body = lesson.type === 'embed' ? '' : markdownHtml(lesson.body);
  return html`<p class="meta">${facts}</p>${media}<article>${body}</article>${back}`;
}
