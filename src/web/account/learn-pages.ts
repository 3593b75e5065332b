import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Type, { type Static } from 'typebox';
import type { Areas } from '../../areas/index.ts';
import { ApiError } from '../../http/errors.ts';
import { isStaff, type Principal } from '../../http/principal.ts';
import { escapeHtml, html } from '../../text/html.ts';
import { coursePath } from '../shared/course-cards.ts';
import { registerPlayerAssets } from '../shared/lesson-player.ts';
import type { PageRenderer } from '../shared/page-context.ts';
import { ButtonBody, FormBody, Key, NumberedFormBody, PageQuery, SlugParams, Text } from '../shared/page-schemas.ts';
import { formPage, signInGate } from '../shared/sign-in-gate.ts';
import { schoolFacts } from '../shared/site-deps.ts';
import { viewerPrincipal } from '../shared/viewer.ts';
import {
  learnPath,
  type MyCourse,
  myCoursesView,
  nextLessonAfter,
  type PlayerOutline,
  playerPath,
  playerView,
  type QuizState,
} from './player-view.ts';

type LearnAreas = Pick<Areas, 'courses' | 'curriculum' | 'students' | 'certificates' | 'school'>;
const LessonParams = Type.Object({ slug: Key, lesson: Key });
type LessonParams = Static<typeof LessonParams>;
const lessonParams = { params: LessonParams };

const PositionBody = FormBody({ position_s: Text(20), duration_s: Text(20) });
/** A video or audio lesson counts as done once the student has played this share of it. */
const COMPLETE_AT = 0.9;

const refusal = (error: unknown) =>
  error instanceof ApiError && (error.code === 'conflict' || error.code === 'invalid_request') ? error : undefined;
const notFound = (error: unknown) => error instanceof ApiError && error.code === 'not_found';

/**
 * The learner's pages: "My courses", the course player (each lesson by its type, marking complete, quizzes), the
 * enroll button's target, and the sandboxed page that runs a lesson's embed code. Signed-in people only; a student
 * sees the player of a course they are enrolled in (anything else sends them to the course page), staff see every
 * player and nothing is recorded for them. Every rule is the students and curriculum areas' own.
 */
