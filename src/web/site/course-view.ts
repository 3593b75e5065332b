import type { Course } from '../../areas/courses/schema.ts';
import type { Lesson } from '../../areas/curriculum/schema.ts';
import type { Lecturer } from '../../areas/lecturers/schema.ts';
import { formatDuration } from '../../discovery/catalog-text.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { coursePath, priceText } from '../shared/course-cards.ts';
import { courseCover } from '../shared/course-cover.ts';
import { csrfField } from '../shared/layout.ts';
import { markdownHtml, markdownText } from '../shared/markdown.ts';
import { NO_PICTURES, type Pictures } from '../shared/picture.ts';
import { portrait } from '../shared/portrait.ts';
import { summary } from '../shared/text.ts';

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
  /** The facts of the course's cover and its lecturers' portraits (web/shared/pictures.ts). */
  pictures?: Pictures;
};

/** The cover beside the course's title: two fifths of a wide page, the whole of a phone's. */
const MEDIA_SIZES = '(min-width: 72rem) 28rem, (min-width: 56rem) 40vw, 100vw';

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

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What the box offers: the price and the one action the viewer can take. */
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
        : html`${price}<p><button type="button" disabled>Buy this course</button></p><p class="note">This school does not take payments yet.</p>`;
    case 'closed':
      return html`${price}<p class="note">Enrollment in this course is closed.</p>`;
    case 'continue':
      return html`<p><a class="button" href="${action.href}">${action.label}</a></p>`;
  }
}

/** The buy box: price and action, then what the course holds. On a phone it is a bar at the bottom of the screen. */
function buyBox(data: CourseData): SafeHtml {
  const lessons = data.outline.reduce((n, s) => n + s.lessons.length, 0);
  const previews = data.outline.reduce((n, s) => n + s.lessons.filter((l) => l.is_preview).length, 0);
  const seconds = totalSeconds(data.outline);
  const includes = [
    lessons ? plural(lessons, 'lesson', 'lessons') + (seconds ? `, ${formatDuration(seconds)} in all` : '') : '',
    previews ? `${plural(previews, 'free preview', 'free previews')} to try first` : '',
    'Learn at your own pace, on any device',
  ].filter(Boolean);
  return html`<aside class="buy-box" aria-label="Enrollment">${actionBox(data)}<ul>${includes.map(
    (line) => html`<li>${line}</li>`,
  )}</ul></aside>`;
}

/** The trailer when there is one (the cover as its poster), else the cover: the uploaded one or the one made for it. */
function courseMedia(course: Course, pictures: Pictures): SafeHtml {
  if (course.trailer_url)
    return html`<div class="course-media"><video controls preload="none" src="${course.trailer_url}"${
      course.cover_url ? html` poster="${course.cover_url}"` : ''
    } aria-label="Trailer of ${course.title}"></video></div>`;
  const cover = courseCover(course, pictures, { sizes: MEDIA_SIZES, className: 'cover', priority: true });
  return html`<div class="course-media">${cover}</div>`;
}

/** The course's head, across the page: its title, subtitle and facts beside its trailer or cover. */
export function courseBanner(data: CourseData): SafeHtml {
  const { course } = data;
  const lessons = data.outline.reduce((n, s) => n + s.lessons.length, 0);
  const seconds = totalSeconds(data.outline);
  const facts = [
    data.lecturers.length ? html`<li>By <strong>${data.lecturers.map((l) => l.name).join(', ')}</strong></li>` : '',
    lessons ? html`<li>${plural(lessons, 'lesson', 'lessons')}</li>` : '',
    seconds ? html`<li>${formatDuration(seconds)} of content</li>` : '',
    html`<li>${priceText(course, data.locale)}</li>`,
  ];
  return html`<div class="course-top"><div class="wrap">${courseMedia(course, data.pictures ?? NO_PICTURES)}<div>${visibilityNotice(course)}
<h1>${course.title}</h1>${course.subtitle ? html`<p class="lead">${course.subtitle}</p>` : ''}
<ul class="course-facts">${facts}</ul></div></div></div>`;
}

const lines = (items: string[], kind: 'checks' | 'checks bullets') =>
  html`<ul class="${kind}">${items.map((item) => html`<li>${item}</li>`)}</ul>`;

