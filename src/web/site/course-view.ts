import type { Course } from '../../areas/courses/schema.ts';
import type { Lesson } from '../../areas/curriculum/schema.ts';
import type { Lecturer } from '../../areas/lecturers/schema.ts';
import { formatDuration } from '../../discovery/catalog-text.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { coursePath, priceText } from '../shared/course-cards.ts';
import { csrfField } from '../shared/layout.ts';
import { markdownHtml, markdownText } from '../shared/markdown.ts';

export type OutlineSection = { id: string; title: string; lessons: Lesson[] };

/** What the course page offers the viewer: decided by the handler from the course and who is looking. */
export type CourseAction =
  | { kind: 'sign-in'; href: string }
  | { kind: 'enroll'; csrf: string }
  /** A paid course: the checkout's address, or null when the school takes no payments. */
  | { kind: 'buy'; href: string | null }
  | { kind: 'closed' }
  /** Enrolled (or staff): the way into the player. */
  | { kind: 'continue'; href: string; label: string };

export type CourseData = {
  course: Course;
  lecturers: Lecturer[];
  outline: OutlineSection[];
  locale: string;
  action: CourseAction;
};

export const lessonPath = (course: Pick<Course, 'slug'>, lessonId: string) =>
  `${coursePath(course.slug)}/lessons/${encodeURIComponent(lessonId)}`;
export const lecturerPath = (id: string) => `/lecturers/${encodeURIComponent(id)}`;

const totalSeconds = (outline: OutlineSection[]) =>
  outline.reduce((n, s) => n + s.lessons.reduce((m, l) => m + (l.duration_s ?? 0), 0), 0);

/** Why a course is on the page though it is not in the public catalog; nothing for a listed course. */
function visibilityNotice(course: Course): SafeHtml {
  if (course.status !== 'published')
    return html`<p class="warning">This course is ${course.status}: only staff can see this page.</p>`;
  if (course.visibility === 'private')
    return html`<p class="warning">This course is private: only its students and staff can see it.</p>`;
  if (course.visibility === 'unlisted')
    return html`<p class="notice">This course is unlisted: anyone with the link can see it, but it is not in the catalog.</p>`;
  return html``;
}

function actionBox(data: CourseData): SafeHtml {
  const { course, action } = data;
  const price = html`<p class="price">${priceText(course, data.locale)}</p>`;
  switch (action.kind) {
    case 'sign-in':
      return html`${price}<p><a class="button" href="${action.href}">Sign in to enroll</a></p>`;
    case 'enroll':
      return html`${price}<form method="post" action="${coursePath(course.slug)}/enroll">${csrfField(action.csrf)}<p><button type="submit">Enroll for free</button></p></form>`;
    case 'buy':
      return action.href
        ? html`${price}<p><a class="button" href="${action.href}">Buy this course</a></p>`
        : html`${price}<p><button type="button" disabled>Buy this course</button></p><p>This school does not take payments yet.</p>`;
    case 'closed':
      return html`${price}<p>Enrollment in this course is closed.</p>`;
    case 'continue':
      return html`<p><a class="button" href="${action.href}">${action.label}</a></p>`;
  }
}

function lessonLine(course: Course, lesson: Lesson): SafeHtml {
  const facts = [lesson.type, lesson.duration_s ? formatDuration(lesson.duration_s) : ''].filter(Boolean).join(', ');
  return html`<li><a href="${lessonPath(course, lesson.id)}">${lesson.title}</a> <span class="meta">(${facts})</span>${
    lesson.is_preview ? html` <strong class="badge">Free preview</strong>` : ''
  }</li>`;
}

