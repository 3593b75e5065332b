import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { html } from '../../text/html.ts';
import { csrfField } from '../shared/layout.ts';
import { DerivedFormBody, IdParams } from '../shared/page-schemas.ts';
import { ADMIN_ROUTE, type AdminDeps, adminGate, adminPage, adminPostGate, one, refusal } from './admin-context.ts';
import type { AdminRouteCall } from './form-kit/calls.ts';

/** How long an upload address stays good after the file was announced. */
const UPLOAD_TTL_MS = 3_600_000;

/** The storage purpose a file's type belongs to (the storage area checks the type against it). */
const purposeOf = (type: string) =>
  type.startsWith('video/')
    ? 'video'
    : type.startsWith('audio/')
      ? 'audio'
      : type === 'application/pdf'
        ? 'pdf'
        : type.startsWith('image/')
          ? 'image'
          : 'download';

type Upload = { asset: string; lesson: string; user: string; until: number };

/**
 * A lesson's file, uploaded from the admin with a progress bar: the page announces the file (createAsset, with the
 * form's CSRF token) and gets an upload address; admin.js sends the bytes there with XMLHttpRequest, which reports
 * progress; the address streams them into the API's uploadAssetContent and then sets the lesson's asset
 * (updateLesson). The address is signed with the cookie key (any instance can check it) and names the person,
 * the asset and the lesson, so it is good for nothing else — which is what a CSRF token would otherwise guard.
 */
export function registerLessonMedia(
  fastify: FastifyInstance,
  deps: AdminDeps & { route: AdminRouteCall; now: () => number },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const page = adminPage(deps);
  const lessonPath = (id: string) => `/admin/lessons/${encodeURIComponent(id)}`;

  app.get(
    '/admin/lessons/:id/media',
    { schema: { params: IdParams }, ...ADMIN_ROUTE, preHandler: adminGate() },
    async (request, reply) => {
      const lesson = await deps.call(request, 'getLesson', { id: request.params.id });
      if (lesson.status !== 200) return reply.callNotFound();
      const path = lessonPath(request.params.id);
      const body = html`<p><a href="${path}">Back to the lesson</a></p>
<div class="media-upload" data-media-upload data-start="${path}/media">${csrfField(reply.generateCsrf())}
<p><label for="media-file">File for “${String(lesson.body.title)}” (video, audio, PDF, image or a download)</label>
<input type="file" id="media-file" name="file"></p>
<progress id="media-progress" max="100" value="0" hidden aria-label="Upload progress"></progress>
<p role="status" aria-live="polite" class="media-status"></p>
<noscript><p class="warning">Uploading a file needs JavaScript. Without it, give the file's address in the lesson's
<a href="${path}/edit">Asset url</a> field instead.</p></noscript></div>
${lesson.body.asset_id ? html`<p>The lesson's file now: <code>${String(lesson.body.asset_id)}</code></p>` : ''}`;
      return page(request, reply, {
        title: `File of the lesson ${String(lesson.body.title)}`,
        current: 'courses',
        body,
      });
    },
  );

  app.post(
    '/admin/lessons/:id/media',
    { schema: { params: IdParams, body: DerivedFormBody }, ...ADMIN_ROUTE, preHandler: adminPostGate(app) },
    async (request, reply) => {
      const form = request.body ?? {};
      const type = String(one(form.content_type) ?? '') || 'application/octet-stream';
      const lesson = await deps.call(request, 'getLesson', { id: request.params.id });
      if (lesson.status !== 200) return reply.callNotFound();
      const made = await deps.call(request, 'createAsset', {
        purpose: purposeOf(type),
        filename: String(one(form.filename) ?? ''),
        content_type: type,
        byte_size: Number(one(form.byte_size)),
      });
      if (made.status >= 300)
        return reply.code(made.status).send({ error: 'refused', error_description: refusal(made).message });
      const ticket: Upload = {
        asset: String(made.body.id),
        lesson: request.params.id,
        user: request.viewer?.id ?? '',
        until: deps.now() + UPLOAD_TTL_MS,
      };
      const signed = app.signCookie(Buffer.from(JSON.stringify(ticket)).toString('base64url'));
      return reply
        .header('cache-control', 'no-store')
        .send({ asset_id: ticket.asset, upload_url: `/admin/uploads/${encodeURIComponent(signed)}` });
    },
  );

  const ticketOf = (request: FastifyRequest & { params: { ticket: string } }): Upload | undefined => {
    const unsigned = request.unsignCookie(request.params.ticket);
    if (!unsigned.valid || !unsigned.value) return undefined;
    try {
      const ticket = JSON.parse(Buffer.from(unsigned.value, 'base64url').toString()) as Upload;
      return ticket.user === request.viewer?.id && ticket.until > deps.now() ? ticket : undefined;
    } catch {
      return undefined;
    }
  };

  // The bytes arrive raw and are streamed on into the API as they come: no body parser reads them first.
  app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, _payload, done) => done(null));
    raw.put<{ Params: { ticket: string } }>(
      '/admin/uploads/:ticket',
      { ...ADMIN_ROUTE, preHandler: adminGate() },
      async (request, reply) => {
        const ticket = ticketOf(request);
        if (!ticket)
          return reply
            .code(404)
            .send({ error: 'not_found', error_description: 'This upload address is unknown or expired.' });
        const uploaded = await deps.route(request, {
          method: 'PUT',
          url: `/api/v1/storage/assets/${encodeURIComponent(ticket.asset)}/content`,
          payload: request.raw,
          headers: {
            'content-type': request.headers['content-type'] ?? 'application/octet-stream',
            ...(request.headers['content-length'] ? { 'content-length': request.headers['content-length'] } : {}),
          },
        });
        if (uploaded.statusCode >= 300)
          return reply.code(uploaded.statusCode).type('application/json').send(uploaded.body);
        const set = await deps.call(request, 'updateLesson', { id: ticket.lesson, asset_id: ticket.asset });
        if (set.status >= 300) return reply.code(set.status).send(set.body);
        return reply.header('cache-control', 'no-store').send({ asset_id: ticket.asset, lesson_id: ticket.lesson });
      },
    );
  });
}