function lessonLine(course: Course, lesson: Lesson): SafeHtml {
  const facts = [lesson.type, lesson.duration_s ? formatDuration(lesson.duration_s) : ''].filter(Boolean).join(', ');
  // A free preview opens from here; any other lesson opens on enrolling, so its title is not a link.
  const title = lesson.is_preview ? html`<a href="${lessonPath(course, lesson.id)}">${lesson.title}</a>` : lesson.title;
  return html`<li><span class="lesson-title">${title}</span>${
    lesson.is_preview ? html` <strong class="badge">Free preview</strong>` : ''
  } <span class="meta">${facts}</span></li>`;
}

/** The curriculum as an accordion: a section per fold, with its lessons and their time; the first one open. */
function curriculum(data: CourseData): SafeHtml {
  const { course, outline } = data;
  if (!outline.length) return html`<p class="empty">The curriculum is being prepared.</p>`;
  const lessons = outline.reduce((n, s) => n + s.lessons.length, 0);
  const seconds = totalSeconds(outline);
  return html`<p class="curriculum-summary">${plural(outline.length, 'section', 'sections')} · ${plural(
    lessons,
    'lesson',
    'lessons',
  )}${seconds ? ` · ${formatDuration(seconds)}` : ''}</p><div class="accordion">${outline.map((s, i) => {
    const time = s.lessons.reduce((n, l) => n + (l.duration_s ?? 0), 0);
    return html`<details${i === 0 ? html` open` : ''}><summary><span class="title">${s.title}</span><span class="meta">${plural(
      s.lessons.length,
      'lesson',
      'lessons',
    )}${time ? ` · ${formatDuration(time)}` : ''}</span></summary>${
      s.lessons.length
        ? html`<ol>${s.lessons.map((l) => lessonLine(course, l))}</ol>`
        : html`<p class="meta">No lessons yet.</p>`
    }</details>`;
  })}</div>`;
}

/** The first letter of a name, shown where a person has no portrait. */
const initial = (name: string) => name.trim().charAt(0).toUpperCase() || '?';

function lecturerCards(lecturers: Lecturer[], pictures: Pictures): SafeHtml {
  return html`${lecturers.map(
    (l) =>
      html`<div class="lecturer-card">${
        l.avatar_url
          ? portrait(l, pictures, 'portrait')
          : html`<span class="portrait" aria-hidden="true">${initial(l.name)}</span>`
      }<div><h3><a href="${lecturerPath(l.id)}">${l.name}</a></h3>${l.title ? html`<p class="meta">${l.title}</p>` : ''}${
        l.bio ? html`<p>${summary(markdownText(l.bio), 240)}</p>` : ''
      }</div></div>`,
  )}`;
}

const section = (id: string, title: string, content: SafeHtml, className = '') =>
  html`<section${className ? html` class="${className}"` : ''} aria-labelledby="${id}"><h2 id="${id}">${title}</h2>${content}</section>`;

/**
 * The course page under its head (courseBanner): what you will learn, the description, who it is for, requirements,
 * the curriculum with its free previews, the lecturers; beside them the buy box.
 */
export function courseView(data: CourseData): SafeHtml {
  const { course } = data;
  return html`<div class="course-layout"><div>
${course.outcomes.length ? section('outcomes-heading', 'What you will learn', lines(course.outcomes, 'checks'), 'outcomes') : ''}
${section(
  'about-heading',
  'About this course',
  course.description.trim() ? markdownHtml(course.description) : html`<p>No description yet.</p>`,
)}
${course.audience.length ? section('audience-heading', 'Who this course is for', lines(course.audience, 'checks bullets')) : ''}
${course.requirements.length ? section('requirements-heading', 'Requirements', lines(course.requirements, 'checks bullets')) : ''}
${section('outline-heading', 'Curriculum', curriculum(data), 'outline')}
${
  data.lecturers.length
    ? section(
        'lecturers-heading',
        data.lecturers.length === 1 ? 'Your lecturer' : 'Your lecturers',
        lecturerCards(data.lecturers, data.pictures ?? NO_PICTURES),
      )
    : ''
}
</div>${buyBox(data)}</div>`;
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
