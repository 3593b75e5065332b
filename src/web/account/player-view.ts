import type { Course } from '../../areas/courses/schema.ts';
import type { Lesson, QuizAttempt, Section } from '../../areas/curriculum/schema.ts';
import type { Progress } from '../../areas/students/schema.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { csrfField } from '../shared/layout.ts';
import { lessonMedia, type Resume } from '../shared/lesson-player.ts';
import { markdownHtml } from '../shared/markdown.ts';

export const learnPath = (slug: string) => `/learn/${encodeURIComponent(slug)}`;
export const playerPath = (slug: string, lessonId: string) => `${learnPath(slug)}/${encodeURIComponent(lessonId)}`;

export type PlayerOutline = { section: Section; lessons: Lesson[] }[];

/** The quiz part of a quiz lesson: the student's attempts, newest first, and the one just made if any. */
export type QuizState = {
  attempts: QuizAttempt[];
  /** The attempt this page answers (after a submission). */
  latest?: { attempt: QuizAttempt; attemptsLeft: number | null };
};

export type PlayerData = {
  course: Course;
  outline: PlayerOutline;
  lesson: Lesson;
  /** null for staff, who have no enrollment and no progress. */
  progress: Progress | null;
  csrf: string;
  quiz?: QuizState;
  /** Where the course's certificate is, once it is complete. */
  certificateUrl?: string;
  /** What a refused action said (shown above the lesson). */
  problem?: string;
  /** A timestamp as the school writes dates. */
  date: (timestamp: string) => string;
  /** The title of the lesson the student just marked complete, when this page follows that. */
  justCompleted?: string;
  /** A video or audio lesson of an enrolled student: where they stopped, and where the player saves it. */
  resume?: Resume;
};

/** The lessons in course order, for previous / next. */
const inOrder = (outline: PlayerOutline) => outline.flatMap((part) => part.lessons);

/**
 * Where "Mark as complete" goes on: the first lesson after this one not completed yet, and only when everything after
 * it is done, the first one before it not completed (a student who skipped ahead is never sent back while lessons
 * ahead wait). null when every lesson is done.
 */
export function nextLessonAfter(lessons: Progress['lessons'], currentId: string): string | null {
  const at = lessons.findIndex((l) => l.id === currentId);
  const open = (l: Progress['lessons'][number]) => l.completed_at === null && l.id !== currentId;
  return (lessons.slice(at + 1).find(open) ?? lessons.slice(0, Math.max(at, 0)).find(open))?.id ?? null;
}

/** "3 lessons left", "1 lesson left", or "" once none is. */
export function lessonsLeft(progress: Pick<Progress, 'completed_lessons' | 'total_lessons'>): string {
  const left = progress.total_lessons - progress.completed_lessons;
  return left > 0 ? `${left} ${left === 1 ? 'lesson' : 'lessons'} left` : '';
}

function progressBar(progress: Progress): SafeHtml {
  const left = lessonsLeft(progress);
  return html`<p class="progress"><label for="course-progress">Course progress</label>
<progress id="course-progress" max="100" value="${progress.percent}">${progress.percent}%</progress>
<span>${progress.percent}% · ${progress.completed_lessons} of ${progress.total_lessons} lessons${left ? ` · ${left}` : ''}</span></p>`;
}

function outlineView(data: PlayerData): SafeHtml {
  const done = new Map((data.progress?.lessons ?? []).map((l) => [l.id, l.completed_at]));
  return html`<nav class="player-outline" aria-label="Lessons of ${data.course.title}">
${data.progress ? progressBar(data.progress) : html`<p class="meta">You are staff: nothing is recorded.</p>`}
<ol class="outline">${data.outline.map(
    ({ section, lessons }) =>
      html`<li><p class="outline-section">${section.title}</p><ol>${lessons.map((lesson) => {
        const current = lesson.id === data.lesson.id;
        const state = done.get(lesson.id)
          ? html`<span class="state done">Done</span>`
          : lesson.available_at
            ? html`<span class="state locked">Opens ${data.date(lesson.available_at)}</span>`
            : '';
        return html`<li${current ? html` class="current"` : ''}><a href="${playerPath(data.course.slug, lesson.id)}"${
          current ? html` aria-current="page"` : ''
        }>${lesson.title}</a> ${state}</li>`;
      })}</ol></li>`,
  )}</ol>
</nav>`;
}

