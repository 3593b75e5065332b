import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Type, { type Static } from 'typebox';
import type { Areas } from '../../areas/index.ts';
import type { CheckoutItem, Order } from '../../areas/orders/schema.ts';
import { ApiError } from '../../http/errors.ts';
import { isStaff, type Principal } from '../../http/principal.ts';
import type { TestProvider } from '../../payments/test-provider.ts';
import { html } from '../../text/html.ts';
import type { AdminCall } from '../admin/form-kit/calls.ts';
import type { PageRenderer } from '../shared/page-context.ts';
import { ButtonBody, FormBody, IdParams, Key, PageQuery, Text } from '../shared/page-schemas.ts';
import { formPage, signInGate } from '../shared/sign-in-gate.ts';
import { schoolFacts } from '../shared/site-deps.ts';
import { viewerPrincipal } from '../shared/viewer.ts';
import {
  checkoutPath,
  checkoutView,
  type ItemLink,
  myMembershipsView,
  myOrdersView,
  orderPath,
  orderView,
  testPaymentView,
} from './checkout-view.ts';

const CheckoutParams = Type.Object({ type: Key, key: Key });
type CheckoutParams = Static<typeof CheckoutParams>;
type OrderParams = Static<typeof IdParams>;

const TYPES = new Set(['course', 'plan', 'product']);

const refusal = (error: unknown) =>
  error instanceof ApiError && (error.code === 'conflict' || error.code === 'invalid_request') ? error : undefined;
const couponRefusal = (error: unknown) =>
  error instanceof ApiError && error.code === 'invalid_request' && error.fields?.some((f) => f.field === 'coupon_code')
    ? error
    : undefined;

/** Where a held item is used. */
const heldHref = (item: { type: string; slug: string }) =>
  item.type === 'course'
    ? `/learn/${encodeURIComponent(item.slug)}`
    : item.type === 'product'
      ? `/products/${encodeURIComponent(item.slug)}`
      : `/plans/${encodeURIComponent(item.slug)}`;

/**
 * The storefront's checkout in the browser: the review step (price, coupon, total), the button that makes the order
 * and sends the buyer to the provider, the order's page (receipt, or what went wrong, and for staff the refund form),
 * "My orders", and the built-in test provider's payment page. Signed-in people only; every rule is the orders
 * area's own (the same service as `quoteCheckout` and `startCheckout`).
 */
