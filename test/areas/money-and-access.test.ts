import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiClient, createUser, listAll, type Person, schoolWithPeople, tokenFor } from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { courseWithLesson, ok, opens, planWithPrice, subscribe } from '../support/memberships.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { csrfOf, signedInClient } from '../support/web-client.ts';

type Client = ReturnType<typeof apiClient>;
type Money = { amount: number; currency: string };
type Order = { id: string; status: string; total: Money; refunded_amount: Money };
type Started = { order: Order; payment_url: string | null };

const STAFF =
  'orders:read school:write courses:read courses:write curriculum:read curriculum:write students:read students:write membership_plans:read membership_plans:write';
const BUYER = 'orders:read account:read account:write curriculum:read courses:read';

/**
 * Money moves once and access is the union of what grants it: refunds decided under the order's lock, retries with
 * one Idempotency-Key counted once, a refund that leaves a membership's access, and a plan of every course.
 */
for (const engine of engines) {
  describe(`money and access (${engine})`, () => {
    let server: TestServer;
    let staff: Client;
    let staffPerson: Person;

    before(async () => {
      server = await startTestServer(engine, { PAYMENTS_PROVIDER: 'test' });
      staffPerson = (await schoolWithPeople(server)).staff;
      staff = apiClient(server.url, await tokenFor(server, staffPerson, STAFF));
    });
    after(() => server.close());

    const buyer = async () => {
      const person = await createUser(server, 'student', `Buyer ${Math.random().toString(36).slice(2, 8)}`);
      return { person, api: apiClient(server.url, await tokenFor(server, person, BUYER)) };
    };

    const pricedCourse = async (amount: number) => {
      const made = await courseWithLesson(staff);
      ok(await staff.patch(`/api/v1/courses/${made.id}`, { price: { amount, currency: 'EUR' } }));
      return made;
    };

    /** A paid order of `amount` for a new buyer, paid on the test provider's page. */
    async function paidOrder(amount: number) {
      const course = await pricedCourse(amount);
      const who = await buyer();
      const started = ok<Started>(
        await who.api.post('/api/v1/account/orders', { item: { type: 'course', key: course.slug } }),
        201,
      );
      const web = await signedInClient(server.url, who.person);
      const path = new URL(started.payment_url ?? '').pathname;
      const page = await web.get(path);
      assert.equal((await web.postForm(path, { _csrf: csrfOf(page.text), outcome: 'pay' })).status, 303);
      return { order: started.order, course, ...who };
    }

    const orderOf = async (id: string) => ok<Order>(await staff.get(`/api/v1/orders/${id}`));
    const refundsOf = async (id: string) =>
      ok<{ data: { kind: string; amount: Money }[] }>(await staff.get(`/api/v1/orders/${id}/payments`)).data.filter(
        (p) => p.kind === 'refund',
      );

    test('two refunds of 6,000 at once on a 10,000 order: one is taken, the other answered 409', async () => {
      const { order } = await paidOrder(10_000);
      const answers = await Promise.all(
        [1, 2].map(() => staff.post(`/api/v1/orders/${order.id}/refund`, { amount: 6000 })),
      );
      assert.deepEqual(answers.map((a) => a.status).sort(), [202, 409], JSON.stringify(answers.map((a) => a.body)));
      const after = await orderOf(order.id);
      assert.equal(after.refunded_amount.amount, 6000);
      assert.deepEqual(
        (await refundsOf(order.id)).map((r) => r.amount.amount),
        [6000],
      );
    });

    test('twenty refunds of 700 at once: what was acknowledged is what was applied, never more than was paid', async () => {
      const { order } = await paidOrder(10_000);
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => staff.post(`/api/v1/orders/${order.id}/refund`, { amount: 700 })),
      );
      assert.ok(
        answers.every((a) => a.status === 202 || a.status === 409),
        JSON.stringify(answers.map((a) => a.status)),
      );
      const acknowledged = answers.filter((a) => a.status === 202).length * 700;
      const after = await orderOf(order.id);
      assert.equal(after.refunded_amount.amount, acknowledged);
      assert.equal(acknowledged, 14 * 700, 'every refund that fits is taken');
      const ledger = (await refundsOf(order.id)).reduce((sum, r) => sum + r.amount.amount, 0);
      assert.equal(ledger, acknowledged);
      const more = await staff.post<{ error: string }>(`/api/v1/orders/${order.id}/refund`, { amount: 700 });
      assert.equal(more.status, 409, 'only 200 is left');
    });

    test('startCheckout with one Idempotency-Key twice makes one order; a concurrent copy too', async () => {
      const course = await pricedCourse(2500);
      const who = await buyer();
      const body = { item: { type: 'course', key: course.slug } };
      const first = await who.api.post<Started>('/api/v1/account/orders', body, { 'idempotency-key': 'buy-1' });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      const again = await who.api.post<Started>('/api/v1/account/orders', body, { 'idempotency-key': 'buy-1' });
      assert.equal(again.status, 201);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(again.body, first.body, 'the same answer, payment address included');
      const other = await who.api.post(
        '/api/v1/account/orders',
        { item: { type: 'course', key: 'x' } },
        {
          'idempotency-key': 'buy-1',
        },
      );
      assert.equal(other.status, 409, 'the key with another request');

      const racing = await Promise.all(
        [1, 2, 3].map(() => who.api.post<Started>('/api/v1/account/orders', body, { 'idempotency-key': 'buy-2' })),
      );
      const ids = new Set(racing.filter((r) => r.status === 201).map((r) => r.body.order.id));
      assert.ok(
        racing.every((r) => r.status === 201 || r.status === 409),
        JSON.stringify(racing.map((r) => r.body)),
      );
      assert.equal(ids.size, 1);
      const orders = await listAll<{ id: string }>(staff, `/api/v1/orders?user_id=${who.person.id}`);
      assert.equal(orders.length, 2, 'one order per key');
    });

    test('refundOrder with one Idempotency-Key twice refunds once', async () => {
      const { order } = await paidOrder(3000);
      const key = { 'idempotency-key': `refund-${order.id}` };
      const first = await staff.post<Order>(`/api/v1/orders/${order.id}/refund`, { amount: 500 }, key);
      assert.equal(first.status, 202, JSON.stringify(first.body));
      const again = await staff.post<Order>(`/api/v1/orders/${order.id}/refund`, { amount: 500 }, key);
      assert.equal(again.status, 202);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(again.body, first.body);
      assert.equal((await orderOf(order.id)).refunded_amount.amount, 500);
      assert.deepEqual(
        (await refundsOf(order.id)).map((r) => r.amount.amount),
        [500],
      );
    });

    test('submitMyQuizAttempt with one Idempotency-Key twice spends one attempt', async () => {
      const course = await courseWithLesson(staff);
      const section = ok<{ data: { id: string }[] }>(await staff.get(`/api/v1/courses/${course.id}/sections`)).data[0];
      const quiz = ok<{ id: string }>(
        await staff.post(`/api/v1/sections/${section?.id}/lessons`, {
          title: 'Check',
          type: 'quiz',
          quiz: {
            pass_percent: 100,
            max_attempts: 2,
            questions: [{ prompt: 'One?', choices: ['a', 'b'], answers: [0] }],
          },
        }),
        201,
      );
      ok(await staff.post(`/api/v1/lessons/${quiz.id}/publish`));
      const who = await buyer();
      ok(await staff.post(`/api/v1/students/${who.person.id}/enrollments`, { course_id: course.id }), 201);
      const path = `/api/v1/account/lessons/${quiz.id}/quiz-attempts`;
      const key = { 'idempotency-key': 'answer-1' };
      const first = await who.api.post<{ attempts_left: number }>(path, { answers: [[1]] }, key);
      assert.equal(first.status, 201, JSON.stringify(first.body));
      const again = await who.api.post<{ attempts_left: number }>(path, { answers: [[1]] }, key);
      assert.equal(again.status, 201);
      assert.deepEqual(again.body, first.body);
      assert.equal(first.body.attempts_left, 1);
      const kept = ok<{ data: unknown[] }>(await who.api.get(path));
      assert.equal(kept.data.length, 1, 'the retry spent no attempt');
      const next = await who.api.post<{ attempts_left: number }>(
        path,
        { answers: [[0]] },
        { 'idempotency-key': 'answer-2' },
      );
      assert.equal(next.status, 201, 'the second attempt is still there to make');
    });

    test('/openapi.json documents Idempotency-Key on every operation that creates or moves money', async () => {
      type Parameter = { in: string; name: string } | { $ref: string };
      const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
        paths: Record<string, Record<string, { operationId: string; parameters?: Parameter[] }>>;
        components: { parameters: Record<string, { in: string; name: string }> };
      };
      // Shared parameters are components the operation refers to.
      const resolve = (p: Parameter) => ('$ref' in p ? doc.components.parameters[p.$ref.split('/').at(-1) ?? ''] : p);
      const operations = Object.values(doc.paths).flatMap((item) => Object.values(item));
      for (const name of ['startCheckout', 'refundOrder', 'submitMyQuizAttempt', 'createCourse']) {
        const op = operations.find((o) => o.operationId === name);
        assert.ok(
          op?.parameters?.map(resolve).some((p) => p?.in === 'header' && p.name.toLowerCase() === 'idempotency-key'),
          `${name} documents Idempotency-Key`,
        );
      }
    });

    test("refunding a member's course order keeps the course their plan pays for", async () => {
      const { order, course, person, api } = await paidOrder(4000);
      const { plan, price } = await planWithPrice(staff, { name: `Plan ${course.id}`, course_ids: [course.id] });
      assert.deepEqual((plan as unknown as { included_course_ids: string[] }).included_course_ids, [course.id]);
      await subscribe(server, { userId: person.id, priceId: price.id });
      assert.equal(await opens(api, course.lessonId), true);
      ok(await staff.post(`/api/v1/orders/${order.id}/refund`, {}), 202);
      assert.equal((await orderOf(order.id)).status, 'refunded');
      assert.equal(await opens(api, course.lessonId), true, 'the membership still opens the course');
      const theirs = ok<{ data: { course_id: string; status: string }[] }>(
        await staff.get(`/api/v1/students/${person.id}/enrollments`),
      );
      assert.equal(theirs.data.find((e) => e.course_id === course.id)?.status, 'active', 'still among their courses');

      // Without a plan that includes it, the refund takes the course back.
      const alone = await paidOrder(4000);
      ok(await staff.post(`/api/v1/orders/${alone.order.id}/refund`, {}), 202);
      assert.equal(await opens(alone.api, alone.course.lessonId), false);
    });

    test('a plan of every published course opens courses published after its members subscribed', async () => {
      const { plan, price } = await planWithPrice(staff, { name: 'Everything', includes_all_courses: true });
      assert.equal((plan as unknown as { includes_all_courses: boolean }).includes_all_courses, true);
      const who = await buyer();
      await subscribe(server, { userId: who.person.id, priceId: price.id });
      const existing = await courseWithLesson(staff);
      await server.services.jobs.runDue();
      assert.equal(await opens(who.api, existing.lessonId), true, 'a course published before');
      const later = await courseWithLesson(staff);
      await server.services.jobs.runDue();
      assert.equal(await opens(who.api, later.lessonId), true, 'a course published after they subscribed');
      const shown = ok<{ course_ids: string[]; included_course_ids: string[] }>(
        await staff.get(`/api/v1/membership-plans/${plan.id}`),
      );
      assert.ok(shown.included_course_ids.includes(later.id), 'the plan lists what it gives now');
      assert.deepEqual(shown.course_ids, [], 'and the courses picked for it, as written');
      const stranger = await buyer();
      assert.equal(await opens(stranger.api, later.lessonId), false, 'not to those without the plan');
    });
  });
}