export function registerLearnPages(fastify: FastifyInstance, deps: { areas: LearnAreas; render: PageRenderer }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { courses, curriculum, students, certificates } = deps.areas;
  const config = { page: true };

  const signedIn = signInGate();
  // The player and PDF viewer's files; the public site's lesson previews use them too.
  registerPlayerAssets(fastify);

  async function dateOf() {
    return (await schoolFacts(deps.areas.school)).dates.day;
  }

  /** The viewer's progress through the course; null for staff; undefined when a student is not enrolled. */
  async function progressOf(principal: Principal, courseId: string) {
    if (isStaff(principal)) return null;
    try {
      return await students.progress(principal, 'me', courseId);
    } catch (error) {
      if (notFound(error)) return undefined;
      throw error;
    }
  }

  const outlineOf = (principal: Principal, courseId: string): Promise<PlayerOutline> =>
    curriculum.outline(principal, courseId, 'published');

  async function certificateOf(principal: Principal, courseId: string) {
    if (isStaff(principal)) return undefined;
    const { data } = await certificates.list(principal, { course_id: courseId, status: 'valid', limit: 1 });
    return data[0]?.verification_url;
  }

  async function showLesson(
    request: FastifyRequest & { params: LessonParams },
    reply: FastifyReply,
    extra: { problem?: string; latest?: QuizState['latest']; completed?: string } = {},
    status = 200,
  ) {
    const principal = viewerPrincipal(request.viewer);
    const course = await courses.get(principal, request.params.slug);
    const progress = await progressOf(principal, course.id);
    if (progress === undefined || (progress && !['active', 'completed'].includes(progress.enrollment_status)))
      return reply.redirect(coursePath(course.slug), 303);
    const lesson = await curriculum.getLesson(principal, request.params.lesson);
    if (lesson.course_id !== course.id || lesson.status !== 'published') {
      return reply.redirect(learnPath(course.slug), 303);
    }
    const played = progress && !lesson.locked && (lesson.type === 'video' || lesson.type === 'audio');
    const [outline, date, certificateUrl, attempts, position] = await Promise.all([
      outlineOf(principal, course.id),
      dateOf(),
      certificateOf(principal, course.id),
      lesson.type === 'quiz' && progress ? students.myQuizAttempts(principal, lesson.id) : undefined,
      played ? curriculum.playbackPosition(principal, lesson.id) : undefined,
    ]);
    const csrf = reply.generateCsrf();
    const body = playerView({
      course,
      outline,
      lesson,
      progress,
      csrf,
      resume: played
        ? {
            saveUrl: `${playerPath(course.slug, lesson.id)}/position`,
            csrf,
            positionS: position?.position_s ?? 0,
            completed: progress.lessons.some((l) => l.id === lesson.id && l.completed_at !== null),
          }
        : undefined,
      quiz: attempts ? { attempts: attempts.data, latest: extra.latest } : undefined,
      certificateUrl,
      problem: extra.problem,
      justCompleted: progress?.lessons.find((l) => l.id === extra.completed && l.completed_at !== null)?.title,
      date,
    });
    return deps.render(request, reply, lesson.title, body, status);
  }

  app.get('/learn', { config, preHandler: signedIn }, async (request, reply) => {
    const principal = viewerPrincipal(request.viewer);
    if (isStaff(principal)) {
      return deps.render(
        request,
        reply,
        'My courses',
        html`<p>Staff see every course without enrolling: open one from <a href="/courses">the catalog</a>, then “Open the course”.</p>`,
      );
    }
    const [enrollments, issued] = await Promise.all([
      students.listEnrollments(principal, 'me', { limit: 100 }),
      certificates.list(principal, { status: 'valid', limit: 100 }),
    ]);
    const certificateOfCourse = new Map(issued.data.map((c) => [c.course_id, c.verification_url]));
    const shown = enrollments.data.filter((enrollment) => enrollment.status !== 'revoked');
    const found = await Promise.all(
      shown.map((enrollment) =>
        courses.get(principal, enrollment.course_id).catch((error: unknown) => {
          if (notFound(error)) return undefined;
          throw error;
        }),
      ),
    );
    const items: MyCourse[] = shown.flatMap((enrollment, i) => {
      const course = found[i];
      return course
        ? [
            {
              course,
              status: enrollment.status,
              percent: enrollment.progress_percent,
              certificateUrl: certificateOfCourse.get(course.id),
            },
          ]
        : [];
    });
    return deps.render(request, reply, 'My courses', myCoursesView(items));
  });

  app.get('/learn/:slug', { schema: { params: SlugParams }, config, preHandler: signedIn }, async (request, reply) => {
    const principal = viewerPrincipal(request.viewer);
    const course = await courses.get(principal, request.params.slug);
    const progress = await progressOf(principal, course.id);
    if (progress === undefined) return reply.redirect(coursePath(course.slug), 303);
    const first = (await outlineOf(principal, course.id)).flatMap((part) => part.lessons)[0];
    const next = progress?.next_lesson_id ?? first?.id;
    if (!next) return deps.render(request, reply, course.title, html`<p>This course has no lessons yet.</p>`);
    return reply.redirect(playerPath(course.slug, next), 303);
  });

  app.get(
    '/learn/:slug/:lesson',
    {
      schema: { ...lessonParams, querystring: PageQuery({ completed: Type.Optional(Key) }) },
      config,
      preHandler: signedIn,
    },
    (request, reply) => showLesson(request, reply, { completed: request.query.completed }),
  );

  app.post(
    '/learn/:slug/:lesson/complete',
    {
      schema: { params: LessonParams, body: ButtonBody },
      config,
      preHandler: [signInGate(formPage), app.csrfProtection],
    },
    async (request, reply) => {
      const principal = viewerPrincipal(request.viewer);
      try {
        const progress = await students.completeMyLesson(principal, request.params.lesson);
        const course = await courses.get(principal, request.params.slug);
        const next = nextLessonAfter(progress.lessons, request.params.lesson) ?? request.params.lesson;
        const done = new URLSearchParams({ completed: request.params.lesson });
        return reply.redirect(`${playerPath(course.slug, next)}?${done}`, 303);
      } catch (error) {
        const refused = refusal(error);
        if (!refused) throw error;
        return showLesson(request, reply, { problem: refused.message }, 409);
      }
    },
  );

  /**
   * The player saves where the student is (every ten seconds, on pause, and by sendBeacon when the page goes): JSON
   * answers, errors in the API's shape. Played to COMPLETE_AT of its length, the lesson is completed by the students
   * area's rule, as the "Mark as complete" button would. Signed out, not enrolled, locked or not played: 404.
   */
  app.post(
    '/learn/:slug/:lesson/position',
    { schema: { params: LessonParams, body: PositionBody }, config: { public: true }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const principal = viewerPrincipal(request.viewer);
      const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
      const saved = await curriculum.savePlaybackPosition(principal, request.params.lesson, {
        position_s: number(request.body.position_s),
        duration_s: number(request.body.duration_s),
      });
      reply.header('cache-control', 'no-store');
      if (saved.position_s < COMPLETE_AT * saved.duration_s) return reply.code(204).send();
      const progress = await students.completeMyLesson(principal, saved.lesson.id);
      return { completed: true, percent: progress.percent };
    },
  );

  app.post(
    '/learn/:slug/:lesson/quiz',
    {
      schema: { params: LessonParams, body: NumberedFormBody('q') },
      config,
      preHandler: [signInGate(formPage), app.csrfProtection],
    },
    async (request, reply) => {
      const principal = viewerPrincipal(request.viewer);
      const lesson = await curriculum.getLesson(principal, request.params.lesson);
      const questions = lesson.quiz?.questions.length ?? 0;
      const form = request.body;
      // A form sends a radio's one value as text and a checkbox group's values as text or a list of texts.
      const answers = Array.from({ length: questions }, (_, i) => {
        const value = form[`q${i}`];
        const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
        return [...new Set(values.map(Number).filter((n) => Number.isInteger(n) && n >= 0 && n <= 9))];
      });
      try {
        const result = await students.submitMyQuiz(principal, lesson.id, { answers });
        return showLesson(request, reply, {
          latest: { attempt: result.attempt, attemptsLeft: result.attempts_left },
        });
      } catch (error) {
        const refused = refusal(error);
        if (!refused) throw error;
        return showLesson(request, reply, { problem: refused.message }, 409);
      }
    },
  );

  app.post(
    '/courses/:slug/enroll',
    {
      schema: { params: SlugParams, body: ButtonBody },
      config,
      preHandler: [signInGate(formPage), app.csrfProtection],
    },
    async (request, reply) => {
      const principal = viewerPrincipal(request.viewer);
      try {
        await students.enrollSelf(principal, request.params.slug);
      } catch (error) {
        const refused = refusal(error);
        if (!refused) throw error;
        const back = html`<p>${refused.message}</p><p><a href="${coursePath(request.params.slug)}">Back to the course</a></p>`;
        return deps.render(request, reply, 'You could not be enrolled', back, 409);
      }
      const course = await courses.get(principal, request.params.slug);
      return reply.redirect(learnPath(course.slug), 303);
    },
  );

  app.get(
    '/embeds/:lesson',
    { schema: { params: Type.Object({ lesson: Key }) }, config, preHandler: signedIn },
    async (request, reply) => {
      const lesson = await curriculum.getLesson(viewerPrincipal(request.viewer), request.params.lesson);
      if (lesson.type !== 'embed' || lesson.locked || !lesson.body) return reply.callNotFound();
      // The embed code is the school's own, but it runs as an opaque origin: no cookies, storage or DOM of the
      // school's, only inside the player's frame.
      return reply
        .header(
          'content-security-policy',
          "sandbox allow-scripts allow-forms allow-popups allow-presentation; default-src * data: blob: 'unsafe-inline' 'unsafe-eval'; frame-ancestors 'self'",
        )
        .header('x-frame-options', 'SAMEORIGIN')
        .header('cache-control', 'private, no-store')
        .type('text/html; charset=utf-8')
        .send(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(lesson.title)}</title></head><body>${lesson.body}</body></html>`,
        );
    },
  );
}