/** The lesson's material by its type; media come from their signed, short-lived URL. */
function material(data: PlayerData): SafeHtml {
  const { lesson } = data;
  const url = lesson.asset_url;
  const text = lesson.body ? markdownHtml(lesson.body) : [];
  switch (lesson.type) {
    case 'video':
    case 'audio':
      return html`${lessonMedia(lesson, data.resume)}${text}`;
    case 'pdf':
      return html`${text}${lessonMedia(lesson)}`;
    case 'download':
      return html`${text}${url ? html`<p><a class="button" href="${url}" download>Download the file</a></p>` : ''}`;
    case 'embed':
      // Staff-written embed code runs in a sandboxed frame of its own page (an opaque origin: no cookies, no DOM of
      // ours); an embed URL is framed with the same sandbox.
      return html`<iframe class="embed" title="${lesson.title}" sandbox="allow-scripts allow-forms allow-popups allow-presentation" allow="fullscreen" loading="lazy" src="${
        url ?? `/embeds/${encodeURIComponent(lesson.id)}`
      }"></iframe>${url ? text : ''}`;
    case 'quiz':
      return html`${text}${quizView(data)}`;
    default:
      return html`${text}`;
  }
}

function quizView(data: PlayerData): SafeHtml {
  const quiz = data.lesson.quiz;
  if (!quiz) return html`<p>This quiz has no questions yet.</p>`;
  const state = data.quiz ?? { attempts: [] };
  const passed = state.attempts.some((a) => a.passed);
  const latest = state.latest;
  const made = state.attempts.length;
  const left = quiz.max_attempts === null ? null : Math.max(quiz.max_attempts - made, 0);
  const outcome = latest
    ? html`<div class="${latest.attempt.passed ? 'notice' : 'warning'}" role="status"><p><strong>${
        latest.attempt.passed ? 'Passed' : 'Not passed yet'
      }</strong>: ${latest.attempt.score_percent}% right (${quiz.pass_percent}% needed).${
        latest.attemptsLeft === null ? '' : html` Attempts left: ${latest.attemptsLeft}.`
      }</p></div>`
    : '';
  const results = latest?.attempt.results;
  const picked = latest?.attempt.answers;
  const form =
    left === 0
      ? html`<p>You have used all ${quiz.max_attempts} attempts at this quiz.</p>`
      : html`<form method="post" action="${playerPath(data.course.slug, data.lesson.id)}/quiz" class="quiz">
${csrfField(data.csrf)}
${quiz.questions.map((question, i) => {
  const result = results?.[i];
  return html`<fieldset><legend>${i + 1}. ${question.prompt}${question.multiple ? html` <span class="meta">(choose all that apply)</span>` : ''}</legend>
${question.choices.map((choice, j) => {
  const id = `q${i}-${j}`;
  const checked = picked?.[i]?.includes(j) ? html` checked` : '';
  return html`<p class="choice"><input type="${question.multiple ? 'checkbox' : 'radio'}" id="${id}" name="q${i}" value="${j}"${checked}> <label for="${id}">${choice}</label></p>`;
})}${
  result
    ? html`<p class="${result.correct ? 'right' : 'wrong'}">${result.correct ? 'Right.' : 'Not right.'}${
        result.explanation && !result.correct ? html` ${result.explanation}` : ''
      }</p>`
    : ''
}</fieldset>`;
})}
<p><button type="submit">${made ? 'Try again' : 'Submit answers'}</button></p>
</form>`;
  const summary = html`<p class="meta">Pass mark ${quiz.pass_percent}%.${
    quiz.max_attempts === null ? ' Any number of attempts.' : html` ${left} of ${quiz.max_attempts} attempts left.`
  }${passed ? ' You have passed this quiz.' : ''}</p>`;
  return html`${outcome}${summary}${form}`;
}

