import assert from 'node:assert/strict';
import { newId } from '../../src/db/ids.ts';
import type { ProviderSubscriptionState } from '../../src/payments/provider.ts';
import type { ApiResponse, apiClient } from './api.ts';
import type { TestServer } from './server.ts';

type Client = ReturnType<typeof apiClient>;

export type Plan = {
  id: string;
  name: string;
  slug: string;
  status: string;
  visibility: string;
  course_ids: string[];
  product_ids: string[];
  benefits: string[];
  prices: Price[];
};
export type Price = {
  id: string;
  plan_id: string;
  amount: number;
  currency: string;
  interval: string;
  trial_days: number;
  status: string;
};
export type Subscription = {
  id: string;
  user_id: string;
  plan_id: string;
  price_id: string;
  status: string;
  current_period_start: string;
  current_period_end: string | null;
  cancel_at_period_end: boolean;
  trial_end: string | null;
  canceled_at: string | null;
  paused_at: string | null;
  next_price_id: string | null;
  provider: string;
  order_id: string | null;
};

export const ok = <T>(response: ApiResponse<unknown>, status = 200): T => {
  assert.equal(response.status, status, JSON.stringify(response.body));
  return response.body as T;
};

/** A published course with one published section and one published lesson (not a preview). */
export async function courseWithLesson(staff: Client, title = `Course ${Math.random().toString(36).slice(2, 8)}`) {
  const course = ok<{ id: string; slug: string; title: string }>(await staff.post('/api/v1/courses', { title }), 201);
  const section = ok<{ id: string }>(
    await staff.post(`/api/v1/courses/${course.id}/sections`, { title: 'Part one' }),
    201,
  );
  ok(await staff.post(`/api/v1/sections/${section.id}/publish`));
  const lesson = ok<{ id: string }>(
    await staff.post(`/api/v1/sections/${section.id}/lessons`, { title: 'Lesson one', body: 'Members only' }),
    201,
  );
  ok(await staff.post(`/api/v1/lessons/${lesson.id}/publish`));
  ok(await staff.post(`/api/v1/courses/${course.id}/publish`));
  return { ...course, lessonId: lesson.id };
}

/** A plan (made through the API) with one price. */
export async function planWithPrice(
  staff: Client,
  plan: Record<string, unknown>,
  price: Record<string, unknown> = { amount: 1500, currency: 'EUR', interval: 'month' },
) {
  const made = ok<Plan>(await staff.post('/api/v1/membership-plans', plan), 201);
  const priced = ok<Price>(await staff.post(`/api/v1/membership-plans/${made.id}/prices`, price), 201);
  return { plan: made, price: priced };
}

/**
 * Starts a subscription the way the checkout does once an order is paid: in one transaction, a paid order (numbered
 * like every order) and `startFromOrder`. The checkout itself is another part's; this is its documented call.
 */
export async function subscribe(
  server: TestServer,
  input: {
    userId: string;
    priceId: string;
    provider?: 'none' | 'test' | 'stripe';
    providerRef?: string | null;
    state?: ProviderSubscriptionState;
  },
) {
  const { db } = server.database;
  return db.transaction().execute(async (trx) => {
    const at = new Date().toISOString();
    const counter = await trx
      .updateTable('counters')
      .set((eb) => ({ value: eb('value', '+', 1) }))
      .where('name', '=', 'order_number')
      .returning('value')
      .executeTakeFirstOrThrow();
    const orderId = newId('ord');
    await trx
      .insertInto('orders')
      .values({
        id: orderId,
        number: Number(counter.value),
        user_id: input.userId,
        kind: 'purchase',
        status: 'paid',
        currency: 'EUR',
        subtotal: 0,
        discount: 0,
        total: 0,
        coupon_id: null,
        coupon_code: null,
        provider: input.provider ?? 'test',
        provider_ref: null,
        subscription_id: null,
        failure_reason: null,
        paid_at: at,
        created_at: at,
        updated_at: at,
      })
      .execute();
    const started = await server.services.areas.subscriptions.startFromOrder(trx, {
      userId: input.userId,
      priceId: input.priceId,
      orderId,
      provider: input.provider ?? 'test',
      providerRef: input.providerRef ?? null,
      state: input.state,
    });
    return { ...started, orderId };
  });
}

/** Whether `client` may open the lesson (the curriculum's own access rule, through the API). */
export async function opens(client: Client, lessonId: string) {
  const lesson = ok<{ locked: boolean }>(await client.get(`/api/v1/lessons/${lessonId}`));
  return !lesson.locked;
}
