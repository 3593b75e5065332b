import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestedRange } from '../../http/byte-range.ts';
import { errors } from '../../http/errors.ts';
import { etagMatches } from '../../http/etag.ts';
import { errorResponses } from '../../http/schemas.ts';
import { withoutDeceptive } from '../../security/deceptive-text.ts';
import { VariantParams } from './image-variants.ts';
import { Asset, AssetCreate, AssetIdParams, AssetListQuery, AssetPage, MediaParams, MediaQuery } from './schema.ts';
import type { StorageService } from './service.ts';

const tags = ['storage'];
const write = { scope: 'storage:write' } as const;

export function storageRoutes(fastify: FastifyInstance, service: StorageService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post('/api/v1/storage/assets', {
    config: { ...write, idempotent: true },
    schema: {
      operationId: 'createAsset',
      tags,
      summary: 'Start an upload: declare the file, then PUT its bytes to the upload_url returned',
      description:
        'Each purpose has a size limit (a larger file is 413) and the types it accepts (another type is 400). The asset is pending until its bytes arrive.',
      body: AssetCreate,
      response: { 201: Asset, ...errorResponses(400, 401, 403, 413) },
    },
    handler: async (request, reply) => reply.code(201).send(await service.create(request.principal, request.body)),
  });

  app.get('/api/v1/storage/assets', {
    config: write,
    schema: {
      operationId: 'listAssets',
      tags,
      summary: 'List uploaded assets',
      querystring: AssetListQuery,
      response: { 200: AssetPage, ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => service.list(request.query),
  });

  app.get('/api/v1/storage/assets/:id', {
    config: write,
    schema: {
      operationId: 'getAsset',
      tags,
      summary: 'Get an asset (its status, SHA-256 and URL)',
      params: AssetIdParams,
      response: { 200: Asset, ...errorResponses(401, 403, 404) },
    },
    handler: async (request) => service.get(request.params.id),
  });

  // The bytes arrive raw and are streamed as they come: no body parser reads them first.
  app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, _payload, done) => done(null));
    raw.withTypeProvider<TypeBoxTypeProvider>().put('/api/v1/storage/assets/:id/content', {
      config: { ...write, binary: true },
      schema: {
        operationId: 'uploadAssetContent',
        tags,
        summary: "Upload a pending asset's bytes (the raw file as the request body)",
        description:
          'Send exactly byte_size bytes. The asset becomes ready, or failed when the bytes are not what was declared.',
        params: AssetIdParams,
        response: { 200: Asset, ...errorResponses(400, 401, 403, 404, 409, 413) },
      },
      handler: async (request) => service.upload(request.params.id, request.raw, contentLength(request)),
    });
  });
}

const contentLength = (request: FastifyRequest) => {
  const header = request.headers['content-length'];
  return header === undefined ? undefined : Number(header);
};

/**
 * `filename*` carries the real name; `filename` an ASCII stand-in for old clients. Neither carries a character that
 * could disguise the extension (a name stored before uploads were cleaned may still hold one).
 */
const disposition = (kind: 'inline' | 'attachment', stored: string) => {
  const filename = withoutDeceptive(stored).trim() || 'download';
  return `${kind}; filename="${filename.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
};

/**
 * Asset delivery, outside the API: `/media/{id}` serves a public asset to anyone, and any other asset to whoever
 * holds a signed, unexpired link to it. Range requests are honoured (video seeking, resumed downloads).
 */
export function mediaRoutes(fastify: FastifyInstance, service: StorageService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/media/:id', {
    config: { public: true },
    schema: { params: MediaParams, querystring: MediaQuery },
    handler: async (request, reply) => serve(request, reply, service, request.params.id, request.query),
  });

  // A variant's name is a hash of its bytes: what is served under it never changes, so it may be kept for good.
  app.get('/media/:id/:name', {
    config: { public: true },
    schema: { params: VariantParams },
    handler: async (request, reply) => {
      const variant = await service.variant(request.params.id, request.params.name);
      if (!variant) throw errors.notFound('file');
      reply
        .header('content-type', variant.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('etag', variant.etag)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('cross-origin-resource-policy', 'cross-origin');
      if (etagMatches(request.headers['if-none-match'], variant.etag)) return reply.code(304).send();
      reply.header('content-length', variant.byteSize);
      return reply.send(await service.open(variant.key));
    },
  });
}

async function serve(
  request: FastifyRequest,
  reply: FastifyReply,
  service: StorageService,
  id: string,
  query: { expires?: string; signature?: string },
) {
  const file = await service.servable(id, query);
  const etag = `"${file.sha256}"`;
  reply
    .header('content-type', file.contentType)
    .header('x-content-type-options', 'nosniff')
    .header('accept-ranges', 'bytes')
    .header('etag', etag)
    .header('content-disposition', disposition(file.attachment ? 'attachment' : 'inline', file.filename))
    .header(
      'cache-control',
      file.public ? `public, max-age=${file.freshForSeconds}, immutable` : `private, max-age=${file.freshForSeconds}`,
    );
  // Public files may be shown by other sites (a course cover in a partner's catalog).
  if (file.public) reply.header('cross-origin-resource-policy', 'cross-origin');
  if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
  const ifRange = request.headers['if-range'];
  const range =
    ifRange === undefined || ifRange === etag ? requestedRange(request.headers.range, file.byteSize) : undefined;
  if (range === 'unsatisfiable') throw errors.rangeNotSatisfiable(file.byteSize);
  if (!range) {
    reply.header('content-length', file.byteSize);
    return reply.send(await service.open(file.key));
  }
  reply
    .code(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${file.byteSize}`)
    .header('content-length', range.end - range.start + 1);
  return reply.send(await service.open(file.key, range));
}
