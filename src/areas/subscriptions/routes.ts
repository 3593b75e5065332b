import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../http/schemas.ts';
import {
  Subscription,
  SubscriptionCancel,
  SubscriptionIdParams,
  SubscriptionListQuery,
  SubscriptionPage,
  SubscriptionPlanChange,
} from './schema.ts';
import type { SubscriptionsService } from './service.ts';

const tags = ['subscriptions'];
// There is no public subscription data: a student's subscriptions:read token reads their own; writes are staff's.
// The subscriber cancels and resumes their own through the account's paths (account:write).
const read = { scope: 'subscriptions:read' } as const;
const write = { scope: 'subscriptions:write' } as const;
const mine = { scope: 'account:write' } as const;
const writeErrors = errorResponses(400, 401, 403, 404, 409, 503);

export function subscriptionsRoutes(fastify: FastifyInstance, service: SubscriptionsService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/api/v1/subscriptions', {
    config: read,
    schema: {
      operationId: 'listSubscriptions',
      tags,
      summary: 'List subscriptions (a student sees only their own)',
      querystring: SubscriptionListQuery,
      response: { 200: SubscriptionPage, ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => service.list(request.principal, request.query),
  });

  app.get('/api/v1/subscriptions/:id', {
    config: read,
    schema: {
      operationId: 'getSubscription',
      tags,
      summary: 'Get a subscription (a student: their own)',
      params: SubscriptionIdParams,
      response: { 200: Subscription, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => service.get(request.principal, request.params.id),
  });

  app.post('/api/v1/subscriptions/:id/cancel', {
    config: write,
    schema: {
      operationId: 'cancelSubscription',
      tags,
      summary: 'Cancel a subscription now (its courses close at once) or at the end of the paid period',
      params: SubscriptionIdParams,
      body: SubscriptionCancel,
      response: { 200: Subscription, ...writeErrors },
    },
    handler: async (request) => service.cancel(request.params.id, request.body),
  });

  app.post('/api/v1/subscriptions/:id/resume', {
    config: write,
    schema: {
      operationId: 'resumeSubscription',
      tags,
      summary: 'Take back a cancel set for the period end, or un-pause a paused subscription',
      params: SubscriptionIdParams,
      response: { 200: Subscription, ...writeErrors },
    },
    handler: async (request) => service.resume(request.params.id),
  });

  app.post('/api/v1/subscriptions/:id/pause', {
    config: write,
    schema: {
      operationId: 'pauseSubscription',
      tags,
      summary: 'Pause an active subscription: its plan opens nothing and it does not renew until resumed',
      params: SubscriptionIdParams,
      response: { 200: Subscription, ...writeErrors },
    },
    handler: async (request) => service.pause(request.params.id),
  });

  app.post('/api/v1/subscriptions/:id/change-plan', {
    config: write,
    schema: {
      operationId: 'changeSubscriptionPlan',
      tags,
      summary: 'Renew on another recurring price (of this plan or another) from the next period',
      params: SubscriptionIdParams,
      body: SubscriptionPlanChange,
      response: { 200: Subscription, ...writeErrors },
    },
    handler: async (request) => service.changePlan(request.params.id, request.body),
  });

  app.post('/api/v1/account/subscriptions/:id/cancel', {
    config: mine,
    schema: {
      operationId: 'cancelMySubscription',
      tags: ['account'],
      summary: 'Cancel your own subscription, now or at the end of the paid period',
      params: SubscriptionIdParams,
      body: SubscriptionCancel,
      response: { 200: Subscription, ...writeErrors },
    },
    handler: async (request) => service.cancelMine(request.principal, request.params.id, request.body),
  });

  app.post('/api/v1/account/subscriptions/:id/resume', {
    config: mine,
    schema: {
      operationId: 'resumeMySubscription',
      tags: ['account'],
      summary: 'Take back your own cancel set for the period end, or un-pause your subscription',
      params: SubscriptionIdParams,
      response: { 200: Subscription, ...writeErrors },
    },
    handler: async (request) => service.resumeMine(request.principal, request.params.id),
  });
}
