import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OperationAnswer } from '../../operations/operation-calls.ts';
import { DerivedFormBody, IdParams } from '../shared/page-schemas.ts';
import { ADMIN_ROUTE, adminGate, adminPostGate, one, refusal } from './admin-context.ts';
import { type EditorDeps, editorPage } from './editor-page.ts';
import type { AdminRouteCall } from './form-kit/calls.ts';
import { acceptMultipartForms } from './form-kit/multipart.ts';
import { type CaptionProblems, type CaptionRow, lessonCaptionsView } from './lesson-captions-view.ts';

type Caption = { asset_id: string; language: string; label: string };
type Posted = { file?: unknown; language?: unknown; label?: unknown; _csrf?: unknown };

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
const jsonOf = (body: string): unknown => {
  try {
    return JSON.parse(body);
  } catch {
    return {};
  }
};

/** A refusal of an upload or of the lesson's update, in words about the box it concerns. */
function problemOf(answer: { status: number; body: unknown }, box: 'file' | 'poster'): CaptionProblems {
  const { message, problems } = refusal(answer as OperationAnswer);
  const field = problems[0]?.field ?? '';
  if (field.endsWith('.language')) return { language: 'Give a language tag such as en, de or pt-BR.' };
  if (field.endsWith('.label')) return { label: problems[0]?.message ?? message };
  if (box === 'file' && (field === 'content_type' || /WebVTT|text\/vtt|not a file type|bytes are/i.test(message)))
    return { file: 'This is not a WebVTT caption file: it must start with the line WEBVTT.' };
  if (box === 'poster' && (field === 'content_type' || /type/i.test(message)))
    return { poster: 'This file is not a picture the site can show: use PNG, JPEG, WebP or AVIF.' };
  if (field === 'byte_size' || answer.status === 413) return { [box]: 'This file is too large.' };
  return { [box]: message };
}

/**
 * A lesson's captions and poster at /admin/lessons/{id}/captions, each change an API operation as the staff member:
 * a caption file is uploaded (createAsset with purpose captions, its bytes to uploadAssetContent, which checks the
 * WebVTT signature) and added to the lesson's list (updateLesson captions); a poster likewise as an image
 * (poster_asset_id).
 */
