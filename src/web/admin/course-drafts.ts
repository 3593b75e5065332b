import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { DerivedFormBody, IdParams } from '../shared/page-schemas.ts';
import {
  ADMIN_ROUTE,
  type AdminDeps,
  adminGate,
  adminPage,
  adminPostGate,
  doneNotice,
  refusal,
} from './admin-context.ts';
import { courseDraftsView, type DraftSection, type RefusedLesson } from './course-drafts-view.ts';
import { courseOutline } from './course-outline.ts';

type Params = Static<typeof IdParams>;

/**
 * "What is still a draft" of a course, at /admin/courses/:id/drafts: its draft sections and lessons, and one button
 * running publishCourseWithContents, so the course, its sections and lessons go out together or not at all.
 */
export function registerCourseDrafts(fastify: FastifyInstance, deps: AdminDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const page = adminPage(deps);

  const outline = (request: FastifyRequest, courseId: string) =>
    courseOutline<DraftSection['lessons'][number]>(deps, request, courseId);

  async function screen(
    request: FastifyRequest & { params: Params },
    reply: FastifyReply,
    refused?: { message: string; fields: string[]; status: number },
  ) {
    const courseId = request.params.id;
    const course = await deps.call(request, 'getCourse', { id: courseId });
    const sections = course.status === 200 ? await outline(request, courseId) : undefined;
    if (!sections) return reply.callNotFound();
    const lessons = sections.flatMap((s) => s.lessons);
    // The API names a lesson without content by its field (lessons.<id>); the screen names it by its title.
    const refusedLessons: RefusedLesson[] = (refused?.fields ?? []).flatMap((field) => {
      const lesson = lessons.find((l) => field === `lessons.${l.id}`);
      return lesson ? [{ id: lesson.id, title: lesson.title }] : [];
    });
    const title = String(course.body.title || 'Untitled course');
    return page(request, reply, {
      title: `What is still a draft: ${title}`,
      current: 'courses',
      status: refused?.status,
      notice: doneNotice(deps, request),
      body: courseDraftsView({
        coursePath: `/admin/courses/${encodeURIComponent(courseId)}`,
        course: { title, status: String(course.body.status) },
        sections,
        refused: refused && { message: refused.message, lessons: refusedLessons },
        csrf: reply.generateCsrf(),
      }),
    });
  }

  app.get(
    '/admin/courses/:id/drafts',
    { schema: { params: IdParams }, ...ADMIN_ROUTE, preHandler: adminGate() },
    screen,
  );

  app.post(
    '/admin/courses/:id/drafts',
    { schema: { params: IdParams, body: DerivedFormBody }, ...ADMIN_ROUTE, preHandler: adminPostGate(app) },
    async (request, reply) => {
      const answer = await deps.call(request, 'publishCourseWithContents', { id: request.params.id });
      if (answer.status >= 300) {
        const { message, problems } = refusal(answer);
        return screen(request, reply, { message, fields: problems.map((p) => p.field), status: answer.status });
      }
      return reply.redirect(
        `/admin/courses/${encodeURIComponent(request.params.id)}/drafts?notice=publishCourseWithContents`,
        303,
      );
    },
  );
}
