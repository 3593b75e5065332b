import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { prefersOverJson } from '../../http/accept.ts';
import { sendCsv } from '../../http/csv.ts';
import { noContent } from '../../http/no-content.ts';
import { errorResponses } from '../../http/schemas.ts';
import {
  Coupon,
  CouponBatch,
  CouponBulkCreate,
  CouponCreate,
  CouponIdParams,
  CouponListQuery,
  CouponPage,
  CouponUpdate,
} from './schema.ts';
import type { CouponsService } from './service.ts';

const tags = ['coupons'];
// Coupons are staff business: both scopes are staff-only, so a student's token never reaches them.
const read = { scope: 'coupons:read' } as const;
const write = { scope: 'coupons:write' } as const;
const writeErrors = errorResponses(400, 401, 403, 404, 409);

const wantsCsv = (request: FastifyRequest) => prefersOverJson(request.headers.accept, 'text/csv');

export function couponsRoutes(fastify: FastifyInstance, service: CouponsService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/api/v1/coupons', {
    config: read,
    schema: {
      operationId: 'listCoupons',
      tags,
      summary: 'List coupons (filters state, q: code prefix, batch)',
      description:
        'With Accept: text/csv the answer is a CSV file of every coupon the filters select (not paged: limit and ' +
        'starting_after do not apply), e.g. ?batch=SPRING for the codes of a bulk-created batch.',
      querystring: CouponListQuery,
      response: { 200: CouponPage, ...errorResponses(400, 401, 403) },
    },
    handler: async (request, reply) =>
      wantsCsv(request) ? sendCsv(reply, 'coupons.csv', service.exportCsv(request.query)) : service.list(request.query),
  });

  app.get('/api/v1/coupons/:id', {
    config: read,
    schema: {
      operationId: 'getCoupon',
      tags,
      summary: 'Get a coupon',
      params: CouponIdParams,
      response: { 200: Coupon, ...errorResponses(401, 403, 404) },
    },
    handler: async (request) => service.get(request.params.id),
  });

  app.post('/api/v1/coupons', {
    config: { ...write, idempotent: true },
    schema: {
      operationId: 'createCoupon',
      tags,
      summary: 'Create a coupon',
      body: CouponCreate,
      response: { 201: Coupon, ...writeErrors },
    },
    handler: async (request, reply) => reply.code(201).send(await service.create(request.body)),
  });

  app.post('/api/v1/coupons/bulk', {
    config: { ...write, idempotent: true },
    schema: {
      operationId: 'bulkCreateCoupons',
      tags,
      summary: 'Create up to 1,000 coupons with unique random codes PREFIX-XXXXXXXX, all on the same terms',
      description:
        'All or none, in one transaction. The prefix (upper case) names the batch: list or export it with ' +
        '?batch=PREFIX. max_redemptions defaults to 1 (each code used once).',
      body: CouponBulkCreate,
      response: { 201: CouponBatch, ...writeErrors },
    },
    handler: async (request, reply) => reply.code(201).send(await service.bulkCreate(request.body)),
  });

  app.patch('/api/v1/coupons/:id', {
    config: write,
    schema: {
      operationId: 'updateCoupon',
      tags,
      summary: 'Update a coupon (code and discount are frozen once it has been redeemed)',
      params: CouponIdParams,
      body: CouponUpdate,
      response: { 200: Coupon, ...writeErrors },
    },
    handler: async (request) => service.update(request.params.id, request.body),
  });

  app.delete('/api/v1/coupons/:id', {
    config: write,
    schema: {
      operationId: 'deleteCoupon',
      tags,
      summary: 'Delete a coupon that was never redeemed (disable a redeemed one)',
      params: CouponIdParams,
      response: { 204: Type.Null(), ...writeErrors },
    },
    handler: async (request, reply) => noContent(reply, service.delete(request.params.id)),
  });

  for (const [action, operationId, summary] of [
    ['disable', 'disableCoupon', 'Disable a coupon: it can no longer be redeemed (orders already holding it keep it)'],
    ['enable', 'enableCoupon', 'Enable a disabled coupon again'],
  ] as const) {
    app.post(`/api/v1/coupons/:id/${action}`, {
      config: write,
      schema: { operationId, tags, summary, params: CouponIdParams, response: { 200: Coupon, ...writeErrors } },
      handler: async (request) => service[action](request.params.id),
    });
  }
}