export function registerCheckoutPages(
  fastify: FastifyInstance,
  deps: {
    areas: Pick<Areas, 'orders' | 'school' | 'subscriptions' | 'membershipPlans'>;
    render: PageRenderer;
    testPayments: TestProvider | undefined;
    /** Runs an API operation as the signed-in person (the refund is the API's refundOrder, audited like any write). */
    call: AdminCall;
  },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { orders, subscriptions, membershipPlans } = deps.areas;
  const config = { page: true };

  const signedIn = signInGate();

  const locale = async () => (await schoolFacts(deps.areas.school)).locale;
  const dates = async () => (await schoolFacts(deps.areas.school)).dates;

  function itemOf(params: CheckoutParams, reply: FastifyReply): CheckoutItem | undefined {
    if (!TYPES.has(params.type) || params.key.length > 120) {
      reply.callNotFound();
      return undefined;
    }
    return { type: params.type as CheckoutItem['type'], key: params.key };
  }

  async function review(
    request: FastifyRequest & { params: CheckoutParams },
    reply: FastifyReply,
    item: CheckoutItem,
    couponCode: string,
    problem?: { message: string; status: number },
  ) {
    const principal = viewerPrincipal(request.viewer);
    let couponProblem: string | undefined;
    let quote: Awaited<ReturnType<typeof orders.quote>>;
    try {
      quote = await orders.quote(principal, { ...item, ...(couponCode ? { coupon_code: couponCode } : {}) });
    } catch (error) {
      const refused = couponRefusal(error);
      if (refused) {
        couponProblem = refused.fields?.find((f) => f.field === 'coupon_code')?.message ?? refused.message;
        quote = await orders.quote(principal, item);
      } else {
        const other = refusal(error);
        if (!other) throw error;
        return deps.render(request, reply, 'Checkout', html`<p class="warning" role="alert">${other.message}</p>`, 409);
      }
    }
    const body = checkoutView({
      quote,
      action: checkoutPath(item.type, item.key),
      csrf: reply.generateCsrf(),
      couponCode,
      couponProblem: couponProblem ? `${couponProblem}` : undefined,
      problem: problem?.message,
      locale: await locale(),
      heldHref: heldHref({ type: quote.item.type, slug: quote.item.slug }),
    });
    return deps.render(
      request,
      reply,
      `Checkout — ${quote.item.title}`,
      body,
      problem?.status ?? (couponProblem ? 400 : 200),
    );
  }

  app.get(
    '/checkout/:type/:key',
    {
      schema: { params: CheckoutParams, querystring: PageQuery({ coupon_code: Type.Optional(Text(200)) }) },
      config,
      preHandler: signedIn,
    },
    async (request, reply) => {
      const item = itemOf(request.params, reply);
      if (!item) return reply;
      const code = (request.query.coupon_code ?? '').trim().slice(0, 40);
      return review(request, reply, item, code);
    },
  );

  app.post(
    '/checkout/:type/:key',
    {
      schema: { params: CheckoutParams, body: FormBody({ coupon_code: Type.Optional(Text(200)) }) },
      config,
      preHandler: [signedIn, app.csrfProtection],
    },
    async (request, reply) => {
      const item = itemOf(request.params, reply);
      if (!item) return reply;
      const code = (request.body.coupon_code ?? '').trim().slice(0, 40);
      try {
        const started = await orders.start(viewerPrincipal(request.viewer), {
          item,
          ...(code ? { coupon_code: code } : {}),
        });
        return reply.redirect(started.payment_url ?? orderPath(started.order.id), 303);
      } catch (error) {
        const refused = refusal(error);
        if (error instanceof ApiError && error.code === 'service_unavailable')
          return review(request, reply, item, code, { message: error.message, status: 503 });
        if (!refused) throw error;
        return review(request, reply, item, couponRefusal(error) ? '' : code, {
          message: refused.message,
          status: refused.status,
        });
      }
    },
  );

  /** Where each bought item is used, for the receipt's buttons. */
  function linksOf(order: Order): ItemLink[] {
    return order.items.map((item) => {
      const id = encodeURIComponent(item.item_id);
      if (item.item_type === 'course') return { title: item.title, href: `/learn/${id}`, label: 'Start learning' };
      if (item.item_type === 'product')
        return { title: item.title, href: '/downloads', label: `Download ${item.title}` };
      return { title: item.title, href: `/plans/${id}`, label: `Your membership: ${item.title}` };
    });
  }

  async function showOrder(
    request: FastifyRequest & { params: OrderParams },
    reply: FastifyReply,
    problem?: string,
    status = 200,
  ) {
    const principal = viewerPrincipal(request.viewer);
    if (!/^ord_[0-9a-z]{26}$/.test(request.params.id)) return reply.callNotFound();
    const order = await orders.get(principal, request.params.id);
    const item = order.items[0];
    const pending = order.status === 'pending' && order.provider === 'test' && deps.testPayments;
    const body = orderView({
      order,
      locale: await locale(),
      dates: await dates(),
      links: linksOf(order),
      retryHref:
        (order.status === 'failed' || order.status === 'canceled') && item && order.kind === 'purchase'
          ? await retryPath(principal, order, item)
          : null,
      payHref: pending ? await testPageOf(order.id) : null,
      refund: isStaff(principal) ? { csrf: reply.generateCsrf() } : null,
      problem,
    });
    return deps.render(request, reply, `Order ${order.number}`, body, status);
  }

  /**
   * The checkout to buy the item again, as the buyer first reached it: by the item's slug (a plan by its price) and
   * with the coupon they had applied, which the review step then prices again and may refuse.
   */
  async function retryPath(principal: Principal, order: Order, item: Order['items'][number]) {
    const key = item.price_id ?? (await slugOf(principal, item)) ?? item.item_id;
    const path = checkoutPath(item.item_type, key);
    return order.coupon_code ? `${path}?${new URLSearchParams({ coupon_code: order.coupon_code })}` : path;
  }

  /** The item's slug as the buyer may see it now; none when it is gone from their view (the id then still works). */
  async function slugOf(principal: Principal, item: Order['items'][number]) {
    if (item.item_type === 'plan') return undefined;
    try {
      const quote = await orders.quote(principal, { type: item.item_type, key: item.item_id });
      return quote.item.slug;
    } catch (error) {
      if (error instanceof ApiError) return undefined;
      throw error;
    }
  }

  async function testPageOf(orderId: string) {
    const ref = await deps.testPayments?.referenceOf(orderId);
    return ref ? `/pay/test/${encodeURIComponent(ref)}` : null;
  }

  app.get('/orders/:id', { schema: { params: IdParams }, config, preHandler: signedIn }, (request, reply) =>
    showOrder(request, reply),
  );

  app.post(
    '/orders/:id/refund',
    {
      schema: { params: IdParams, body: FormBody({ amount: Type.Optional(Text(40)) }) },
      config,
      preHandler: [signInGate(formPage), app.csrfProtection],
    },
    async (request, reply) => {
      const raw = (request.body.amount ?? '').trim();
      const amount = raw === '' ? undefined : /^\d{1,9}$/.test(raw) ? Number(raw) : raw;
      const answer = await deps.call(request, 'refundOrder', {
        id: request.params.id,
        ...(amount === undefined ? {} : { amount }),
      });
      if (answer.status === 403 || answer.status === 404) return reply.callNotFound();
      if (answer.status >= 300) {
        const body = answer.body as { error_description?: string; errors?: { message: string }[] };
        const message = body.errors?.[0]?.message ?? body.error_description ?? 'The refund was refused.';
        return showOrder(request, reply, message, answer.status);
      }
      return reply.redirect(orderPath(request.params.id), 303);
    },
  );

  /** The viewer's memberships with their plans' names (plans they may no longer see keep their id). */
  async function membershipsOf(principal: ReturnType<typeof viewerPrincipal>, userId: string) {
    const { data } = await subscriptions.list(principal, { limit: 100, user_id: userId });
    return Promise.all(
      data.map(async (s) => ({
        id: s.id,
        planName: await membershipPlans.get(principal, s.plan_id).then(
          (plan) => plan.name,
          () => s.plan_id,
        ),
        status: s.status,
        periodEnd: s.current_period_end,
        trialEnd: s.trial_end,
        cancelAtPeriodEnd: s.cancel_at_period_end,
      })),
    );
  }

  async function myOrders(request: FastifyRequest, reply: FastifyReply, problem?: string, status = 200) {
    const principal = viewerPrincipal(request.viewer);
    const userId = request.viewer?.id ?? '';
    const [page, memberships] = await Promise.all([
      orders.list(principal, { limit: 100, user_id: userId }),
      membershipsOf(principal, userId),
    ]);
    const body = html`${problem ? html`<p class="warning" role="alert">${problem}</p>` : ''}${myMembershipsView(
      memberships,
      reply.generateCsrf(),
      await dates(),
    )}<h2>Orders</h2>${myOrdersView(page.data, await locale())}`;
    return deps.render(request, reply, 'My orders', body, status);
  }

  app.get('/orders', { config, preHandler: signedIn }, (request, reply) => myOrders(request, reply));

  for (const action of ['cancel', 'resume'] as const) {
    app.post(
      `/subscriptions/:id/${action}`,
      // The buttons are on "My orders".
      {
        schema: { params: IdParams, body: ButtonBody },
        config,
        preHandler: [signInGate(() => '/orders'), app.csrfProtection],
      },
      async (request, reply) => {
        const principal = viewerPrincipal(request.viewer);
        if (!/^sub_[0-9a-z]{26}$/.test(request.params.id)) return reply.callNotFound();
        try {
          if (action === 'cancel')
            await subscriptions.cancelMine(principal, request.params.id, { at_period_end: true });
          else await subscriptions.resumeMine(principal, request.params.id);
        } catch (error) {
          const refused = refusal(error);
          if (!refused) throw error;
          return myOrders(request, reply, refused.message, refused.status);
        }
        return reply.redirect('/orders', 303);
      },
    );
  }

  const test = deps.testPayments;
  if (!test) return;

  app.get(
    '/pay/test/:ref',
    { schema: { params: Type.Object({ ref: Key }) }, config, preHandler: signedIn },
    async (request, reply) => {
      const row = await test.orderOf(request.params.ref);
      const principal = viewerPrincipal(request.viewer);
      if (!row || (row.user_id !== request.viewer?.id && !isStaff(principal))) return reply.callNotFound();
      if (row.status !== 'pending') return reply.redirect(orderPath(row.id), 303);
      const order = await orders.get(principal, row.id);
      const body = testPaymentView({
        order,
        csrf: reply.generateCsrf(),
        action: `/pay/test/${encodeURIComponent(request.params.ref)}`,
        locale: await locale(),
      });
      return deps.render(request, reply, 'Test payment', body);
    },
  );

  app.post(
    '/pay/test/:ref',
    {
      schema: { params: Type.Object({ ref: Key }), body: FormBody({ outcome: Type.Enum(['pay', 'decline']) }) },
      config,
      preHandler: [signedIn, app.csrfProtection],
    },
    async (request, reply) => {
      const row = await test.orderOf(request.params.ref);
      if (!row || row.user_id !== request.viewer?.id) return reply.callNotFound();
      const { outcome } = request.body;
      if (row.status === 'pending') {
        const order = { id: row.id, total: Number(row.total), currency: row.currency };
        if (outcome === 'pay') await test.pay(order, request.params.ref);
        else await test.decline(order, request.params.ref);
      }
      return reply.redirect(orderPath(row.id), 303);
    },
  );
}
