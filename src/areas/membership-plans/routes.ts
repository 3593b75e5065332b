import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { noContent } from '../../http/no-content.ts';
import { errorResponses } from '../../http/schemas.ts';
import {
  Plan,
  PlanCreate,
  PlanIdParams,
  PlanKeyParams,
  PlanListQuery,
  PlanPage,
  PlanPriceParams,
  PlanUpdate,
  Price,
  PriceCreate,
  PriceListQuery,
  PricePage,
} from './schema.ts';
import type { PlansService } from './service.ts';

const tags = ['membership_plans'];
// Plans are what the school sells: anonymous callers read the public view (active plans, active prices).
const read = { scope: 'membership_plans:read', anonymous: true } as const;
const write = { scope: 'membership_plans:write' } as const;
const readErrors = errorResponses(400, 401, 403, 404);
const writeErrors = errorResponses(400, 401, 403, 404, 409);

export function membershipPlansRoutes(fastify: FastifyInstance, service: PlansService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/api/v1/membership-plans', {
    config: read,
    schema: {
      operationId: 'listMembershipPlans',
      tags,
      summary: 'List membership plans with their prices (anonymous callers and students: public active plans)',
      querystring: PlanListQuery,
      response: { 200: PlanPage, ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => service.list(request.principal, request.query),
  });

  app.get('/api/v1/membership-plans/:id', {
    config: read,
    schema: {
      operationId: 'getMembershipPlan',
      tags,
      summary: 'Get a membership plan by id or slug, with its prices (a hidden plan too: its link sells it)',
      params: PlanKeyParams,
      response: { 200: Plan, ...readErrors },
    },
    handler: async (request) => service.get(request.principal, request.params.id),
  });

  app.post('/api/v1/membership-plans', {
    config: { ...write, idempotent: true },
    schema: {
      operationId: 'createMembershipPlan',
      tags,
      summary: 'Create a membership plan (active; give it prices to sell it)',
      body: PlanCreate,
      response: { 201: Plan, ...writeErrors },
    },
    handler: async (request, reply) => reply.code(201).send(await service.create(request.body)),
  });

  app.patch('/api/v1/membership-plans/:id', {
    config: write,
    schema: {
      operationId: 'updateMembershipPlan',
      tags,
      summary: 'Change a plan (a new course list changes its holders’ access)',
      params: PlanIdParams,
      body: PlanUpdate,
      response: { 200: Plan, ...writeErrors },
    },
    handler: async (request) => service.update(request.params.id, request.body),
  });

  app.delete('/api/v1/membership-plans/:id', {
    config: write,
    schema: {
      operationId: 'deleteMembershipPlan',
      tags,
      summary: 'Delete a plan never sold, subscribed to or comped (else 409: archive it)',
      params: PlanIdParams,
      response: { 204: Type.Null(), ...writeErrors },
    },
    handler: async (request, reply) => noContent(reply, service.delete(request.params.id)),
  });

  app.post('/api/v1/membership-plans/:id/archive', {
    config: write,
    schema: {
      operationId: 'archiveMembershipPlan',
      tags,
      summary: 'Archive a plan: no longer sold or shown; its subscriptions and comps go on',
      params: PlanIdParams,
      response: { 200: Plan, ...writeErrors },
    },
    handler: async (request) => service.archive(request.params.id),
  });

  app.get('/api/v1/membership-plans/:id/prices', {
    config: read,
    schema: {
      operationId: 'listPlanPrices',
      tags,
      summary: 'List a plan’s prices, oldest first (anonymous callers and students: active prices)',
      params: PlanKeyParams,
      querystring: PriceListQuery,
      response: { 200: PricePage, ...readErrors },
    },
    handler: async (request) => service.listPrices(request.principal, request.params.id, request.query),
  });

  app.post('/api/v1/membership-plans/:id/prices', {
    config: { ...write, idempotent: true },
    schema: {
      operationId: 'createPlanPrice',
      tags,
      summary: 'Add a price to an active plan (prices are never edited: archive one and add another)',
      params: PlanIdParams,
      body: PriceCreate,
      response: { 201: Price, ...writeErrors },
    },
    handler: async (request, reply) => reply.code(201).send(await service.createPrice(request.params.id, request.body)),
  });

  app.post('/api/v1/membership-plans/:id/prices/:price_id/archive', {
    config: write,
    schema: {
      operationId: 'archivePlanPrice',
      tags,
      summary: 'Archive a price: no longer sold; subscriptions on it go on renewing at it',
      params: PlanPriceParams,
      response: { 200: Price, ...writeErrors },
    },
    handler: async (request) => service.archivePrice(request.params.id, request.params.price_id),
  });
}
