import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../../text/html.ts';
import { DerivedFormBody, IdParams } from '../shared/page-schemas.ts';
import { ADMIN_ROUTE, adminGate, adminPostGate, one, refusal } from './admin-context.ts';
import { type EditorDeps, editorPage } from './editor-page.ts';
import { notAQuizView, quizBuilderView } from './quiz-builder-view.ts';
import {
  draftFromForm,
  draftOf,
  type QuizDraft,
  type QuizProblem,
  quizInput,
  quizProblems,
  reshaped,
} from './quiz-draft.ts';

type Shown = { draft: QuizDraft; problems: QuizProblem[]; unsaved: boolean; message?: string; status?: number };

/**
 * A quiz lesson's questions at /admin/lessons/:id/quiz, built in a form instead of typed as JSON. The lesson is read
 * with getLesson (staff see the right answers) and saved whole with updateLesson, so what makes a quiz valid is the
 * API's to say; its refusals come back beside the question they are about.
 */
export function registerQuizBuilder(fastify: FastifyInstance, deps: EditorDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const page = editorPage(deps);
  const pathOf = (id: string) => `/admin/lessons/${encodeURIComponent(id)}`;

  async function screen(request: FastifyRequest & { params: { id: string } }, reply: FastifyReply, shown?: Shown) {
    const lesson = await deps.call(request, 'getLesson', { id: request.params.id });
    if (lesson.status !== 200) return reply.callNotFound();
    const lessonPath = pathOf(request.params.id);
    const action = `${lessonPath}/quiz`;
    const csrf = reply.generateCsrf();
    const saved = typeof request.query === 'object' && request.query !== null && 'saved' in request.query;
    return page(request, reply, {
      title: `Questions: ${String(lesson.body.title)}`,
      current: 'courses',
      status: shown?.status,
      notice: saved ? 'The quiz is saved.' : undefined,
      body: html`${shown?.message ? html`<div class="error" role="alert"><p>${shown.message}</p></div>` : ''}${
        lesson.body.type === 'quiz'
          ? quizBuilderView({
              action,
              lessonPath,
              draft: shown?.draft ?? draftOf(lesson.body.quiz),
              problems: shown?.problems ?? [],
              unsaved: shown?.unsaved ?? false,
              csrf,
            })
          : notAQuizView({ action, lessonPath, type: String(lesson.body.type), csrf })
      }`,
    });
  }

  app.get('/admin/lessons/:id/quiz', { schema: { params: IdParams }, ...ADMIN_ROUTE, preHandler: adminGate() }, screen);

  app.post(
    '/admin/lessons/:id/quiz',
    { schema: { params: IdParams, body: DerivedFormBody }, ...ADMIN_ROUTE, preHandler: adminPostGate(app) },
    async (request, reply) => {
      const id = request.params.id;
      const form = request.body ?? {};
      const change = String(one(form.do) ?? 'save');
      if (change === 'make-quiz') {
        const made = await deps.call(request, 'updateLesson', { id, type: 'quiz' });
        if (made.status >= 300) return screen(request, reply, { ...emptyShown(), ...refused(made) });
        return reply.redirect(`${pathOf(id)}/quiz`, 303);
      }
      const draft = draftFromForm(form);
      const next = reshaped(draft, change);
      if (next) return screen(request, reply, { draft: next, problems: [], unsaved: true });
      const { quiz, formIndex } = quizInput(draft);
      const answer = await deps.call(request, 'updateLesson', { id, quiz });
      if (answer.status < 300) return reply.redirect(`${pathOf(id)}/quiz?saved=1`, 303);
      const { message, problems } = refusal(answer);
      const mapped = quizProblems(problems, formIndex);
      return screen(request, reply, {
        draft,
        problems: mapped.filter((p) => p.box),
        unsaved: true,
        message: mapped.some((p) => p.box) ? undefined : message,
        status: answer.status,
      });
    },
  );
}

const emptyShown = (): Shown => ({ draft: draftOf(null), problems: [], unsaved: false });
const refused = (answer: Parameters<typeof refusal>[0]) => ({
  message: refusal(answer).message,
  status: answer.status,
});
