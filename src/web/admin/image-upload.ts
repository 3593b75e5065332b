import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OperationAnswer } from '../../operations/operation-calls.ts';
import { DerivedFormBody, IdParams } from '../shared/page-schemas.ts';
import { ADMIN_ROUTE, adminGate, adminPostGate, one, refusal } from './admin-context.ts';
import { type EditorDeps, editorPage } from './editor-page.ts';
import type { AdminRouteCall } from './form-kit/calls.ts';
import type { PostedForm } from './form-kit/form-values.ts';
import { acceptMultipartForms } from './form-kit/multipart.ts';
import { imageUploadView } from './image-upload-view.ts';

/** How long an upload address stays good after the picture was announced. */
const UPLOAD_TTL_MS = 3_600_000;

/**
 * The objects that carry a picture, by admin address. `asset` is the field taking an uploaded image; without one
 * (posts, products) the upload's public address goes into `url`, which images keep for good.
 */
const TARGETS = {
  courses: {
    path: 'cover',
    get: 'getCourse',
    update: 'updateCourse',
    asset: 'cover_asset_id',
    url: 'cover_url',
    noun: 'cover image',
    kind: 'course',
  },
  lecturers: {
    path: 'photo',
    get: 'getLecturer',
    update: 'updateLecturer',
    asset: 'avatar_asset_id',
    url: 'avatar_url',
    noun: 'photo',
    kind: 'lecturer',
  },
  posts: {
    path: 'cover',
    get: 'getPost',
    update: 'updatePost',
    asset: undefined,
    url: 'cover_url',
    noun: 'cover image',
    kind: 'post',
  },
  products: {
    path: 'picture',
    get: 'getDigitalProduct',
    update: 'updateDigitalProduct',
    asset: undefined,
    url: 'image_url',
    noun: 'picture',
    kind: 'product',
  },
  appearance: {
    path: 'logo',
    get: 'getAppearance',
    update: 'updateAppearance',
    asset: 'logo_asset_id',
    url: 'logo_url',
    noun: 'logo',
    kind: 'appearance',
  },
} as const;
type Key = keyof typeof TARGETS;
type Target = (typeof TARGETS)[Key];

type Ticket = { asset: string; key: Key; id: string; user: string; until: number };

/** A ticket in as few characters as it can be: the router takes path segments of at most 256. */
const ticketText = (t: Ticket) => [t.asset, t.key, t.id, t.user, t.until.toString(36)].join('~');
const ticketOfText = (text: string): Ticket | undefined => {
  const [asset = '', key = '', id = '', user = '', until = ''] = text.split('~');
  return key in TARGETS ? { asset, key: key as Key, id, user, until: Number.parseInt(until, 36) } : undefined;
};

const basePath = (key: Key, id: string) =>
  key === 'appearance' ? `/admin/appearance/logo` : `/admin/${key}/${encodeURIComponent(id)}/${TARGETS[key].path}`;

/** A refusal of createAsset or of the upload, in words about a picture. */
function fileProblem(answer: { status: number; body: unknown }): string {
  const { message, problems } = refusal(answer as OperationAnswer);
  const field = problems[0]?.field ?? '';
  if (field === 'content_type' || /type/i.test(message))
    return 'This file is not a picture the site can show: use PNG, JPEG, GIF, WebP or AVIF.';
  if (field === 'byte_size' || answer.status === 413)
    return 'This picture is too large; make it smaller and try again.';
  if (field === 'filename') return 'Rename the file (its name has characters a file name cannot have) and try again.';
  return message;
}

/**
 * Covers, photos and the logo as pictures rather than asset ids: `<object>/<cover|photo|logo>` shows the picture in
 * use and takes a new one three ways, each through the API: the script announces the file (createAsset), sends its
 * bytes to a signed address streamed into uploadAssetContent, and the object takes it (its update operation); a plain
 * multipart form does the same in one post without a script; or an address of a picture elsewhere is given.
 */
