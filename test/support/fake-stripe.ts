import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A loopback stand-in of Stripe's API for tests: a real HTTP server that answers the documented calls the adapter
 * makes (form-encoded requests as the stripe package sends them, JSON objects in Stripe's documented shapes), honours
 * Idempotency-Key, records every request, and builds the events Stripe would send next (`completeSession`, `renew`,
 * `refundedEvent`, …), signed with the stripe package's own test-signature helper.
 */
// biome-ignore lint/suspicious/noExplicitAny: Stripe's objects are JSON of many shapes; the fake keeps them as JSON.
export type Obj = Record<string, any>;
export type RecordedRequest = {
  method: string;
  path: string;
  query: Obj;
  body: Obj;
  idempotencyKey: string | undefined;
};
export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;

const DAY = 86_400;
const INTERVAL_DAYS = { day: 1, week: 7, month: 30, year: 365 } as Record<string, number>;
const signer = new Stripe('sk_test_signer', { telemetry: false });

export const rid = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

export async function startFakeStripe(options: { now: () => Date; secretKey?: string }) {
  const secretKey = options.secretKey ?? 'sk_test_fake';
  const objects = new Map<string, Obj>();
  /** What a session was asked to sell, which Stripe keeps but does not show on the session itself. */
  const asked = new Map<string, Obj>();
  const requests: RecordedRequest[] = [];
  const idempotent = new Map<string, { body: string; status: number; response: Obj }>();
  const now = () => Math.floor(options.now().getTime() / 1000);
  const put = (object: Obj) => {
    objects.set(object.id, object);
    return object;
  };
  const get = (id: string) => {
    const object = objects.get(id);
    if (!object) throw new StripeFault(404, 'resource_missing', `No such object: '${id}'`);
    return object;
  };
  const list = (data: Obj[], url: string) => ({ object: 'list', data, has_more: false, url });

  // ── the API ────────────────────────────────────────────────────────────────────────────────────────────────────
  const routes: [string, RegExp, (match: string[], params: Obj) => Obj][] = [
    ['POST', /^\/v1\/checkout\/sessions$/, (_m, p) => createSession(p)],
    ['GET', /^\/v1\/checkout\/sessions\/([^/]+)$/, ([id]) => typed(id, 'checkout.session')],
    ['POST', /^\/v1\/coupons$/, (_m, p) => createCoupon(p)],
    ['POST', /^\/v1\/prices$/, (_m, p) => createPrice(p)],
    ['POST', /^\/v1\/refunds$/, (_m, p) => createRefund(p)],
    ['GET', /^\/v1\/refunds$/, (_m, p) => listRefunds(p)],
    ['GET', /^\/v1\/payment_intents\/([^/]+)$/, ([id]) => typed(id, 'payment_intent')],
    ['GET', /^\/v1\/invoices\/([^/]+)$/, ([id]) => typed(id, 'invoice')],
    ['GET', /^\/v1\/invoice_payments$/, (_m, p) => listInvoicePayments(p)],
    ['GET', /^\/v1\/subscriptions\/([^/]+)$/, ([id]) => typed(id, 'subscription')],
    ['POST', /^\/v1\/subscriptions\/([^/]+)$/, ([id], p) => updateSubscription(id, p)],
    ['DELETE', /^\/v1\/subscriptions\/([^/]+)$/, ([id]) => cancelSubscription(id)],
  ];

  const typed = (id: string, object: string) => {
    const found = get(id);
    if (found.object !== object) throw new StripeFault(404, 'resource_missing', `No such ${object}: '${id}'`);
    return found;
  };

  function createSession(p: Obj) {
    const items: Obj[] = p.line_items ?? [];
    if (!['payment', 'subscription'].includes(p.mode)) throw invalid('mode', 'Missing required param: mode.');
    if (!items.length) throw invalid('line_items', 'line_items is required.');
    if (!p.success_url) throw invalid('success_url', 'Missing required param: success_url.');
    const prices = items.map((item) => (item.price ? get(item.price) : null));
    const amounts = items.map((item, i) => Number(prices[i]?.unit_amount ?? item.price_data?.unit_amount));
    const currency = prices[0]?.currency ?? items[0]?.price_data?.currency;
    if (amounts.some((a) => !Number.isInteger(a) || a < 0) || !currency)
      throw invalid('line_items', 'Each line needs a price or price_data with currency and unit_amount.');
    const subtotal = amounts.reduce((sum, a, i) => sum + a * Number(items[i].quantity ?? 1), 0);
    const coupon = p.discounts?.[0]?.coupon ? get(p.discounts[0].coupon) : null;
    const off = coupon ? Math.min(subtotal, coupon.amount_off ?? Math.round((subtotal * coupon.percent_off) / 100)) : 0;
    const trial = p.mode === 'subscription' && Number(p.subscription_data?.trial_period_days ?? 0) > 0;
    const id = rid('cs_test');
    asked.set(id, { items, coupon, trial, params: p });
    return put({
      id,
      object: 'checkout.session',
      mode: p.mode,
      status: 'open',
      payment_status: 'unpaid',
      url: `${url}/c/pay/${id}`,
      amount_subtotal: subtotal,
      amount_total: trial ? 0 : subtotal - off,
      currency,
      customer: null,
      customer_email: p.customer_email ?? null,
      client_reference_id: p.client_reference_id ?? null,
      metadata: p.metadata ?? {},
      discounts: coupon ? [{ coupon: coupon.id, promotion_code: null }] : [],
      payment_intent: null,
      subscription: null,
      invoice: null,
      success_url: p.success_url,
      cancel_url: p.cancel_url ?? null,
      created: now(),
      expires_at: now() + DAY,
      livemode: false,
    });
  }

  function createCoupon(p: Obj) {
    if (!p.amount_off && !p.percent_off) throw invalid('amount_off', 'Provide amount_off or percent_off.');
    return put({
      id: randomBytes(4).toString('hex').toUpperCase(),
      object: 'coupon',
      amount_off: p.amount_off ? Number(p.amount_off) : null,
      percent_off: p.percent_off ? Number(p.percent_off) : null,
      currency: p.currency ?? null,
      duration: p.duration ?? 'once',
      max_redemptions: p.max_redemptions ? Number(p.max_redemptions) : null,
      name: p.name ?? null,
      metadata: p.metadata ?? {},
      valid: true,
      created: now(),
    });
  }

  function createPrice(p: Obj) {
    const product =
      p.product ?? put({ id: rid('prod'), object: 'product', name: p.product_data?.name, created: now() }).id;
    return put({
      id: rid('price'),
      object: 'price',
      active: true,
      currency: p.currency,
      unit_amount: Number(p.unit_amount),
      recurring: p.recurring ? { interval: p.recurring.interval, interval_count: 1, usage_type: 'licensed' } : null,
      type: p.recurring ? 'recurring' : 'one_time',
      product,
      metadata: p.metadata ?? {},
      created: now(),
    });
  }

  function createRefund(p: Obj) {
    const intent = typed(p.payment_intent, 'payment_intent');
    const charge = get(intent.latest_charge);
    const amount = p.amount === undefined ? charge.amount - charge.amount_refunded : Number(p.amount);
    if (amount <= 0 || charge.amount_refunded + amount > charge.amount)
      throw invalid('amount', `Refund amount (${amount}) is greater than unrefunded amount on charge.`);
    const refund = put({
      id: rid('re'),
      object: 'refund',
      amount,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: intent.id,
      metadata: p.metadata ?? {},
      status: 'succeeded',
      created: now(),
    });
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    return refund;
  }

  const listRefunds = (p: Obj) =>
    list(
      [...objects.values()]
        .filter((o) => o.object === 'refund' && (!p.charge || o.charge === p.charge))
        .reverse()
        .slice(0, Number(p.limit ?? 10)),
      '/v1/refunds',
    );

  const listInvoicePayments = (p: Obj) =>
    list(
      [...objects.values()].filter(
        (o) =>
          o.object === 'invoice_payment' &&
          (!p.invoice || o.invoice === p.invoice) &&
          (!p.payment?.payment_intent || o.payment.payment_intent === p.payment.payment_intent),
      ),
      '/v1/invoice_payments',
    );

  function updateSubscription(id: string, p: Obj) {
    const sub = typed(id, 'subscription');
    if (sub.status === 'canceled') throw invalid(undefined, 'A canceled subscription can only update its metadata.');
    if (p.cancel_at_period_end !== undefined) {
      sub.cancel_at_period_end = p.cancel_at_period_end === 'true';
      sub.cancel_at = sub.cancel_at_period_end ? sub.items.data[0].current_period_end : null;
    }
    if (p.pause_collection !== undefined)
      sub.pause_collection =
        p.pause_collection === '' ? null : { behavior: p.pause_collection.behavior, resumes_at: null };
    for (const change of p.items ?? []) {
      const item = sub.items.data.find((i: Obj) => i.id === change.id);
      if (!item) throw invalid('items', `No such subscription item: '${change.id}'`);
      if (change.price) item.price = get(change.price);
    }
    return sub;
  }

  function cancelSubscription(id: string) {
    const sub = typed(id, 'subscription');
    if (sub.status === 'canceled') throw invalid(undefined, `No such subscription: '${id}'`);
    Object.assign(sub, { status: 'canceled', canceled_at: now(), ended_at: now() });
    return sub;
  }

  // ── the money Stripe takes, and the events that report it ────────────────────────────────────────────────────────
  function charge(amount: number, currency: string, metadata: Obj) {
    const intentId = rid('pi');
    const ch = put({
      id: rid('ch'),
      object: 'charge',
      amount,
      amount_captured: amount,
      amount_refunded: 0,
      refunded: false,
      currency,
      paid: true,
      status: 'succeeded',
      payment_intent: intentId,
      metadata: {},
      created: now(),
    });
    return put({
      id: intentId,
      object: 'payment_intent',
      amount,
      amount_received: amount,
      currency,
      status: 'succeeded',
      latest_charge: ch.id,
      metadata,
      created: now(),
    });
  }

  function invoice(sub: Obj, reason: string, amount: number, paid: boolean) {
    const item = sub.items.data[0];
    const id = rid('in');
    const intent = paid && amount > 0 ? charge(amount, sub.currency, {}) : null;
    if (intent)
      put({
        id: rid('inpay'),
        object: 'invoice_payment',
        invoice: id,
        amount_paid: amount,
        amount_requested: amount,
        currency: sub.currency,
        is_default: true,
        status: 'paid',
        payment: { type: 'payment_intent', payment_intent: intent.id },
        status_transitions: { paid_at: now(), canceled_at: null },
        created: now(),
      });
    sub.latest_invoice = id;
    return put({
      id,
      object: 'invoice',
      billing_reason: reason,
      status: paid ? 'paid' : 'open',
      customer: sub.customer,
      currency: sub.currency,
      amount_due: amount,
      amount_paid: paid ? amount : 0,
      amount_remaining: paid ? 0 : amount,
      attempt_count: 1,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { subscription: sub.id, metadata: { ...sub.metadata } },
      },
      lines: list(
        [
          {
            id: rid('il'),
            object: 'line_item',
            amount,
            currency: sub.currency,
            period: { start: item.current_period_start, end: item.current_period_end },
            parent: {
              type: 'subscription_item_details',
              invoice_item_details: null,
              subscription_item_details: { subscription: sub.id, subscription_item: item.id, proration: false },
            },
            pricing: { type: 'price_details', price_details: { price: item.price.id, product: item.price.product } },
          },
        ],
        `/v1/invoices/${id}/lines`,
      ),
      period_start: reason === 'subscription_create' ? item.current_period_start : item.current_period_start - 1,
      period_end: reason === 'subscription_create' ? item.current_period_start : item.current_period_start,
      status_transitions: { paid_at: paid ? now() : null, finalized_at: now() },
      created: now(),
    });
  }

  const periodEnd = (start: number, interval: string, trialDays: number) =>
    start + (trialDays > 0 ? trialDays : INTERVAL_DAYS[interval]) * DAY;

  /** The buyer paid on Stripe's page: what Stripe makes, and the checkout.session.completed it sends. */
  function completeSession(id: string) {
    const session = typed(id, 'checkout.session');
    const { items, coupon, trial, params } = asked.get(id) as Obj;
    Object.assign(session, { status: 'complete' });
    if (session.mode === 'payment') {
      const intent = charge(session.amount_total, session.currency, params.payment_intent_data?.metadata ?? {});
      Object.assign(session, { payment_status: 'paid', payment_intent: intent.id });
      return event('checkout.session.completed', session);
    }
    const line = items[0];
    const price = line.price ? get(line.price) : createPrice(line.price_data);
    const trialDays = trial ? Number(params.subscription_data.trial_period_days) : 0;
    const start = now();
    const sub = put({
      id: rid('sub'),
      object: 'subscription',
      status: trial ? 'trialing' : 'active',
      customer: put({ id: rid('cus'), object: 'customer', email: session.customer_email }).id,
      currency: price.currency,
      items: list(
        [
          {
            id: rid('si'),
            object: 'subscription_item',
            price,
            quantity: 1,
            current_period_start: start,
            current_period_end: periodEnd(start, price.recurring.interval, trialDays),
          },
        ],
        '/v1/subscription_items',
      ),
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      pause_collection: null,
      trial_start: trial ? start : null,
      trial_end: trial ? periodEnd(start, price.recurring.interval, trialDays) : null,
      discounts: coupon ? [rid('di')] : [],
      metadata: params.subscription_data?.metadata ?? {},
      latest_invoice: null,
      start_date: start,
      created: start,
    });
    const first = invoice(sub, 'subscription_create', session.amount_total, true);
    Object.assign(session, {
      customer: sub.customer,
      subscription: sub.id,
      invoice: first.id,
      payment_status: session.amount_total > 0 ? 'paid' : 'no_payment_required',
    });
    return event('checkout.session.completed', session);
  }

  /** A period passes: Stripe charges the next one (or fails to) and says so. */
  function renew(subscriptionId: string, outcome: { paid: boolean }) {
    const sub = typed(subscriptionId, 'subscription');
    const item = sub.items.data[0];
    item.current_period_start = item.current_period_end;
    item.current_period_end = periodEnd(item.current_period_start, item.price.recurring.interval, 0);
    const bill = invoice(sub, 'subscription_cycle', item.price.unit_amount, outcome.paid);
    sub.status = outcome.paid ? 'active' : 'past_due';
    return {
      invoice: event(outcome.paid ? 'invoice.paid' : 'invoice.payment_failed', bill),
      subscription: event('customer.subscription.updated', sub),
    };
  }

  function event(type: string, object: Obj): Obj {
    return {
      id: rid('evt'),
      object: 'event',
      api_version: '2026-10-28.endive',
      created: now(),
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
  }

  // ── HTTP ─────────────────────────────────────────────────────────────────────────────────────────────────────
  async function answer(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString();
    const address = new URL(request.url ?? '/', 'http://fake');
    const query = decodeForm(address.search.slice(1));
    const body = decodeForm(raw);
    const key = request.headers['idempotency-key'] as string | undefined;
    const recorded: RecordedRequest = {
      method: request.method ?? '',
      path: address.pathname,
      query,
      body,
      idempotencyKey: key,
    };
    requests.push(recorded);
    const send = (status: number, payload: Obj) => {
      response.writeHead(status, { 'content-type': 'application/json', 'request-id': rid('req') });
      response.end(JSON.stringify(payload));
    };
    if (request.headers.authorization !== `Bearer ${secretKey}`)
      return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } });
    const replay = key && request.method === 'POST' ? idempotent.get(key) : undefined;
    if (replay) {
      if (replay.body !== raw)
        return send(400, {
          error: {
            type: 'idempotency_error',
            message:
              'Keys for idempotent requests can only be used with the same parameters they were first used with.',
          },
        });
      return send(replay.status, replay.response);
    }
    let status = 200;
    let payload: Obj;
    try {
      const route = routes.find(([method, path]) => method === request.method && path.test(address.pathname));
      if (!route)
        throw new StripeFault(404, undefined, `Unrecognized request URL (${request.method}: ${address.pathname}).`);
      const match = address.pathname.match(route[1])?.slice(1) ?? [];
      const result = route[2](match.map(decodeURIComponent), request.method === 'GET' ? query : body);
      payload = expand(structuredClone(result), [...(query.expand ?? []), ...(body.expand ?? [])]);
    } catch (error) {
      if (!(error instanceof StripeFault)) throw error;
      status = error.status;
      payload = {
        error: { type: 'invalid_request_error', code: error.code, param: error.param, message: error.message },
      };
    }
    if (key && request.method === 'POST') idempotent.set(key, { body: raw, status, response: payload });
    send(status, payload);
  }

  /** Stripe's `expand[]`: ids replaced by their objects along dotted paths; an invoice's `payments` is included. */
  function expand(object: Obj, paths: string[]): Obj {
    for (const path of paths) expandPath(object, path.split('.'));
    return object;
  }
  function expandPath(object: Obj, [field, ...rest]: string[]) {
    if (!object || typeof object !== 'object' || !field) return;
    if (object.object === 'list' && field === 'data') {
      for (const element of object.data) expandPath(element, rest);
      return;
    }
    if (object.object === 'invoice' && field === 'payments')
      object.payments = listInvoicePayments({ invoice: object.id });
    else if (typeof object[field] === 'string' && objects.has(object[field]))
      object[field] = structuredClone(objects.get(object[field]));
    expandPath(object[field], rest);
  }

  const server = createServer((request, response) => {
    answer(request, response).catch((error) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    secretKey,
    requests: requests as readonly RecordedRequest[],
    /** The requests made to one method and path (a string or pattern), in order. */
    calls: (method: string, path: string | RegExp) =>
      requests.filter((r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path))),
    /** Copies of the objects of one kind (`refund`, `invoice`, …) that match, oldest first. */
    find: (object: string, where: (o: Obj) => boolean = () => true) =>
      [...objects.values()].filter((o) => o.object === object && where(o)).map((o) => structuredClone(o)),
    /** A copy of a Stripe object as the fake holds it now. */
    object: (id: string) => structuredClone(get(id)),
    completeSession,
    renew,
    /** The event Stripe sends about an object as it is now (`customer.subscription.updated`, `checkout.session.expired`, …). */
    eventAbout: (type: string, id: string) => event(type, get(id)),
    /** charge.refunded for the charge a refund was made on, as it is now. */
    refundedEvent: (refundId: string) => event('charge.refunded', get(get(refundId).charge)),
    /** Lets a test change what Stripe holds (a subscription paused from Stripe's dashboard). */
    update: (id: string, changes: Obj) => Object.assign(get(id), changes),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

class StripeFault extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly param: string | undefined;
  constructor(status: number, code: string | undefined, message: string, param?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.param = param;
  }
}
const invalid = (param: string | undefined, message: string) =>
  new StripeFault(400, 'parameter_invalid', message, param);

/** `a[b][0][c]=v` (as the stripe package encodes) into nested objects and arrays of strings. */
export function decodeForm(encoded: string): Obj {
  const root: Obj = {};
  for (const pair of encoded.split('&').filter(Boolean)) {
    const [rawKey = '', rawValue = ''] = pair.split(/=(.*)/s);
    const key = decodeURIComponent(rawKey.replaceAll('+', ' '));
    const value = decodeURIComponent(rawValue.replaceAll('+', ' '));
    const [head = '', ...tail] = key.split('[').map((part) => part.replace(/]$/, ''));
    let node: Obj = root;
    let field: string | number = head;
    for (const part of tail) {
      const next: string | number = /^\d+$/.test(part) ? Number(part) : part;
      node[field] ??= typeof next === 'number' ? [] : {};
      node = node[field];
      field = next;
    }
    node[field] = value;
  }
  return root;
}

/** A Stripe event as Stripe delivers it: the JSON body and its Stripe-Signature header. */
export function signed(event: Obj, secret: string, at: Date) {
  const body = JSON.stringify(event, null, 2);
  const signature = signer.webhooks.generateTestHeaderString({
    payload: body,
    secret,
    timestamp: Math.floor(at.getTime() / 1000),
  });
  return { body, signature };
}

/** Posts a signed event to the school's webhook endpoint, as Stripe does. */
export async function deliver(endpoint: string, event: Obj, secret: string, at: Date) {
  const { body, signature } = signed(event, secret, at);
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
    body,
  });
  return { status: response.status, body: (await response.json()) as Obj };
}
