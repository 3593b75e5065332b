import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import type { OperationAnswer } from '../../operations/operation-calls.ts';
import { html } from '../../text/html.ts';
import { DerivedFormBody, IdParams } from '../shared/page-schemas.ts';
import {
  ADMIN_ROUTE,
  type AdminDeps,
  adminGate,
  adminPage,
  adminPostGate,
  doneNotice,
  one,
  refusal,
} from './admin-context.ts';
import { courseOutline } from './course-outline.ts';
import { type BuilderSection, curriculumView } from './curriculum-builder-view.ts';
import type { PostedForm } from './form-kit/form-values.ts';

const Params = IdParams;
type Params = Static<typeof IdParams>;

/** The operation each change of the builder runs (named in the notice after it). */
const DONE_BY = {
  'add-section': 'createSection',
  'add-lesson': 'createLesson',
  'move-section': 'reorderSections',
  'order-sections': 'reorderSections',
  'move-lesson': 'reorderLessons',
  'order-lessons': 'reorderLessons',
  'lesson-to-section': 'moveLesson',
  'place-lesson': 'moveLesson',
} as const;

/** A list with one item moved one place up or down (unchanged at the ends). */
const nudge = (ids: string[], id: string, direction: string) => {
  const at = ids.indexOf(id);
  const to = direction === 'up' ? at - 1 : at + 1;
  if (at < 0 || to < 0 || to >= ids.length) return ids;
  const next = [...ids];
  [next[at], next[to]] = [next[to] as string, next[at] as string];
  return next;
};

const idList = (value: unknown) =>
  String(one(value) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * The course builder at /admin/courses/:id/curriculum: every change is one API operation (createSection,
 * createLesson, reorderSections, reorderLessons, moveLesson), so the curriculum's rules and messages are the API's.
 * Forms post here and come back (303); admin.js's drag-and-drop posts the same fields and asks for JSON.
 */
export function registerCurriculumBuilder(fastify: FastifyInstance, deps: AdminDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const page = adminPage(deps);

  const outline = (request: FastifyRequest, courseId: string) =>
    courseOutline<BuilderSection['lessons'][number]>(deps, request, courseId);

  async function screen(
    request: FastifyRequest & { params: Params },
    reply: FastifyReply,
    refused?: { message: string; status: number },
  ) {
    const courseId = request.params.id;
    const course = await deps.call(request, 'getCourse', { id: courseId });
    const sections = course.status === 200 ? await outline(request, courseId) : undefined;
    if (!sections) return reply.callNotFound();
    const coursePath = `/admin/courses/${encodeURIComponent(courseId)}`;
    return page(request, reply, {
      title: `Curriculum: ${String(course.body.title || 'Untitled course')}`,
      current: 'courses',
      status: refused?.status,
      notice: doneNotice(deps, request),
      body: html`${refused ? html`<div class="error" role="alert"><p>${refused.message}</p></div>` : ''}${curriculumView(
        {
          action: `${coursePath}/curriculum`,
          coursePath,
          sections,
          csrf: reply.generateCsrf(),
        },
      )}`,
    });
  }

  /** The one operation a posted change stands for, with its arguments, or undefined for a change that is no change. */
  async function change(
    request: FastifyRequest & { params: Params },
    form: PostedForm,
  ): Promise<OperationAnswer | string> {
    const courseId = request.params.id;
    const field = (name: string) => String(one(form[name]) ?? '');
    switch (field('do')) {
      case 'add-section':
        return deps.call(request, 'createSection', { id: courseId, title: field('title') });
      case 'add-lesson':
        return deps.call(request, 'createLesson', {
          id: field('section'),
          title: field('title'),
          type: field('type') || 'text',
        });
      case 'move-section': {
        const sections = (await outline(request, courseId)) ?? [];
        const ids = sections.map((s) => s.id);
        return deps.call(request, 'reorderSections', {
          id: courseId,
          section_ids: nudge(ids, field('section'), field('direction')),
        });
      }
      case 'order-sections':
        return deps.call(request, 'reorderSections', { id: courseId, section_ids: idList(form.order) });
      case 'move-lesson': {
        const lessons = await deps.call(request, 'listLessons', { id: field('section') });
        if (lessons.status !== 200) return lessons;
        const ids = (lessons.body.data as { id: string }[]).map((l) => l.id);
        return deps.call(request, 'reorderLessons', {
          id: field('section'),
          lesson_ids: nudge(ids, field('lesson'), field('direction')),
        });
      }
      case 'order-lessons':
        return deps.call(request, 'reorderLessons', { id: field('section'), lesson_ids: idList(form.order) });
      case 'lesson-to-section':
      case 'place-lesson': {
        const position = field('position');
        return deps.call(request, 'moveLesson', {
          id: field('lesson'),
          section_id: field('to_section'),
          ...(position !== '' && /^\d+$/.test(position) ? { position: Number(position) } : {}),
        });
      }
      default:
        return 'Unknown change.';
    }
  }

  app.get(
    '/admin/courses/:id/curriculum',
    { schema: { params: Params }, ...ADMIN_ROUTE, preHandler: adminGate() },
    screen,
  );

  app.post(
    '/admin/courses/:id/curriculum',
    { schema: { params: Params, body: DerivedFormBody }, ...ADMIN_ROUTE, preHandler: adminPostGate(app) },
    async (request, reply) => {
      const answer = await change(request, request.body ?? {});
      const wantsJson = (request.headers.accept ?? '').includes('application/json');
      const failed =
        typeof answer === 'string'
          ? { message: answer, status: 400 }
          : answer.status >= 300
            ? { ...refusal(answer), status: answer.status }
            : undefined;
      if (wantsJson)
        return reply
          .code(failed ? failed.status : 200)
          .header('cache-control', 'no-store')
          .send(failed ? { error: 'refused', error_description: failed.message } : { done: true });
      if (failed) return screen(request, reply, failed);
      const name = DONE_BY[String(one(request.body?.do) ?? '') as keyof typeof DONE_BY] ?? '';
      return reply.redirect(`/admin/courses/${encodeURIComponent(request.params.id)}/curriculum?notice=${name}`, 303);
    },
  );
}