export function registerImageUploads(
  fastify: FastifyInstance,
  deps: EditorDeps & { route: AdminRouteCall; now: () => number },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const page = editorPage(deps);
  const argsOf = (key: Key, id: string) => (key === 'appearance' ? {} : { id });

  /** The object takes the uploaded picture: by asset id where it has such a field, else by its public address. */
  async function attach(request: FastifyRequest, key: Key, id: string, asset: string): Promise<OperationAnswer> {
    const target: Target = TARGETS[key];
    if (target.asset) return deps.call(request, target.update, { ...argsOf(key, id), [target.asset]: asset });
    const made = await deps.call(request, 'getAsset', { id: asset });
    if (made.status !== 200) return made;
    return deps.call(request, target.update, { ...argsOf(key, id), [target.url]: made.body.url });
  }

  const announce = (request: FastifyRequest, file: { name: string; type: string; size: number }) =>
    deps.call(request, 'createAsset', {
      purpose: 'image',
      filename: file.name,
      content_type: file.type || 'application/octet-stream',
      byte_size: file.size,
    });

  const upload = (
    request: FastifyRequest,
    asset: string,
    type: string,
    payload: Buffer | NodeJS.ReadableStream,
    length?: string,
  ) =>
    deps.route(request, {
      method: 'PUT',
      url: `/api/v1/storage/assets/${encodeURIComponent(asset)}/content`,
      payload,
      headers: { 'content-type': type, ...(length ? { 'content-length': length } : {}) },
    });

  async function screen(
    request: FastifyRequest,
    reply: FastifyReply,
    key: Key,
    id: string,
    refused?: { problems: { file?: string; address?: string }; address?: string; status: number },
  ) {
    const target: Target = TARGETS[key];
    const object = await deps.call(request, target.get, argsOf(key, id));
    if (object.status !== 200) return reply.callNotFound();
    const current = typeof object.body[target.url] === 'string' ? (object.body[target.url] as string) : null;
    const uploaded = target.asset ? Boolean(object.body[target.asset]) : false;
    const title = key === 'appearance' ? '' : String(object.body.title ?? object.body.name ?? '');
    const back = key === 'appearance' ? '/admin/appearance' : `/admin/${key}/${encodeURIComponent(id)}`;
    const query = request.query as Record<string, unknown> | undefined;
    return page(request, reply, {
      title: title ? `${capital(target.noun)}: ${title}` : capital(target.noun),
      current: key,
      status: refused?.status,
      notice: query && 'saved' in query ? `The ${target.noun} is saved.` : undefined,
      body: imageUploadView({
        base: basePath(key, id),
        backPath: back,
        backLabel: key === 'appearance' ? 'Back to the appearance' : `Back to the ${target.kind}`,
        noun: target.noun,
        current,
        address: refused?.address ?? (uploaded ? '' : (current ?? '')),
        problems: refused?.problems ?? {},
        csrf: reply.generateCsrf(),
      }),
    });
  }

  /** A change posted as a plain form: the script's announcement of a file, an address, or removal. */
  async function change(request: FastifyRequest, reply: FastifyReply, key: Key, id: string, form: PostedForm) {
    const target: Target = TARGETS[key];
    const done = () => reply.redirect(`${basePath(key, id)}?saved=1`, 303);
    const object = await deps.call(request, target.get, argsOf(key, id));
    if (object.status !== 200) return reply.callNotFound();
    switch (String(one(form.do) ?? '')) {
      case 'start': {
        const made = await announce(request, {
          name: String(one(form.filename) ?? ''),
          type: String(one(form.content_type) ?? ''),
          size: Number(one(form.byte_size)),
        });
        if (made.status >= 300)
          return reply.code(made.status).send({ error: 'refused', error_description: fileProblem(made) });
        const ticket: Ticket = {
          asset: String(made.body.id),
          key,
          id,
          user: request.viewer?.id ?? '',
          until: deps.now() + UPLOAD_TTL_MS,
        };
        const signed = app.signCookie(ticketText(ticket));
        return reply
          .header('cache-control', 'no-store')
          .send({ asset_id: ticket.asset, upload_url: `/admin/image-uploads/${encodeURIComponent(signed)}` });
      }
      case 'address': {
        const address = String(one(form.address) ?? '').trim();
        const answer = await deps.call(request, target.update, {
          ...argsOf(key, id),
          [target.url]: address === '' ? null : address,
          ...(target.asset ? { [target.asset]: null } : {}),
        });
        if (answer.status < 300) return done();
        return screen(request, reply, key, id, {
          problems: { address: 'Give the full address of a picture, starting with https://.' },
          address,
          status: answer.status,
        });
      }
      case 'remove': {
        const answer = await deps.call(request, target.update, {
          ...argsOf(key, id),
          [target.url]: null,
          ...(target.asset ? { [target.asset]: null } : {}),
        });
        if (answer.status < 300) return done();
        return screen(request, reply, key, id, {
          problems: { address: refusal(answer).message },
          status: answer.status,
        });
      }
      default:
        return reply.redirect(basePath(key, id), 303);
    }
  }

  /** The no-script upload: the picture arrives in a multipart form and goes the same way as the script's. */
  async function formUpload(request: FastifyRequest, reply: FastifyReply, key: Key, id: string) {
    const file = (request.body as { file?: unknown } | undefined)?.file;
    const refuse = (message: string, status = 400) =>
      screen(request, reply, key, id, { problems: { file: message }, status });
    if (!(file instanceof File) || file.size === 0) return refuse('Choose a picture to upload.');
    const object = await deps.call(request, TARGETS[key].get, argsOf(key, id));
    if (object.status !== 200) return reply.callNotFound();
    const made = await announce(request, file);
    if (made.status >= 300) return refuse(fileProblem(made), made.status);
    const asset = String(made.body.id);
    const sent = await upload(request, asset, file.type, Buffer.from(await file.arrayBuffer()));
    if (sent.statusCode >= 300)
      return refuse(fileProblem({ status: sent.statusCode, body: jsonOf(sent.body) }), sent.statusCode);
    const set = await attach(request, key, id, asset);
    if (set.status >= 300) return refuse(refusal(set).message, set.status);
    return reply.redirect(`${basePath(key, id)}?saved=1`, 303);
  }

  const get = { ...ADMIN_ROUTE, preHandler: adminGate() };
  const post = { ...ADMIN_ROUTE, preHandler: adminPostGate(app) };
  for (const key of ['courses', 'lecturers', 'posts', 'products'] as const) {
    const at = `/admin/${key}/:id/${TARGETS[key].path}`;
    app.get(at, { ...get, schema: { params: IdParams } }, (request, reply) =>
      screen(request, reply, key, request.params.id),
    );
    app.post(at, { ...post, schema: { params: IdParams, body: DerivedFormBody } }, (request, reply) =>
      change(request, reply, key, request.params.id, request.body ?? {}),
    );
  }
  app.get('/admin/appearance/logo', get, (request, reply) => screen(request, reply, 'appearance', ''));
  app.post('/admin/appearance/logo', { ...post, schema: { body: DerivedFormBody } }, (request, reply) =>
    change(request, reply, 'appearance', '', request.body ?? {}),
  );

  const ticketOf = (request: FastifyRequest & { params: { ticket: string } }): Ticket | undefined => {
    const unsigned = request.unsignCookie(request.params.ticket);
    if (!unsigned.valid || !unsigned.value) return undefined;
    const ticket = ticketOfText(unsigned.value);
    return ticket && ticket.user === request.viewer?.id && ticket.until > deps.now() ? ticket : undefined;
  };

  app.register(async (scope) => {
    acceptMultipartForms(scope);
    const typed = scope.withTypeProvider<TypeBoxTypeProvider>();
    for (const key of ['courses', 'lecturers', 'posts', 'products'] as const)
      typed.post(
        `/admin/${key}/:id/${TARGETS[key].path}/file`,
        { ...post, schema: { params: IdParams } },
        (request, reply) => formUpload(request, reply, key, request.params.id),
      );
    typed.post('/admin/appearance/logo/file', post, (request, reply) => formUpload(request, reply, 'appearance', ''));
  });

  // The script's bytes arrive raw and are streamed on into the API as they come: no body parser reads them first.
  app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, _payload, done) => done(null));
    raw.put<{ Params: { ticket: string } }>(
      '/admin/image-uploads/:ticket',
      { ...ADMIN_ROUTE, preHandler: adminGate() },
      async (request, reply) => {
        const ticket = ticketOf(request);
        if (!ticket)
          return reply
            .code(404)
            .send({ error: 'not_found', error_description: 'This upload address is unknown or expired.' });
        const sent = await upload(
          request,
          ticket.asset,
          request.headers['content-type'] ?? 'application/octet-stream',
          request.raw,
          request.headers['content-length'],
        );
        if (sent.statusCode >= 300)
          return reply.code(sent.statusCode).send({
            error: 'refused',
            error_description: fileProblem({ status: sent.statusCode, body: jsonOf(sent.body) }),
          });
        const set = await attach(request, ticket.key, ticket.id, ticket.asset);
        if (set.status >= 300)
          return reply.code(set.status).send({ error: 'refused', error_description: refusal(set).message });
        return reply
          .header('cache-control', 'no-store')
          .send({ asset_id: ticket.asset, saved: `${basePath(ticket.key, ticket.id)}?saved=1` });
      },
    );
  });
}

const jsonOf = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
};

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