function completion(data: PlayerData): SafeHtml {
  const { lesson, progress } = data;
  if (!progress) return html``;
  const completedAt = progress.lessons.find((l) => l.id === lesson.id)?.completed_at;
  if (completedAt) return html`<p class="done-note">Completed on ${data.date(completedAt)}.</p>`;
  if (lesson.type === 'quiz') return html`<p class="meta">Pass the quiz to complete this lesson.</p>`;
  return html`<form method="post" class="complete-lesson" action="${playerPath(data.course.slug, lesson.id)}/complete">${csrfField(
    data.csrf,
  )}<p><button type="submit">Mark as complete</button></p></form>`;
}

function neighbours(data: PlayerData): SafeHtml {
  const lessons = inOrder(data.outline);
  const at = lessons.findIndex((l) => l.id === data.lesson.id);
  const previous = at > 0 ? lessons[at - 1] : undefined;
  const next = at >= 0 ? lessons[at + 1] : undefined;
  return html`<nav class="pager" aria-label="Previous and next lesson">${
    previous
      ? html`<a rel="prev" href="${playerPath(data.course.slug, previous.id)}">← Previous: ${previous.title}</a>`
      : ''
  } ${next ? html`<a rel="next" href="${playerPath(data.course.slug, next.id)}">Next: ${next.title} →</a>` : ''}</nav>`;
}

/** The course player: the lesson, the course's lessons with what is done and what opens when, and the way on. */
export function playerView(data: PlayerData): SafeHtml {
  const { lesson } = data;
  const finished = data.progress?.enrollment_status === 'completed';
  const banner = finished
    ? html`<div class="notice" role="status"><p>You have completed ${data.course.title}.${
        data.certificateUrl ? html` <a href="${data.certificateUrl}">See your certificate</a>.` : ''
      }</p></div>`
    : '';
  const problem = data.problem ? html`<div class="error" role="alert"><p>${data.problem}</p></div>` : '';
  const left = data.progress ? lessonsLeft(data.progress) : '';
  const done =
    data.justCompleted && !finished
      ? html`<div class="notice" role="status"><p>“${data.justCompleted}” is done${left ? `: ${left}` : ''}.</p></div>`
      : '';
  const body =
    lesson.locked || lesson.body === null
      ? html`<p class="warning">${
          lesson.available_at
            ? html`This lesson opens on ${data.date(lesson.available_at)}.`
            : 'This lesson is not open to you.'
        }</p>`
      : html`${material(data)}${completion(data)}`;
  return html`<p class="meta"><a href="${learnPath(data.course.slug)}">${data.course.title}</a> · ${lesson.type}</p>
${banner}${done}${problem}
<div class="player">
<article class="player-lesson">${body}${neighbours(data)}</article>
${outlineView(data)}
</div>`;
}

export type MyCourse = {
  course: Pick<Course, 'title' | 'slug' | 'subtitle'>;
  status: string;
  percent: number;
  certificateUrl?: string;
};

/** "My courses": each enrollment with its progress and the way back in. */
export function myCoursesView(items: MyCourse[]): SafeHtml {
  if (!items.length)
    return html`<p>You are not enrolled in any course yet. <a href="/courses">Browse the courses</a>.</p>`;
  return html`<ul class="my-courses">${items.map(
    (item) => html`<li><h2><a href="${learnPath(item.course.slug)}">${item.course.title}</a></h2>
${item.course.subtitle ? html`<p>${item.course.subtitle}</p>` : ''}
<p><progress max="100" value="${item.percent}" aria-label="Progress in ${item.course.title}">${item.percent}%</progress> ${
      item.percent
    }% · ${item.status === 'completed' ? 'Completed' : item.status === 'active' ? 'In progress' : item.status}${
      item.certificateUrl ? html` · <a href="${item.certificateUrl}">Certificate</a>` : ''
    }</p></li>`,
  )}</ul>`;
}
