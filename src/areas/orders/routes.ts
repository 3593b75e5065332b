import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../http/schemas.ts';
import {
  CheckoutQuote,
  CheckoutQuoteQuery,
  CheckoutStart,
  CheckoutStarted,
  Order,
  OrderIdParams,
  OrderListQuery,
  OrderPage,
  OrderPayments,
  RefundRequest,
} from './schema.ts';
import type { OrdersService } from './service.ts';

const tags = ['orders'];
// Orders are made by the checkout (the buyer's own account:write) and the renewals, never written through orders:read.
// A student's orders:read token reads their own orders; staff read all.
const read = { scope: 'orders:read' } as const;
// Refunds are the school's administration (the interface's scopes have no orders:write): staff-only by role.
const refund = { scope: 'school:write' } as const;

export function ordersRoutes(fastify: FastifyInstance, service: OrdersService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/api/v1/orders', {
    config: read,
    schema: {
      operationId: 'listOrders',
      tags,
      summary: 'List orders (a student sees only their own), newest first',
      querystring: OrderListQuery,
      response: { 200: OrderPage, ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => service.list(request.principal, request.query),
  });

  app.get('/api/v1/orders/:id', {
    config: read,
    schema: {
      operationId: 'getOrder',
      tags,
      summary: 'Get an order with its items, totals and refunds',
      params: OrderIdParams,
      response: { 200: Order, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => service.get(request.principal, request.params.id),
  });

  app.get('/api/v1/account/checkout', {
    config: { scope: 'account:read' },
    schema: {
      operationId: 'quoteCheckout',
      tags: ['account'],
      summary: 'Price a course, plan price or product for you, with a coupon code applied (nothing is held)',
      querystring: CheckoutQuoteQuery,
      response: { 200: CheckoutQuote, ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: async (request) => service.quote(request.principal, request.query),
  });

  app.post('/api/v1/account/orders', {
    config: { scope: 'account:write', idempotent: true },
    schema: {
      operationId: 'startCheckout',
      tags: ['account'],
      summary: 'Buy a course, plan price or product: makes your order and says where to pay',
      description:
        "201 with the order and `payment_url`, the provider's page to send the buyer to (an order not paid within an hour is canceled). A free item, or a 100% coupon, is paid at once (`payment_url` null) and its access granted. Each call makes a new order; send an `Idempotency-Key` so a retry answers the first order instead of making a second.",
      body: CheckoutStart,
      response: { 201: CheckoutStarted, ...errorResponses(400, 401, 403, 404, 409, 503) },
    },
    handler: async (request, reply) => reply.code(201).send(await service.start(request.principal, request.body)),
  });

  app.get('/api/v1/orders/:id/payments', {
    config: read,
    schema: {
      operationId: 'listOrderPayments',
      tags,
      summary: "List an order's payments: the charges and refunds, oldest first",
      params: OrderIdParams,
      response: { 200: OrderPayments, ...errorResponses(401, 403, 404) },
    },
    handler: async (request) => service.payments(request.principal, request.params.id),
  });

  app.post('/api/v1/orders/:id/refund', {
    config: { ...refund, idempotent: true },
    schema: {
      operationId: 'refundOrder',
      tags,
      summary: 'Refund an order, in full or in part (staff)',
      description:
        'Asks the payment provider for the money back. The built-in test provider applies the refund at once; Stripe ' +
        'applies it when its webhook reports it, so the order may still show the earlier amount: 202 Accepted either way, ' +
        'with the order as it is now. A full refund takes back what the order granted (and what a plan the buyer holds ' +
        'still gives stays open). A refund is decided under the order’s lock: one that would take the refunds past what ' +
        'is left (another refund may be under way) is 409. Send an `Idempotency-Key` so a retry is the same refund.',
      params: OrderIdParams,
      body: RefundRequest,
      response: { 202: Order, ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: async (request, reply) =>
      reply.code(202).send(await service.refund(request.principal, request.params.id, request.body.amount)),
  });
}
