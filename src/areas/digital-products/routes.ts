import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { madeOrFound } from '../../http/made-or-found.ts';
import { noContent } from '../../http/no-content.ts';
import { errorResponses } from '../../http/schemas.ts';
import {
  DigitalProduct,
  DigitalProductCreate,
  DigitalProductListQuery,
  DigitalProductPage,
  DigitalProductUpdate,
  ProductDownloads,
  ProductGrant,
  ProductGrantCreate,
  ProductGrantListQuery,
  ProductGrantPage,
  ProductGrantParams,
  ProductIdParams,
  ProductKeyParams,
} from './schema.ts';
import type { DigitalProductsService } from './service.ts';

const tags = ['digital_products'];
const read = { scope: 'digital_products:read', anonymous: true } as const;
// Grants and download links are personal: a token is needed, and the principal decides which rows (see the service).
const personal = { scope: 'digital_products:read' } as const;
const write = { scope: 'digital_products:write' } as const;
const writeErrors = errorResponses(400, 401, 403, 404, 409);

export function digitalProductsRoutes(fastify: FastifyInstance, service: DigitalProductsService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/api/v1/digital-products', {
    config: read,
    schema: {
      operationId: 'listDigitalProducts',
      tags,
      summary: 'List digital products (published ones, and those the caller holds, unless the caller is staff)',
      querystring: DigitalProductListQuery,
      response: { 200: DigitalProductPage, ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => service.list(request.principal, request.query),
  });

  app.get('/api/v1/digital-products/:id', {
    config: read,
    schema: {
      operationId: 'getDigitalProduct',
      tags,
      summary: 'Get a digital product by id or slug',
      params: ProductKeyParams,
      response: { 200: DigitalProduct, ...errorResponses(401, 403, 404) },
    },
    handler: async (request) => service.get(request.principal, request.params.id),
  });

  app.post('/api/v1/digital-products', {
    config: { ...write, idempotent: true },
    schema: {
      operationId: 'createDigitalProduct',
      tags,
      summary: 'Create a draft digital product',
      body: DigitalProductCreate,
      response: { 201: DigitalProduct, ...writeErrors },
    },
    handler: async (request, reply) => reply.code(201).send(await service.create(request.body)),
  });

  app.patch('/api/v1/digital-products/:id', {
    config: write,
    schema: {
      operationId: 'updateDigitalProduct',
      tags,
      summary: 'Update a digital product (asset_ids replaces its files)',
      params: ProductIdParams,
      body: DigitalProductUpdate,
      response: { 200: DigitalProduct, ...writeErrors },
    },
    handler: async (request) => service.update(request.params.id, request.body),
  });

  app.delete('/api/v1/digital-products/:id', {
    config: write,
    schema: {
      operationId: 'deleteDigitalProduct',
      tags,
      summary: 'Delete a draft digital product that was never sold (archive any other)',
      params: ProductIdParams,
      response: { 204: Type.Null(), ...writeErrors },
    },
    handler: async (request, reply) => noContent(reply, service.delete(request.params.id)),
  });

  for (const [action, operationId, summary] of [
    ['publish', 'publishDigitalProduct', 'Publish a digital product (it needs at least one file)'],
    ['archive', 'archiveDigitalProduct', 'Archive a digital product: no longer sold; its holders keep their downloads'],
  ] as const) {
    app.post(`/api/v1/digital-products/:id/${action}`, {
      config: write,
      schema: {
        operationId,
        tags,
        summary,
        params: ProductIdParams,
        response: { 200: DigitalProduct, ...writeErrors },
      },
      handler: async (request) => service[action](request.params.id),
    });
  }

  app.get('/api/v1/digital-products/:id/downloads', {
    config: personal,
    schema: {
      operationId: 'getDigitalProductDownloads',
      tags,
      summary: "A product's files with signed download links that expire (for its holders and staff)",
      description:
        'Holders: people with an active grant, or holding a membership plan that includes the product. Anyone else ' +
        'gets 404. Each link works for whoever has it until expires_at (MEDIA_URL_TTL_SECONDS); ask again for fresh ones.',
      params: ProductKeyParams,
      response: { 200: ProductDownloads, ...errorResponses(401, 403, 404) },
    },
    handler: async (request) => service.downloads(request.principal, request.params.id),
  });

  app.get('/api/v1/digital-products/:id/grants', {
    config: personal,
    schema: {
      operationId: 'listDigitalProductGrants',
      tags,
      summary: "List a product's grants (staff: all; anyone else: their own)",
      params: ProductKeyParams,
      querystring: ProductGrantListQuery,
      response: { 200: ProductGrantPage, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => service.listGrants(request.principal, request.params.id, request.query),
  });

  app.post('/api/v1/digital-products/:id/grants', {
    config: { ...write, idempotent: true },
    schema: {
      operationId: 'grantDigitalProduct',
      tags,
      summary: 'Grant a product to a person (source manual); a revoked grant is reopened',
      description: '201 when the grant is new, 200 when the person had one (reopened if it was revoked).',
      params: ProductIdParams,
      body: ProductGrantCreate,
      response: { 201: ProductGrant, 200: ProductGrant, ...writeErrors },
    },
    handler: async (request, reply) => madeOrFound(reply, service.grantTo(request.params.id, request.body)),
  });

  app.delete('/api/v1/digital-products/:id/grants/:user_id', {
    config: write,
    schema: {
      operationId: 'revokeDigitalProductGrant',
      tags,
      summary: "Revoke a person's grant of a product (kept as history; their downloads stop)",
      params: ProductGrantParams,
      response: { 200: ProductGrant, ...writeErrors },
    },
    handler: async (request) => service.revokeGrant(request.params.id, request.params.user_id),
  });
}