export function registerLessonCaptions(fastify: FastifyInstance, deps: EditorDeps & { route: AdminRouteCall }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const page = editorPage(deps);
  const lessonPath = (id: string) => `/admin/lessons/${encodeURIComponent(id)}`;
  const base = (id: string) => `${lessonPath(id)}/captions`;

  const lessonOf = async (request: FastifyRequest, id: string) => {
    const answer = await deps.call(request, 'getLesson', { id });
    return answer.status === 200 ? answer.body : undefined;
  };
  const captionsOf = (lesson: Record<string, unknown>) =>
    ((lesson.captions as Caption[] | undefined) ?? []).map(({ asset_id, language, label }) => ({
      asset_id,
      language,
      label,
    }));

  async function screen(
    request: FastifyRequest,
    reply: FastifyReply,
    id: string,
    refused?: { problems: CaptionProblems; typed?: { language: string; label: string }; status: number },
  ) {
    const lesson = await lessonOf(request, id);
    if (!lesson) return reply.callNotFound();
    const captions = captionsOf(lesson);
    const files = await Promise.all(
      captions.map(async (c) => {
        const asset = await deps.call(request, 'getAsset', { id: c.asset_id });
        return asset.status === 200 ? String(asset.body.filename) : c.asset_id;
      }),
    );
    const rows: CaptionRow[] = captions.map((c, i) => ({
      language: c.language,
      label: c.label,
      filename: files[i] ?? '',
    }));
    const query = request.query as Record<string, unknown> | undefined;
    return page(request, reply, {
      title: `Captions and poster: ${String(lesson.title)}`,
      current: 'courses',
      status: refused?.status,
      notice: query && 'saved' in query ? 'Saved: the player uses it now.' : undefined,
      body: lessonCaptionsView({
        base: base(id),
        lessonPath: lessonPath(id),
        played: lesson.type === 'video' || lesson.type === 'audio',
        captions: rows,
        posterUrl: typeof lesson.poster_url === 'string' ? lesson.poster_url : null,
        problems: refused?.problems ?? {},
        typed: refused?.typed ?? { language: '', label: '' },
        csrf: reply.generateCsrf(),
      }),
    });
  }

  /** Sends a posted file to storage as `purpose`; the new asset's id, or the answer that refused it. */
  async function upload(request: FastifyRequest, file: File, purpose: 'captions' | 'image') {
    // A .vtt file often comes without a type from the browser; its bytes are checked all the same.
    const type = file.type || (purpose === 'captions' ? 'text/vtt' : 'application/octet-stream');
    const made = await deps.call(request, 'createAsset', {
      purpose,
      filename: file.name,
      content_type: type,
      byte_size: file.size,
    });
    if (made.status >= 300) return { refused: made };
    const asset = String(made.body.id);
    const sent = await deps.route(request, {
      method: 'PUT',
      url: `/api/v1/storage/assets/${encodeURIComponent(asset)}/content`,
      payload: Buffer.from(await file.arrayBuffer()),
      headers: { 'content-type': type },
    });
    if (sent.statusCode >= 300) return { refused: { status: sent.statusCode, body: jsonOf(sent.body) } };
    return { asset };
  }

  const update = (request: FastifyRequest, id: string, changes: Record<string, unknown>) =>
    deps.call(request, 'updateLesson', { id, ...changes });

  const get = { ...ADMIN_ROUTE, preHandler: adminGate() };
  const post = { ...ADMIN_ROUTE, preHandler: adminPostGate(app) };

  app.get('/admin/lessons/:id/captions', { ...get, schema: { params: IdParams } }, (request, reply) =>
    screen(request, reply, request.params.id),
  );

  // Removing a caption file (do=remove-<n>) or the poster (do=remove-poster).
  app.post(
    '/admin/lessons/:id/captions',
    { ...post, schema: { params: IdParams, body: DerivedFormBody } },
    async (request, reply) => {
      const id = request.params.id;
      const lesson = await lessonOf(request, id);
      if (!lesson) return reply.callNotFound();
      const what = String(one(request.body?.do) ?? '');
      const at = /^remove-(\d{1,2})$/.exec(what);
      const changes =
        what === 'remove-poster'
          ? { poster_asset_id: null }
          : at
            ? { captions: captionsOf(lesson).filter((_, i) => i !== Number(at[1])) }
            : undefined;
      if (!changes) return reply.redirect(base(id), 303);
      const answer = await update(request, id, changes);
      if (answer.status >= 300)
        return screen(request, reply, id, { problems: { file: refusal(answer).message }, status: answer.status });
      return reply.redirect(`${base(id)}?saved=1`, 303);
    },
  );

  app.register(async (scope) => {
    acceptMultipartForms(scope);
    const typed = scope.withTypeProvider<TypeBoxTypeProvider>();

    typed.post(
      '/admin/lessons/:id/captions/file',
      { ...post, schema: { params: IdParams } },
      async (request, reply) => {
        const id = request.params.id;
        const form = (request.body ?? {}) as Posted;
        const entered = { language: text(form.language), label: text(form.label) };
        const refuse = (problems: CaptionProblems, status = 400) =>
          screen(request, reply, id, { problems, typed: entered, status });
        const lesson = await lessonOf(request, id);
        if (!lesson) return reply.callNotFound();
        if (!(form.file instanceof File) || form.file.size === 0) return refuse({ file: 'Choose a WebVTT file.' });
        if (!entered.language) return refuse({ language: 'Give the language of the captions (en, de, pt-BR…).' });
        if (!entered.label) return refuse({ label: 'Give the name the player shows for them.' });
        const sent = await upload(request, form.file, 'captions');
        if (sent.refused) return refuse(problemOf(sent.refused, 'file'), sent.refused.status);
        const captions = [...captionsOf(lesson), { asset_id: sent.asset, ...entered }];
        const answer = await update(request, id, { captions });
        if (answer.status >= 300) return refuse(problemOf(answer, 'file'), answer.status);
        return reply.redirect(`${base(id)}?saved=1`, 303);
      },
    );

    typed.post(
      '/admin/lessons/:id/captions/poster',
      { ...post, schema: { params: IdParams } },
      async (request, reply) => {
        const id = request.params.id;
        const form = (request.body ?? {}) as Posted;
        const refuse = (problems: CaptionProblems, status = 400) => screen(request, reply, id, { problems, status });
        if (!(await lessonOf(request, id))) return reply.callNotFound();
        if (!(form.file instanceof File) || form.file.size === 0) return refuse({ poster: 'Choose a picture.' });
        const sent = await upload(request, form.file, 'image');
        if (sent.refused) return refuse(problemOf(sent.refused, 'poster'), sent.refused.status);
        const answer = await update(request, id, { poster_asset_id: sent.asset });
        if (answer.status >= 300) return refuse(problemOf(answer, 'poster'), answer.status);
        return reply.redirect(`${base(id)}?saved=1`, 303);
      },
    );
  });
}
