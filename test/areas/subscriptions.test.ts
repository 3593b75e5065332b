import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { addToRevenueRollup } from '../../src/areas/analytics/revenue-rollup.ts';
import { membersStore } from '../../src/areas/members/store.ts';
import { renewalLedger } from '../../src/areas/orders/ledger.ts';
import { ordersStore } from '../../src/areas/orders/store.ts';
import { membershipRule } from '../../src/areas/subscriptions/memberships.ts';
import { subscriptionsService } from '../../src/areas/subscriptions/service.ts';
import { subscriptionsStore } from '../../src/areas/subscriptions/store.ts';
import { newId } from '../../src/db/ids.ts';
import { requestWrites } from '../../src/db/request-writes.ts';
import type { PaymentEvent, SubscriptionChange } from '../../src/payments/provider.ts';
import {
  apiClient,
  createUser,
  insufficientScopeChallenge,
  listAll,
  type Person,
  schoolWithPeople,
  tokenFor,
} from '../support/api.ts';
import { engines } from '../support/databases.ts';
import {
  courseWithLesson,
  ok,
  opens,
  type Price,
  planWithPrice,
  type Subscription,
  subscribe,
} from '../support/memberships.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { paginatesLikeEveryList } from '../support/shared-examples.ts';
import { csrfOf, WebClient } from '../support/web-client.ts';

type Client = ReturnType<typeof apiClient>;

const DAY_MS = 86_400_000;
const STAFF =
  'subscriptions:read subscriptions:write membership_plans:read membership_plans:write courses:read courses:write curriculum:read curriculum:write students:read students:write members:read';
const OWN = 'subscriptions:read curriculum:read account:write';