/** The course page: cover, description, lecturers, the curriculum outline with its free previews, price and action. */
export function courseView(data: CourseData): SafeHtml {
  const { course } = data;
  const lessons = data.outline.reduce((n, s) => n + s.lessons.length, 0);
  const seconds = totalSeconds(data.outline);
  return html`${visibilityNotice(course)}
<div class="course-head"><div>${course.subtitle ? html`<p class="lead">${course.subtitle}</p>` : ''}${
    course.cover_url ? html`<img class="hero" src="${course.cover_url}" alt="">` : ''
  }</div>
<aside class="buy" aria-label="Enrollment">${actionBox(data)}${
    lessons
      ? html`<p>${lessons} ${lessons === 1 ? 'lesson' : 'lessons'}${seconds ? `, ${formatDuration(seconds)}` : ''}</p>`
      : ''
  }</aside></div>
<section aria-labelledby="about-heading"><h2 id="about-heading">About this course</h2>
${course.description.trim() ? markdownHtml(course.description) : html`<p>No description yet.</p>`}</section>
${
  data.lecturers.length
    ? html`<section aria-labelledby="lecturers-heading"><h2 id="lecturers-heading">${data.lecturers.length === 1 ? 'Lecturer' : 'Lecturers'}</h2>
<ul class="people">${data.lecturers.map(
        (l) =>
          html`<li>${l.avatar_url ? html`<img class="avatar" src="${l.avatar_url}" alt="">` : ''}<p><a href="${lecturerPath(l.id)}">${l.name}</a>${l.title ? html`<br><span class="meta">${l.title}</span>` : ''}</p></li>`,
      )}</ul></section>`
    : ''
}
<section class="outline" aria-labelledby="outline-heading"><h2 id="outline-heading">Curriculum</h2>
${
  data.outline.length
    ? data.outline.map(
        (s) =>
          html`<h3>${s.title}</h3>${s.lessons.length ? html`<ol>${s.lessons.map((l) => lessonLine(course, l))}</ol>` : html`<p>No lessons yet.</p>`}`,
      )
    : html`<p>The curriculum is being prepared.</p>`
}</section>`;
}

/** schema.org Course (https://schema.org/Course), as search engines read it from the course page. */
export function courseJsonLd(
  data: Pick<CourseData, 'course' | 'lecturers' | 'outline'>,
  site: { baseUrl: string; schoolName: string },
): Record<string, unknown> {
  const { course } = data;
  const url = `${site.baseUrl}${coursePath(course.slug)}`;
  const money = course.price;
  const seconds = totalSeconds(data.outline);
  return {
    '@context': 'https://schema.org',
    '@type': 'Course',
    '@id': url,
    url,
    name: course.title,
    description: markdownText(course.description) || course.subtitle || course.title,
    ...(course.subtitle ? { alternativeHeadline: course.subtitle } : {}),
    ...(course.cover_url ? { image: course.cover_url } : {}),
    provider: { '@type': 'Organization', name: site.schoolName, url: site.baseUrl },
    ...(data.lecturers.length
      ? {
          instructor: data.lecturers.map((l) => ({
            '@type': 'Person',
            name: l.name,
            url: `${site.baseUrl}${lecturerPath(l.id)}`,
          })),
        }
      : {}),
    isAccessibleForFree: money === null,
    offers: {
      '@type': 'Offer',
      category: money ? 'Paid' : 'Free',
      price: money ? minorToDecimal(money) : '0',
      priceCurrency: money?.currency ?? undefined,
      availability: course.enrollment_open ? 'https://schema.org/InStock' : 'https://schema.org/SoldOut',
      url,
    },
    hasCourseInstance: {
      '@type': 'CourseInstance',
      courseMode: 'Online',
      ...(seconds ? { courseWorkload: `PT${Math.max(1, Math.round(seconds / 60))}M` } : {}),
    },
  };
}

/** "49.00" for 4900 EUR, "500" for 500 JPY: the currency's own number of decimals, as schema.org prices are written. */
function minorToDecimal(money: { amount: number; currency: string }): string {
  const digits =
    new Intl.NumberFormat('en', { style: 'currency', currency: money.currency }).resolvedOptions()
      .maximumFractionDigits ?? 2;
  return (money.amount / 10 ** digits).toFixed(digits);
}