for (const engine of engines) {
  describe(`subscriptions API (${engine})`, () => {
    let server: TestServer;
    // The server's clock runs `skew` ahead of the test's: moved by hand, never waited for.
    let skew = 0;
    let staffPerson: Person;
    let staff: Client;
    let anonymous: Client;
    const serverNow = () => new Date(Date.now() + skew);

    before(async () => {
      server = await startTestServer(
        engine,
        { JOBS_POLL_MS: '60000', OAUTH_REGISTRATIONS_PER_HOUR: '1000' },
        { clock: { now: serverNow } },
      );
      staffPerson = (await schoolWithPeople(server)).staff;
      staff = apiClient(server.url, await tokenFor(server, staffPerson, STAFF));
      anonymous = apiClient(server.url);
    });
    after(() => server.close());

    /** A new student with their own token (tokens are dated by the server's clock, so one is made after each move). */
    const person = async () => {
      const p = await createUser(server, 'student');
      return { person: p, api: apiClient(server.url, await tokenFor(server, p, OWN)) };
    };
    /** Moves the server's clock and runs the jobs that fell due; tokens made before are expired by then. */
    const move = async (ms: number) => {
      skew += ms;
      await server.services.jobs.runDue();
      staff = apiClient(server.url, await tokenFor(server, staffPerson, STAFF));
    };
    const renewals = (subscriptionId: string) =>
      server.database.db
        .selectFrom('orders')
        .innerJoin('order_items', 'order_items.order_id', 'orders.id')
        .select(['orders.kind', 'orders.total', 'orders.status', 'order_items.price_id', 'orders.paid_at'])
        .where('orders.subscription_id', '=', subscriptionId)
        .orderBy('orders.number')
        .execute();
    const get = async (id: string) => ok<Subscription>(await staff.get(`/api/v1/subscriptions/${id}`));
    const plan = async (price: Record<string, unknown> = { amount: 1500, currency: 'EUR', interval: 'month' }) => {
      const course = await courseWithLesson(staff);
      const made = await planWithPrice(staff, { name: `Plan ${course.title}`, course_ids: [course.id] }, price);
      return { ...made, course };
    };

    test('every operation: anonymous, tokens without the scope and students on staff writes are 403', async () => {
      const sub = newId('sub');
      const operations: [string, string, string, unknown?][] = [
        ['GET', '/api/v1/subscriptions', 'subscriptions:read'],
        ['GET', `/api/v1/subscriptions/${sub}`, 'subscriptions:read'],
        ['POST', `/api/v1/subscriptions/${sub}/cancel`, 'subscriptions:write', { at_period_end: true }],
        ['POST', `/api/v1/subscriptions/${sub}/resume`, 'subscriptions:write', {}],
        ['POST', `/api/v1/subscriptions/${sub}/pause`, 'subscriptions:write', {}],
        ['POST', `/api/v1/subscriptions/${sub}/change-plan`, 'subscriptions:write', { price_id: newId('pri') }],
        ['POST', `/api/v1/account/subscriptions/${sub}/cancel`, 'account:write', { at_period_end: true }],
        ['POST', `/api/v1/account/subscriptions/${sub}/resume`, 'account:write', {}],
      ];
      const { person: student, api: own } = await person();
      const staffWithout = apiClient(server.url, await tokenFor(server, staffPerson, 'courses:read'));
      const studentWithout = apiClient(server.url, await tokenFor(server, student, 'courses:read'));
      for (const [method, path, scope, body] of operations) {
        const callers: [string, Client][] = [
          ['anonymous', anonymous],
          ['staff without the scope', staffWithout],
          ['student without the scope', studentWithout],
        ];
        if (scope === 'subscriptions:write') callers.push(['student', own]);
        for (const [who, client] of callers) {
          const response = await client.call(method, path, body);
          assert.equal(response.status, 403, `${method} ${path} as ${who}`);
          assert.equal((response.body as { error: string }).error, 'insufficient_scope');
          assert.match(response.headers.get('www-authenticate') ?? '', insufficientScopeChallenge(scope));
        }
      }
    });

    test('a trial opens the plan’s course; the renewal job ends it into an active period with a charge, once', async () => {
      const { price, course } = await plan({ amount: 1500, currency: 'EUR', interval: 'month', trial_days: 14 });
      const { person: student, api } = await person();
      assert.equal(await opens(api, course.lessonId), false);
      const started = serverNow().getTime();
      const { id, orderId } = await subscribe(server, { userId: student.id, priceId: price.id });
      const sub = await get(id);
      assert.equal(sub.status, 'trialing');
      assert.equal(sub.order_id, orderId);
      assert.ok(Math.abs(Date.parse(sub.trial_end ?? '') - (started + 14 * DAY_MS)) < 60_000);
      assert.equal(sub.current_period_end, sub.trial_end);
      assert.equal(await opens(api, course.lessonId), true, 'the trial opens the course');
      assert.deepEqual(await renewals(id), [], 'a trial charges nothing');
      const again = await server.database.db.transaction().execute((trx) =>
        server.services.areas.subscriptions.startFromOrder(trx, {
          userId: student.id,
          priceId: price.id,
          orderId,
          provider: 'test',
          providerRef: null,
        }),
      );
      assert.equal(again.id, id, 'the same order again finds the subscription it started');

      await move(14 * DAY_MS + 60_000);
      const renewed = await get(id);
      assert.equal(renewed.status, 'active');
      assert.equal(renewed.current_period_start, sub.trial_end);
      const end = new Date(sub.trial_end ?? '');
      end.setUTCMonth(end.getUTCMonth() + 1);
      if (end.getUTCDate() !== new Date(sub.trial_end ?? '').getUTCDate()) end.setUTCDate(0);
      assert.equal(renewed.current_period_end, end.toISOString());
      const charged = await renewals(id);
      assert.equal(charged.length, 1);
      assert.deepEqual(
        [charged[0]?.kind, Number(charged[0]?.total), charged[0]?.status, charged[0]?.price_id],
        ['renewal', 1500, 'paid', price.id],
      );
      // The job is run again with the period it was queued for: the row has moved on, nothing happens.
      const rerun = await server.services.areas.subscriptions.renew({
        subscription_id: id,
        period_end: sub.trial_end ?? '',
      });
      assert.deepEqual(rerun, { outcome: 'moved_on' });
      assert.equal((await renewals(id)).length, 1);
      const own = apiClient(server.url, await tokenFor(server, student, OWN));
      assert.equal(await opens(own, course.lessonId), true);
    });

    test('cancel at period end by the subscriber: access stays until the period passes, then closes; resume undoes it', async () => {
      const { price, course } = await plan();
      const { person: student, api } = await person();
      const { id } = await subscribe(server, { userId: student.id, priceId: price.id });
      const pending = ok<Subscription>(
        await api.post(`/api/v1/account/subscriptions/${id}/cancel`, { at_period_end: true }),
      );
      assert.equal(pending.cancel_at_period_end, true);
      assert.equal(pending.status, 'active');
      const resumed = ok<Subscription>(await api.post(`/api/v1/account/subscriptions/${id}/resume`));
      assert.equal(resumed.cancel_at_period_end, false);
      ok(await api.post(`/api/v1/account/subscriptions/${id}/cancel`, { at_period_end: true }));
      assert.equal(
        ok<Subscription>(await api.post(`/api/v1/account/subscriptions/${id}/cancel`, { at_period_end: true }))
          .cancel_at_period_end,
        true,
        'asking again changes nothing',
      );
      assert.equal(await opens(api, course.lessonId), true);

      const periodEnd = Date.parse(pending.current_period_end ?? '');
      await move(periodEnd - serverNow().getTime() - 60_000);
      const stillApi = apiClient(server.url, await tokenFor(server, student, OWN));
      assert.equal(await opens(stillApi, course.lessonId), true, 'open until the period ends');
      await move(2 * 60_000);
      const ended = await get(id);
      assert.equal(ended.status, 'canceled');
      assert.equal(ended.canceled_at, pending.current_period_end);
      const after = apiClient(server.url, await tokenFor(server, student, OWN));
      assert.equal(await opens(after, course.lessonId), false, 'the period passed: the course closed');
      assert.deepEqual(await renewals(id), [], 'a subscription that ends is not charged again');
      const refused = await after.post(`/api/v1/account/subscriptions/${id}/resume`);
      assert.equal(refused.status, 409);
    });

    test('staff cancel now: access closes at once; a canceled subscription refuses every change', async () => {
      const { price, course } = await plan();
      const { person: student, api } = await person();
      const { id } = await subscribe(server, { userId: student.id, priceId: price.id });
      assert.equal(await opens(api, course.lessonId), true);
      const canceled = ok<Subscription>(
        await staff.post(`/api/v1/subscriptions/${id}/cancel`, { at_period_end: false }),
      );
      assert.equal(canceled.status, 'canceled');
      assert.ok(canceled.canceled_at);
      assert.equal(await opens(api, course.lessonId), false);
      for (const [path, body] of [
        ['cancel', { at_period_end: false }],
        ['cancel', { at_period_end: true }],
        ['resume', {}],
        ['pause', {}],
        ['change-plan', { price_id: price.id }],
      ] as const) {
        const response = await staff.post(`/api/v1/subscriptions/${id}/${path}`, body);
        assert.equal(response.status, 409, path);
      }
      assert.equal(
        (await staff.post(`/api/v1/subscriptions/${newId('sub')}/cancel`, { at_period_end: true })).status,
        404,
      );
      assert.equal(
        (await staff.post(`/api/v1/subscriptions/${id}/cancel`, {})).status,
        400,
        'at_period_end is required',
      );
    });

    test('pause closes access and stops renewals; resume after the period ran out starts a new period with a charge', async () => {
      const { price, course } = await plan({ amount: 900, currency: 'EUR', interval: 'month', trial_days: 3 });
      const { person: student } = await person();
      const { id } = await subscribe(server, { userId: student.id, priceId: price.id });
      const trialing = await staff.post(`/api/v1/subscriptions/${id}/pause`);
      assert.equal(trialing.status, 409, 'only an active subscription pauses');
      await move(3 * DAY_MS + 60_000);
      const own = apiClient(server.url, await tokenFor(server, student, OWN));
      assert.equal((await get(id)).status, 'active');
      const paused = ok<Subscription>(await staff.post(`/api/v1/subscriptions/${id}/pause`));
      assert.equal(paused.status, 'paused');
      assert.ok(paused.paused_at);
      assert.equal(ok<Subscription>(await staff.post(`/api/v1/subscriptions/${id}/pause`)).status, 'paused');
      assert.equal(await opens(own, course.lessonId), false, 'a paused subscription opens nothing');
      assert.equal(
        (await own.post(`/api/v1/account/subscriptions/${id}/cancel`, { at_period_end: true })).status,
        409,
        'a paused subscription cannot wait for a period end',
      );
      assert.equal((await renewals(id)).length, 1);

      await move(40 * DAY_MS);
      assert.equal((await get(id)).status, 'paused', 'the renewal job leaves a paused subscription alone');
      assert.equal((await renewals(id)).length, 1, 'and charges nothing');
      const resumed = ok<Subscription>(await staff.post(`/api/v1/subscriptions/${id}/resume`));
      assert.equal(resumed.status, 'active');
      assert.equal(resumed.paused_at, null);
      assert.ok(Math.abs(Date.parse(resumed.current_period_start) - serverNow().getTime()) < 60_000);
      assert.ok(Date.parse(resumed.current_period_end ?? '') > serverNow().getTime() + 27 * DAY_MS);
      assert.equal((await renewals(id)).length, 2, 'the new period is charged');
      const back = apiClient(server.url, await tokenFor(server, student, OWN));
      assert.equal(await opens(back, course.lessonId), true);
      assert.equal((await staff.post(`/api/v1/subscriptions/${id}/resume`)).status, 409, 'nothing left to resume');
    });

    test('change plan takes effect at the next period: the old plan’s course closes, the new one opens, the new price is charged', async () => {
      const a = await plan({ amount: 1000, currency: 'EUR', interval: 'month' });
      const b = await plan({ amount: 2500, currency: 'EUR', interval: 'year' });
      const { person: student } = await person();
      const { id } = await subscribe(server, { userId: student.id, priceId: a.price.id });
      const usd = ok<Price>(
        await staff.post(`/api/v1/membership-plans/${b.plan.id}/prices`, {
          amount: 100,
          currency: 'USD',
          interval: 'month',
        }),
        201,
      );
      const once = ok<Price>(
        await staff.post(`/api/v1/membership-plans/${b.plan.id}/prices`, {
          amount: 100,
          currency: 'EUR',
          interval: 'one_time',
        }),
        201,
      );
      const gone = ok<Price>(
        await staff.post(`/api/v1/membership-plans/${b.plan.id}/prices`, {
          amount: 100,
          currency: 'EUR',
          interval: 'month',
        }),
        201,
      );
      ok(await staff.post(`/api/v1/membership-plans/${b.plan.id}/prices/${gone.id}/archive`));
      assert.equal((await staff.post(`/api/v1/subscriptions/${id}/change-plan`, { price_id: usd.id })).status, 409);
      assert.equal((await staff.post(`/api/v1/subscriptions/${id}/change-plan`, { price_id: once.id })).status, 409);
      const archived = await staff.post(`/api/v1/subscriptions/${id}/change-plan`, { price_id: gone.id });
      assert.equal(archived.status, 400);
      assert.equal((archived.body.errors as { field: string }[])[0]?.field, 'price_id');

      const changed = ok<Subscription>(
        await staff.post(`/api/v1/subscriptions/${id}/change-plan`, { price_id: b.price.id }),
      );
      assert.equal(changed.next_price_id, b.price.id);
      assert.equal(changed.price_id, a.price.id);
      const takenBack = ok<Subscription>(
        await staff.post(`/api/v1/subscriptions/${id}/change-plan`, { price_id: a.price.id }),
      );
      assert.equal(takenBack.next_price_id, null, 'its own price takes a waiting change back');
      ok(await staff.post(`/api/v1/subscriptions/${id}/change-plan`, { price_id: b.price.id }));
      let own = apiClient(server.url, await tokenFor(server, student, OWN));
      assert.equal(await opens(own, a.course.lessonId), true);
      assert.equal(await opens(own, b.course.lessonId), false, 'not before the next period');

      await move(Date.parse(changed.current_period_end ?? '') - serverNow().getTime() + 60_000);
      const renewed = await get(id);
      assert.deepEqual([renewed.plan_id, renewed.price_id, renewed.next_price_id], [b.plan.id, b.price.id, null]);
      const yearLater = new Date(changed.current_period_end ?? '');
      yearLater.setUTCFullYear(yearLater.getUTCFullYear() + 1);
      assert.equal(renewed.current_period_end, yearLater.toISOString(), 'the new price’s interval counts');
      const charged = await renewals(id);
      assert.deepEqual(
        charged.map((c) => [c.price_id, Number(c.total)]),
        [[b.price.id, 2500]],
      );
      own = apiClient(server.url, await tokenFor(server, student, OWN));
      assert.equal(await opens(own, a.course.lessonId), false, 'the old plan’s course closed');
      assert.equal(await opens(own, b.course.lessonId), true, 'the new plan’s course opened');
    });

    test('a one-time price is a membership for life: no period end, no renewal; only cancel now ends it', async () => {
      const { price, course } = await plan({ amount: 29900, currency: 'EUR', interval: 'one_time' });
      const { person: student } = await person();
      const { id } = await subscribe(server, { userId: student.id, priceId: price.id });
      const sub = await get(id);
      assert.deepEqual([sub.status, sub.current_period_end, sub.trial_end], ['active', null, null]);
      await move(400 * DAY_MS);
      const own = apiClient(server.url, await tokenFor(server, student, OWN));
      assert.equal(await opens(own, course.lessonId), true, 'open a year later');
      assert.equal((await get(id)).status, 'active');
      assert.deepEqual(await renewals(id), []);
      assert.equal((await staff.post(`/api/v1/subscriptions/${id}/cancel`, { at_period_end: true })).status, 409);
      const priceB = ok<Price>(
        await staff.post(`/api/v1/membership-plans/${price.plan_id}/prices`, {
          amount: 100,
          currency: 'EUR',
          interval: 'month',
        }),
        201,
      );
      assert.equal((await staff.post(`/api/v1/subscriptions/${id}/change-plan`, { price_id: priceB.id })).status, 409);
      ok(await staff.post(`/api/v1/subscriptions/${id}/cancel`, { at_period_end: false }));
      assert.equal(await opens(own, course.lessonId), false);
    });

    test('a free recurring price renews without a charge; it changes only to another free price', async () => {
      const { price, course } = await plan({ amount: 0, currency: 'EUR', interval: 'month' });
      const paid = ok<Price>(
        await staff.post(`/api/v1/membership-plans/${price.plan_id}/prices`, {
          amount: 500,
          currency: 'EUR',
          interval: 'month',
        }),
        201,
      );
      const { person: student } = await person();
      const { id } = await subscribe(server, { userId: student.id, priceId: price.id, provider: 'none' });
      const sub = await get(id);
      assert.equal(sub.provider, 'none');
      assert.equal((await staff.post(`/api/v1/subscriptions/${id}/change-plan`, { price_id: paid.id })).status, 409);
      await move(Date.parse(sub.current_period_end ?? '') - serverNow().getTime() + 60_000);
      const renewed = await get(id);
      assert.equal(renewed.status, 'active');
      assert.equal(renewed.current_period_start, sub.current_period_end);
      assert.deepEqual(await renewals(id), []);
      const own = apiClient(server.url, await tokenFor(server, student, OWN));
      assert.equal(await opens(own, course.lessonId), true);
    });

    test('a refund of the starting order ends the subscription now and closes its courses', async () => {
      const { price, course } = await plan();
      const { person: student, api } = await person();
      const { id, orderId } = await subscribe(server, { userId: student.id, priceId: price.id });
      assert.equal(await opens(api, course.lessonId), true);
      await server.database.db
        .transaction()
        .execute((trx) => server.services.areas.subscriptions.endForRefund(trx, orderId));
      const ended = await get(id);
      assert.equal(ended.status, 'canceled');
      assert.equal(await opens(api, course.lessonId), false);
      await server.database.db
        .transaction()
        .execute((trx) => server.services.areas.subscriptions.endForRefund(trx, orderId));
      assert.equal((await get(id)).canceled_at, ended.canceled_at, 'a second refund event changes nothing');
    });

    test('plan access never touches an enrollment of another source; a plan’s new course list reaches its holders', async () => {
      const { plan: p, price, course } = await plan();
      const other = await courseWithLesson(staff);
      const { person: student, api } = await person();
      ok(await staff.post(`/api/v1/students/${student.id}/enrollments`, { course_id: course.id }), 201);
      const { id } = await subscribe(server, { userId: student.id, priceId: price.id });
      type Enrollment = { course_id: string; source: string; expires_at: string | null; status: string };
      const enrollments = async () =>
        (await listAll<Enrollment & { id: string }>(staff, `/api/v1/students/${student.id}/enrollments`)).sort((x, y) =>
          x.course_id.localeCompare(y.course_id),
        );
      assert.deepEqual(
        (await enrollments()).map((e) => [e.course_id, e.source, e.expires_at]),
        [[course.id, 'manual', null]],
        'the manual enrollment is left as it was',
      );
      ok(await staff.patch(`/api/v1/membership-plans/${p.id}`, { course_ids: [course.id, other.id] }));
      assert.equal(await opens(api, other.lessonId), false, 'the holders are resynced by a job');
      await server.services.jobs.runDue();
      assert.equal(await opens(api, other.lessonId), true);
      const sub = await get(id);
      const opened = (await enrollments()).find((e) => e.course_id === other.id);
      assert.equal(opened?.source, 'subscription');
      assert.equal(
        opened?.expires_at,
        new Date(Date.parse(sub.current_period_end ?? '') + 7 * DAY_MS).toISOString(),
        'open until the period end plus the grace days',
      );

      ok(await staff.patch(`/api/v1/membership-plans/${p.id}`, { course_ids: [course.id] }));
      await server.services.jobs.runDue();
      assert.equal(await opens(api, other.lessonId), false, 'a course taken out of the plan closes');
      ok(await staff.post(`/api/v1/subscriptions/${id}/cancel`, { at_period_end: false }));
      assert.equal(await opens(api, course.lessonId), true, 'the manual enrollment still opens its course');
      assert.deepEqual(
        (await enrollments()).find((e) => e.course_id === course.id)?.expires_at,
        null,
        'and was never shortened',
      );
    });

    test('principals: a student sees only their own subscriptions; filters; pagination', async () => {
      const { price, plan: p } = await plan();
      const { person: mine, api: mineApi } = await person();
      const { person: theirs } = await person();
      const own = await subscribe(server, { userId: mine.id, priceId: price.id });
      const other = await subscribe(server, { userId: theirs.id, priceId: price.id });
      assert.equal((await mineApi.get(`/api/v1/subscriptions/${own.id}`)).status, 200);
      assert.equal((await mineApi.get(`/api/v1/subscriptions/${other.id}`)).status, 404);
      assert.deepEqual(
        (await listAll(mineApi, '/api/v1/subscriptions')).map((s) => s.id),
        [own.id],
      );
      assert.deepEqual(
        (await listAll(mineApi, `/api/v1/subscriptions?user_id=${theirs.id}`)).map((s) => s.id),
        [],
        'filters never widen what a caller sees',
      );
      assert.equal(
        (await mineApi.post(`/api/v1/account/subscriptions/${other.id}/cancel`, { at_period_end: true })).status,
        404,
      );
      const staffOwn = await staff.post(`/api/v1/account/subscriptions/${own.id}/cancel`, { at_period_end: true });
      assert.equal(staffOwn.status, 403, 'staff’s token here lacks account:write');
      const byPlan = await listAll<Subscription & { id: string }>(staff, `/api/v1/subscriptions?plan_id=${p.id}`);
      assert.deepEqual(byPlan.map((s) => s.id).sort(), [own.id, other.id].sort());
      const byUser = await listAll(staff, `/api/v1/subscriptions?user_id=${theirs.id}`);
      assert.deepEqual(
        byUser.map((s) => s.id),
        [other.id],
      );
      ok(await staff.post(`/api/v1/subscriptions/${other.id}/cancel`, { at_period_end: false }));
      const canceled = await listAll<Subscription & { id: string }>(
        staff,
        `/api/v1/subscriptions?plan_id=${p.id}&status=canceled`,
      );
      assert.deepEqual(
        canceled.map((s) => s.id),
        [other.id],
      );
      assert.equal((await staff.get('/api/v1/subscriptions?status=gone')).status, 400);

      const { price: pagePrice } = await plan();
      const { person: pager } = await person();
      await paginatesLikeEveryList({
        staff,
        query: `/api/v1/subscriptions?plan_id=${pagePrice.plan_id}`,
        make: async () => subscribe(server, { userId: pager.id, priceId: pagePrice.id }),
        remove: async (id) => server.database.db.deleteFrom('subscriptions').where('id', '=', id).execute(),
      });
    });

    describe('run by stripe: its events are the truth', () => {
      const state = (reference: string, at: number, overrides: Record<string, unknown> = {}) => ({
        reference,
        status: 'active' as const,
        currentPeriodStart: new Date(at).toISOString(),
        currentPeriodEnd: new Date(at + 30 * DAY_MS).toISOString(),
        cancelAtPeriodEnd: false,
        trialEnd: null,
        providerPriceId: null,
        at: new Date(at).toISOString(),
        ...overrides,
      });
      const apply = (event: PaymentEvent) =>
        server.database.db
          .transaction()
          .execute((trx) => server.services.areas.subscriptions.applyProviderEvent(trx, event));

      test('past due keeps access through the grace days after the period end, then closes', async () => {
        const { price, course } = await plan();
        const { person: student } = await person();
        const ref = `sub_${newId('x').slice(2)}`;
        const t0 = serverNow().getTime();
        const { id } = await subscribe(server, {
          userId: student.id,
          priceId: price.id,
          provider: 'stripe',
          providerRef: ref,
          state: state(ref, t0),
        });
        const sub = await get(id);
        assert.deepEqual([sub.status, sub.provider], ['active', 'stripe']);
        await apply({
          kind: 'renewal_failed',
          subscriptionRef: ref,
          invoiceRef: 'in_1',
          at: new Date(t0 + 30 * DAY_MS).toISOString(),
        });
        assert.equal((await get(id)).status, 'past_due');
        await move(30 * DAY_MS + 3 * DAY_MS);
        let own = apiClient(server.url, await tokenFor(server, student, OWN));
        assert.equal(await opens(own, course.lessonId), true, '3 days after the period end: within the grace');
        await move(5 * DAY_MS);
        own = apiClient(server.url, await tokenFor(server, student, OWN));
        assert.equal(await opens(own, course.lessonId), false, '8 days after: the 7 grace days are over');
        await apply({
          kind: 'renewal_paid',
          subscriptionRef: ref,
          invoiceRef: 'in_2',
          amount: 1500,
          currency: 'EUR',
          periodStart: new Date(t0 + 30 * DAY_MS).toISOString(),
          periodEnd: new Date(t0 + 60 * DAY_MS).toISOString(),
          at: new Date(t0 + 38 * DAY_MS).toISOString(),
        });
        const paid = await get(id);
        assert.equal(paid.status, 'active');
        assert.equal(paid.current_period_end, new Date(t0 + 60 * DAY_MS).toISOString());
        assert.equal(await opens(own, course.lessonId), true, 'paid at last: open again');
        assert.equal((await renewals(id)).length, 1);
      });

      test('newest state wins, a canceled one stays canceled, a renewal is recorded once by its invoice', async () => {
        const { price, course } = await plan();
        const { person: student, api } = await person();
        const ref = `sub_${newId('x').slice(2)}`;
        const t0 = serverNow().getTime();
        const { id } = await subscribe(server, {
          userId: student.id,
          priceId: price.id,
          provider: 'stripe',
          providerRef: ref,
          state: state(ref, t0, { status: 'trialing', trialEnd: new Date(t0 + 30 * DAY_MS).toISOString() }),
        });
        assert.equal((await get(id)).status, 'trialing');
        await apply({ kind: 'subscription_state', state: state(ref, t0 + 2000, { cancelAtPeriodEnd: true }) });
        assert.deepEqual([(await get(id)).status, (await get(id)).cancel_at_period_end], ['active', true]);
        await apply({ kind: 'subscription_state', state: state(ref, t0 + 1000, { status: 'past_due' }) });
        assert.equal((await get(id)).status, 'active', 'an older state is ignored');
        const renewal: PaymentEvent = {
          kind: 'renewal_paid',
          subscriptionRef: ref,
          invoiceRef: 'in_once',
          amount: 1500,
          currency: 'EUR',
          periodStart: new Date(t0 + 30 * DAY_MS).toISOString(),
          periodEnd: new Date(t0 + 60 * DAY_MS).toISOString(),
          at: new Date(t0 + 3000).toISOString(),
        };
        await apply(renewal);
        await apply(renewal);
        assert.equal((await renewals(id)).length, 1, 'one charge per invoice');
        await apply({ kind: 'subscription_state', state: state(ref, t0 + 4000, { status: 'canceled' }) });
        const canceled = await get(id);
        assert.equal(canceled.status, 'canceled');
        assert.equal(await opens(api, course.lessonId), false);
        await apply({ kind: 'subscription_state', state: state(ref, t0 + 5000) });
        assert.equal((await get(id)).status, 'canceled', 'canceled stays canceled');
        await apply({
          kind: 'renewal_failed',
          subscriptionRef: 'sub_unknown',
          invoiceRef: 'in_x',
          at: new Date().toISOString(),
        });
      });

      test('staff changes go to the provider first; a provider refusal changes nothing; without it configured, 409', async () => {
        const { price } = await plan();
        const { person: student } = await person();
        const ref = `sub_${newId('x').slice(2)}`;
        const { id } = await subscribe(server, {
          userId: student.id,
          priceId: price.id,
          provider: 'stripe',
          providerRef: ref,
          state: state(ref, serverNow().getTime()),
        });
        const unconfigured = await staff.post(`/api/v1/subscriptions/${id}/pause`);
        assert.equal(unconfigured.status, 409, 'the test school has no stripe');
        assert.match(String(unconfigured.body.error_description), /Stripe/);

        // The stripe adapter's side of the interface, recorded: what the school asks the provider for.
        const calls: [string, SubscriptionChange][] = [];
        let refuse = false;
        const service = subscriptionsService({
          db: server.database.db,
          clock: { now: serverNow },
          config: server.config,
          // The server's own service already runs the renewal jobs; this one only queues them.
          jobs: { ...server.services.jobs, handle: () => {} },
          store: subscriptionsStore(),
          writes: requestWrites(),
          members: { ensure: membersStore().insert },
          orders: renewalLedger(ordersStore({ revenue: { add: addToRevenueRollup } })),
          access: { syncPlanAccess: async () => {} },
          plans: server.services.areas.membershipPlans,
          provider: () => ({
            name: 'stripe',
            changeSubscription: async (reference, change) => {
              if (refuse) throw new Error('stripe is down');
              calls.push([reference, change]);
            },
          }),
        });
        const paused = await service.pause(id);
        assert.equal(paused.status, 'paused');
        await service.resume(id);
        await service.cancel(id, { at_period_end: true });
        await service.changePlan(id, { price_id: price.id });
        refuse = true;
        await assert.rejects(service.cancel(id, { at_period_end: false }), { code: 'service_unavailable' });
        assert.equal((await get(id)).status, 'active', 'refused by the provider: nothing changed');
        assert.deepEqual(calls, [
          [ref, { kind: 'pause' }],
          [ref, { kind: 'resume' }],
          [ref, { kind: 'cancel', atPeriodEnd: true }],
        ]);
      });
    });

    test('the membership rule: past due and a pending cancel hold until their ends, paused and canceled hold nothing', () => {
      const rule = membershipRule(7, { held: membersStore().compsHeld });
      const end = '2030-01-31T00:00:00.000Z';
      const graceEnd = '2030-02-07T00:00:00.000Z';
      assert.equal(rule.accessEnd({ status: 'active', current_period_end: end, cancel_at_period_end: 0 }), graceEnd);
      assert.equal(rule.accessEnd({ status: 'active', current_period_end: end, cancel_at_period_end: 1 }), end);
      assert.equal(rule.accessEnd({ status: 'past_due', current_period_end: end, cancel_at_period_end: 1 }), graceEnd);
      assert.equal(rule.accessEnd({ status: 'active', current_period_end: null, cancel_at_period_end: 0 }), null);
    });
  });

  describe(`a plan bought through the checkout on the test provider (${engine})`, () => {
    let server: TestServer;
    let skew = 0;
    let staffPerson: Person;
    let staff: Client;
    const serverNow = () => new Date(Date.now() + skew);
    const STAFF_HERE = `${STAFF} orders:read`;
    const BUYER = `${OWN} orders:read account:read`;

    before(async () => {
      server = await startTestServer(
        engine,
        { PAYMENTS_PROVIDER: 'test', JOBS_POLL_MS: '60000', OAUTH_REGISTRATIONS_PER_HOUR: '1000' },
        { clock: { now: serverNow } },
      );
      staffPerson = (await schoolWithPeople(server)).staff;
      staff = apiClient(server.url, await tokenFor(server, staffPerson, STAFF_HERE));
    });
    after(() => server.close());

    const signedIn = async (p: Person) => {
      const web = new WebClient(server.url);
      assert.equal((await web.submit('/signin', '/signin', { email: p.email, password: p.password })).status, 303);
      return web;
    };
    /** Buys `priceId` as `buyer`: the checkout's start, then Pay on the test provider's page. */
    const buy = async (buyer: Person, priceId: string) => {
      const api = apiClient(server.url, await tokenFor(server, buyer, BUYER));
      const started = ok<{ order: { id: string }; payment_url: string | null }>(
        await api.post('/api/v1/account/orders', { item: { type: 'plan', key: priceId } }),
        201,
      );
      const web = await signedIn(buyer);
      const path = new URL(started.payment_url ?? '').pathname;
      const page = await web.get(path);
      assert.equal(page.status, 200, page.text.slice(0, 200));
      assert.equal((await web.postForm(path, { _csrf: csrfOf(page.text), outcome: 'pay' })).status, 303);
      return started.order.id;
    };
    const subscriptionOf = async (orderId: string) => {
      const [sub] = await listAll<Subscription & { id: string }>(staff, '/api/v1/subscriptions').then((all) =>
        all.filter((s) => s.order_id === orderId),
      );
      assert.ok(sub, `a subscription for ${orderId}`);
      return sub;
    };

    test('trial → its course opens → renewed by the job, charged → cancel at period end → the period passes → closed', async () => {
      const course = await courseWithLesson(staff);
      const { price } = await planWithPrice(
        staff,
        { name: 'Checkout Trial Plan', course_ids: [course.id] },
        { amount: 1200, currency: 'EUR', interval: 'month', trial_days: 7 },
      );
      const buyer = await createUser(server, 'student');
      const orderId = await buy(buyer, price.id);
      const sub = await subscriptionOf(orderId);
      assert.deepEqual([sub.status, sub.provider, sub.price_id], ['trialing', 'test', price.id]);
      let own = apiClient(server.url, await tokenFor(server, buyer, BUYER));
      assert.equal(await opens(own, course.lessonId), true);

      skew += 7 * DAY_MS + 60_000;
      await server.services.jobs.runDue();
      staff = apiClient(server.url, await tokenFor(server, staffPerson, STAFF_HERE));
      const renewed = ok<Subscription>(await staff.get(`/api/v1/subscriptions/${sub.id}`));
      assert.equal(renewed.status, 'active');
      const orders = await listAll<{ id: string; kind: string; total: { amount: number }; status: string }>(
        staff,
        `/api/v1/orders?user_id=${buyer.id}`,
      );
      assert.deepEqual(
        orders.map((o) => [o.kind, o.total.amount, o.status]).sort(),
        [
          ['purchase', 0, 'paid'],
          ['renewal', 1200, 'paid'],
        ],
        'the trial’s order and the first renewal’s',
      );

      own = apiClient(server.url, await tokenFor(server, buyer, BUYER));
      ok(await own.post(`/api/v1/account/subscriptions/${sub.id}/cancel`, { at_period_end: true }));
      skew += Date.parse(renewed.current_period_end ?? '') - serverNow().getTime() + 60_000;
      await server.services.jobs.runDue();
      staff = apiClient(server.url, await tokenFor(server, staffPerson, STAFF_HERE));
      own = apiClient(server.url, await tokenFor(server, buyer, BUYER));
      assert.equal(ok<Subscription>(await own.get(`/api/v1/subscriptions/${sub.id}`)).status, 'canceled');
      assert.equal(await opens(own, course.lessonId), false);
    });

    test('a full refund of the order that started it cancels the subscription and closes its course', async () => {
      const course = await courseWithLesson(staff);
      const { price } = await planWithPrice(staff, { name: 'Checkout Paid Plan', course_ids: [course.id] });
      const buyer = await createUser(server, 'student');
      const orderId = await buy(buyer, price.id);
      const sub = await subscriptionOf(orderId);
      assert.equal(sub.status, 'active');
      const own = apiClient(server.url, await tokenFor(server, buyer, BUYER));
      assert.equal(await opens(own, course.lessonId), true);
      const staffWeb = await signedIn(staffPerson);
      const orderPage = await staffWeb.get(`/orders/${orderId}`);
      assert.equal(
        (await staffWeb.postForm(`/orders/${orderId}/refund`, { _csrf: csrfOf(orderPage.text), amount: '' })).status,
        303,
      );
      assert.equal(ok<Subscription>(await staff.get(`/api/v1/subscriptions/${sub.id}`)).status, 'canceled');
      assert.equal(await opens(own, course.lessonId), false);
    });
  });
}
