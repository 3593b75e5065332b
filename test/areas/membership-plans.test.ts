import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { priceForSale, setProviderPriceId } from '../../src/areas/membership-plans/sale.ts';
import { newId } from '../../src/db/ids.ts';
import {
  apiClient,
  insufficientScopeChallenge,
  listAll,
  type Person,
  schoolWithPeople,
  tokenFor,
} from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { courseWithLesson, ok, type Plan, type Price, planWithPrice, subscribe } from '../support/memberships.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { paginatesLikeEveryList, seenOnlyBy } from '../support/shared-examples.ts';

type Client = ReturnType<typeof apiClient>;

const STAFF =
  'membership_plans:read membership_plans:write courses:read courses:write curriculum:read curriculum:write';

for (const engine of engines) {
  describe(`membership plans API (${engine})`, () => {
    let server: TestServer;
    let staff: Client;
    let studentApi: Client;
    let anonymous: Client;
    let staffPerson: Person;
    let student: Person;

    before(async () => {
      server = await startTestServer(engine, { JOBS_POLL_MS: '60000' });
      const people = await schoolWithPeople(server);
      staffPerson = people.staff;
      student = people.student;
      staff = apiClient(server.url, await tokenFor(server, staffPerson, STAFF));
      studentApi = apiClient(server.url, await tokenFor(server, student, 'membership_plans:read'));
      anonymous = apiClient(server.url);
    });
    after(() => server.close());

    const create = async (body: Record<string, unknown>) =>
      ok<Plan>(await staff.post('/api/v1/membership-plans', body), 201);

    test('every operation: anonymous writes, tokens without the scope and students on writes are 403', async () => {
      const pln = newId('pln');
      const pri = newId('pri');
      const operations: [string, string, string, unknown?][] = [
        ['GET', '/api/v1/membership-plans', 'membership_plans:read'],
        ['GET', `/api/v1/membership-plans/${pln}`, 'membership_plans:read'],
        ['GET', `/api/v1/membership-plans/${pln}/prices`, 'membership_plans:read'],
        ['POST', '/api/v1/membership-plans', 'membership_plans:write', { name: 'X' }],
        ['PATCH', `/api/v1/membership-plans/${pln}`, 'membership_plans:write', { name: 'Y' }],
        ['DELETE', `/api/v1/membership-plans/${pln}`, 'membership_plans:write'],
        ['POST', `/api/v1/membership-plans/${pln}/archive`, 'membership_plans:write', {}],
        [
          'POST',
          `/api/v1/membership-plans/${pln}/prices`,
          'membership_plans:write',
          { amount: 100, currency: 'EUR', interval: 'month' },
        ],
        ['POST', `/api/v1/membership-plans/${pln}/prices/${pri}/archive`, 'membership_plans:write', {}],
      ];
      const staffWithout = apiClient(server.url, await tokenFor(server, staffPerson, 'courses:read'));
      const studentWithout = apiClient(server.url, await tokenFor(server, student, 'courses:read'));
      for (const [method, path, scope, body] of operations) {
        const callers: [string, Client][] = [
          ['staff without the scope', staffWithout],
          ['student without the scope', studentWithout],
        ];
        if (scope.endsWith(':write')) callers.push(['anonymous', anonymous], ['student', studentApi]);
        for (const [who, client] of callers) {
          const response = await client.call(method, path, body);
          assert.equal(response.status, 403, `${method} ${path} as ${who}`);
          assert.equal((response.body as { error: string }).error, 'insufficient_scope');
          assert.match(response.headers.get('www-authenticate') ?? '', insufficientScopeChallenge(scope));
        }
      }
    });

    test('create: a slug from the name, benefits, courses and products in the order given; get by id and slug', async () => {
      const a = await courseWithLesson(staff, 'Plan Course A');
      const b = await courseWithLesson(staff, 'Plan Course B');
      const plan = await create({
        name: 'Gold Membership',
        description: 'Everything.',
        benefits: ['Every course', 'Monthly Q&A'],
        course_ids: [b.id, a.id],
      });
      assert.match(plan.id, /^pln_[0-9a-z]{26}$/);
      assert.equal(plan.slug, 'gold-membership');
      assert.equal(plan.status, 'active');
      assert.equal(plan.visibility, 'public');
      assert.deepEqual(plan.benefits, ['Every course', 'Monthly Q&A']);
      assert.deepEqual(plan.course_ids, [b.id, a.id]);
      assert.deepEqual(plan.product_ids, []);
      assert.deepEqual(plan.prices, []);
      assert.equal(ok<Plan>(await anonymous.get('/api/v1/membership-plans/gold-membership')).id, plan.id);
      assert.deepEqual(ok<Plan>(await staff.get(`/api/v1/membership-plans/${plan.id}`)).course_ids, [b.id, a.id]);
      const again = await create({ name: 'Gold Membership' });
      assert.match(again.slug, /^gold-membership-[0-9a-f]{6}$/, 'a taken slug made from the name gets a suffix');
      const taken = await staff.post('/api/v1/membership-plans', { name: 'Other', slug: 'gold-membership' });
      assert.equal(taken.status, 409);
    });

    test('validation: unknown course and product ids are 400 with field errors; unknown field; blank name', async () => {
      const course = newId('crs');
      const product = newId('prd');
      const refused = await staff.post<{ errors: { field: string; code: string }[] }>('/api/v1/membership-plans', {
        name: 'Bad',
        course_ids: [course],
        product_ids: [product],
      });
      assert.equal(refused.status, 400);
      assert.deepEqual(
        refused.body.errors.map((e) => [e.field, e.code]),
        [
          ['course_ids', 'not_found'],
          ['product_ids', 'not_found'],
        ],
      );
      assert.match(JSON.stringify(refused.body), new RegExp(course));
      assert.equal((await staff.post('/api/v1/membership-plans', { name: 'X', colour: 'red' })).status, 400);
      assert.equal((await staff.post('/api/v1/membership-plans', { name: '   ' })).status, 400);
      assert.equal((await staff.post('/api/v1/membership-plans', { name: 'X', visibility: 'secret' })).status, 400);
      const plan = await create({ name: 'Valid' });
      const badUpdate = await staff.patch(`/api/v1/membership-plans/${plan.id}`, { course_ids: [course] });
      assert.equal(badUpdate.status, 400);
      assert.equal((await staff.patch(`/api/v1/membership-plans/${plan.id}`, {})).status, 400);
      assert.equal((await staff.patch(`/api/v1/membership-plans/${newId('pln')}`, { name: 'Z' })).status, 404);
    });

    test('update changes only the given fields; courses replace the list', async () => {
      const course = await courseWithLesson(staff);
      const plan = await create({ name: 'Silver', benefits: ['One'] });
      const updated = ok<Plan>(
        await staff.patch(`/api/v1/membership-plans/${plan.id}`, {
          description: 'Now with a course',
          course_ids: [course.id],
        }),
      );
      assert.equal(updated.name, 'Silver');
      assert.deepEqual(updated.benefits, ['One']);
      assert.equal((updated as unknown as { description: string }).description, 'Now with a course');
      assert.deepEqual(updated.course_ids, [course.id]);
      const cleared = ok<Plan>(await staff.patch(`/api/v1/membership-plans/${plan.id}`, { course_ids: [] }));
      assert.deepEqual(cleared.course_ids, []);
    });

    test('prices: created and archived, never edited; trial only on recurring prices; an archived plan takes none', async () => {
      const plan = await create({ name: 'Priced' });
      const monthly = ok<Price>(
        await staff.post(`/api/v1/membership-plans/${plan.id}/prices`, {
          amount: 1900,
          currency: 'EUR',
          interval: 'month',
          trial_days: 14,
        }),
        201,
      );
      assert.match(monthly.id, /^pri_[0-9a-z]{26}$/);
      assert.deepEqual(
        [monthly.amount, monthly.currency, monthly.interval, monthly.trial_days, monthly.status],
        [1900, 'EUR', 'month', 14, 'active'],
      );
      const life = ok<Price>(
        await staff.post(`/api/v1/membership-plans/${plan.id}/prices`, {
          amount: 29900,
          currency: 'EUR',
          interval: 'one_time',
        }),
        201,
      );
      assert.equal(life.trial_days, 0);
      const trialOnce = await staff.post(`/api/v1/membership-plans/${plan.id}/prices`, {
        amount: 100,
        currency: 'EUR',
        interval: 'one_time',
        trial_days: 7,
      });
      assert.equal(trialOnce.status, 400);
      assert.equal((trialOnce.body.errors as { field: string }[])[0]?.field, 'trial_days');
      for (const bad of [
        { amount: 1.5, currency: 'EUR', interval: 'month' },
        { amount: -1, currency: 'EUR', interval: 'month' },
        { amount: 100, currency: 'eur', interval: 'month' },
        { amount: 100, currency: 'EUR', interval: 'week' },
        { amount: 100, currency: 'EUR', interval: 'month', trial_days: 366 },
        { amount: 100, currency: 'EUR', interval: 'month', status: 'archived' },
      ])
        assert.equal(
          (await staff.post(`/api/v1/membership-plans/${plan.id}/prices`, bad)).status,
          400,
          JSON.stringify(bad),
        );

      assert.deepEqual(
        ok<Plan>(await anonymous.get(`/api/v1/membership-plans/${plan.id}`)).prices.map((p) => p.id),
        [monthly.id, life.id],
      );
      const archived = ok<Price>(await staff.post(`/api/v1/membership-plans/${plan.id}/prices/${monthly.id}/archive`));
      assert.equal(archived.status, 'archived');
      assert.equal(
        ok<Price>(await staff.post(`/api/v1/membership-plans/${plan.id}/prices/${monthly.id}/archive`)).status,
        'archived',
      );
      const other = await create({ name: 'Other plan' });
      assert.equal((await staff.post(`/api/v1/membership-plans/${other.id}/prices/${life.id}/archive`)).status, 404);

      const anonPrices = ok<{ data: Price[] }>(await anonymous.get(`/api/v1/membership-plans/${plan.slug}/prices`));
      assert.deepEqual(
        anonPrices.data.map((p) => p.id),
        [life.id],
        'archived prices are staff-only',
      );
      assert.deepEqual(
        ok<{ data: Price[] }>(await anonymous.get(`/api/v1/membership-plans/${plan.id}/prices?status=archived`)).data,
        [],
      );
      const staffPrices = ok<{ data: Price[] }>(await staff.get(`/api/v1/membership-plans/${plan.id}/prices`));
      assert.deepEqual(
        staffPrices.data.map((p) => p.id),
        [monthly.id, life.id],
      );
      const staffArchived = ok<{ data: Price[] }>(
        await staff.get(`/api/v1/membership-plans/${plan.id}/prices?status=archived`),
      );
      assert.deepEqual(
        staffArchived.data.map((p) => p.id),
        [monthly.id],
      );
      assert.deepEqual(
        ok<Plan>(await anonymous.get(`/api/v1/membership-plans/${plan.id}`)).prices.map((p) => p.id),
        [life.id],
      );

      ok(await staff.post(`/api/v1/membership-plans/${plan.id}/archive`));
      const late = await staff.post(`/api/v1/membership-plans/${plan.id}/prices`, {
        amount: 100,
        currency: 'EUR',
        interval: 'year',
      });
      assert.equal(late.status, 409);
      assert.match(String(late.body.error_description), /archived/);
      assert.equal(
        (
          await staff.post(`/api/v1/membership-plans/${newId('pln')}/prices`, {
            amount: 1,
            currency: 'EUR',
            interval: 'year',
          })
        ).status,
        404,
      );
    });

    test('principals: anonymous and students list public active plans; hidden ones by link; archived are staff-only', async () => {
      const principals = { anonymous, student: studentApi, staff };
      const publicPlan = await create({ name: 'Public Plan' });
      const hidden = await create({ name: 'Hidden Plan', visibility: 'hidden' });
      const archived = await create({ name: 'Archived Plan' });
      ok(await staff.post(`/api/v1/membership-plans/${archived.id}/archive`));
      const item = (plan: Plan) => ({
        id: plan.id,
        get: `/api/v1/membership-plans/${plan.slug}`,
        list: '/api/v1/membership-plans',
        label: plan.name,
      });
      await seenOnlyBy(principals, item(publicPlan), ['anonymous', 'student', 'staff']);
      await seenOnlyBy(principals, item(archived), ['staff']);
      for (const client of [anonymous, studentApi, staff]) {
        assert.equal(
          (await client.get(`/api/v1/membership-plans/${hidden.slug}`)).status,
          200,
          'a hidden plan sells by its link',
        );
        assert.equal((await client.get(`/api/v1/membership-plans/${hidden.id}/prices`)).status, 200);
      }
      assert.ok(!(await listAll(anonymous, '/api/v1/membership-plans')).some((p) => p.id === hidden.id));
      assert.ok((await listAll(staff, '/api/v1/membership-plans')).some((p) => p.id === hidden.id));
      assert.equal((await anonymous.get(`/api/v1/membership-plans/${archived.id}/prices`)).status, 404);
      const filtered = await listAll<Plan>(staff, '/api/v1/membership-plans?status=archived');
      assert.ok(filtered.every((p) => p.status === 'archived') && filtered.some((p) => p.id === archived.id));
      const hiddenOnly = await listAll<Plan>(staff, '/api/v1/membership-plans?visibility=hidden');
      assert.ok(hiddenOnly.every((p) => p.visibility === 'hidden') && hiddenOnly.some((p) => p.id === hidden.id));
      const anonFilter = await listAll<Plan>(anonymous, '/api/v1/membership-plans?visibility=hidden');
      assert.deepEqual(anonFilter, [], 'filters never widen what a caller sees');
    });

    test('delete: a plan never sold goes; one subscribed to is 409 (archive it); archive is idempotent', async () => {
      const course = await courseWithLesson(staff);
      const unsold = await planWithPrice(staff, { name: 'Unsold', course_ids: [course.id] });
      assert.equal((await staff.delete(`/api/v1/membership-plans/${unsold.plan.id}`)).status, 204);
      assert.equal((await staff.get(`/api/v1/membership-plans/${unsold.plan.id}`)).status, 404);
      assert.equal((await staff.delete(`/api/v1/membership-plans/${unsold.plan.id}`)).status, 404);

      const sold = await planWithPrice(staff, { name: 'Sold' });
      await subscribe(server, { userId: student.id, priceId: sold.price.id });
      const refused = await staff.delete(`/api/v1/membership-plans/${sold.plan.id}`);
      assert.equal(refused.status, 409);
      assert.match(String(refused.body.error_description), /archive it instead/);
      const archived = ok<Plan>(await staff.post(`/api/v1/membership-plans/${sold.plan.id}/archive`));
      assert.equal(archived.status, 'archived');
      assert.equal(ok<Plan>(await staff.post(`/api/v1/membership-plans/${sold.plan.id}/archive`)).status, 'archived');
      assert.equal((await staff.post(`/api/v1/membership-plans/${newId('pln')}/archive`)).status, 404);

      const ordered = await planWithPrice(staff, { name: 'Ordered' });
      const { orderId } = await subscribe(server, { userId: student.id, priceId: ordered.price.id });
      // An order item naming the plan, without a subscription (a checkout still pending, say).
      const { db } = server.database;
      await db.deleteFrom('subscriptions').where('order_id', '=', orderId).execute();
      await db
        .insertInto('order_items')
        .values({
          id: newId('oit'),
          order_id: orderId,
          item_type: 'plan',
          item_id: ordered.plan.id,
          price_id: ordered.price.id,
          title: 'Ordered',
          unit_amount: 1500,
          discount: 0,
          amount: 1500,
          currency: 'EUR',
        })
        .execute();
      assert.equal(
        (await staff.delete(`/api/v1/membership-plans/${ordered.plan.id}`)).status,
        409,
        'an order item names it',
      );
    });

    test('priceForSale and setProviderPriceId (the checkout’s and the payment adapter’s calls)', async () => {
      const { plan, price } = await planWithPrice(
        staff,
        { name: 'For Sale', visibility: 'hidden' },
        { amount: 4900, currency: 'USD', interval: 'year', trial_days: 7 },
      );
      const { db } = server.database;
      assert.deepEqual(await priceForSale(db, price.id), {
        plan: { id: plan.id, name: 'For Sale', slug: plan.slug },
        price: {
          id: price.id,
          amount: 4900,
          currency: 'USD',
          interval: 'year',
          trial_days: 7,
          provider_price_id: null,
        },
      });
      await setProviderPriceId(db, price.id, 'price_123');
      assert.equal((await priceForSale(db, price.id)).price.provider_price_id, 'price_123');
      await assert.rejects(setProviderPriceId(db, newId('pri'), 'price_x'), { code: 'not_found' });
      await assert.rejects(priceForSale(db, newId('pri')), { code: 'not_found', message: 'No such price.' });

      const second = ok<Price>(
        await staff.post(`/api/v1/membership-plans/${plan.id}/prices`, {
          amount: 1,
          currency: 'USD',
          interval: 'month',
        }),
        201,
      );
      ok(await staff.post(`/api/v1/membership-plans/${plan.id}/prices/${price.id}/archive`));
      await assert.rejects(priceForSale(db, price.id), { code: 'not_found' }, 'an archived price is not for sale');
      assert.equal((await priceForSale(db, second.id)).price.id, second.id);
      ok(await staff.post(`/api/v1/membership-plans/${plan.id}/archive`));
      await assert.rejects(priceForSale(db, second.id), { code: 'not_found' }, 'nor a price of an archived plan');
    });

    test('lists: cursor pagination, sort, date filters and q (text in the name)', async () => {
      const run = Math.random().toString(36).slice(2, 8);
      await paginatesLikeEveryList({
        staff,
        query: `/api/v1/membership-plans?q=${run}`,
        make: async (i) => create({ name: `Page ${run} ${i}` }),
        remove: async (id) => staff.delete(`/api/v1/membership-plans/${id}`),
      });
    });

    test('Idempotency-Key replays a plan’s and a price’s create; another body with the key is 409', async () => {
      const key = `plan-${Date.now()}`;
      const first = await staff.post<Plan>('/api/v1/membership-plans', { name: 'Once' }, { 'idempotency-key': key });
      const again = await staff.post<Plan>('/api/v1/membership-plans', { name: 'Once' }, { 'idempotency-key': key });
      assert.equal(first.status, 201);
      assert.equal(again.body.id, first.body.id);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal(
        (await staff.post('/api/v1/membership-plans', { name: 'Twice' }, { 'idempotency-key': key })).status,
        409,
      );
      const priceKey = `price-${Date.now()}`;
      const body = { amount: 500, currency: 'EUR', interval: 'month' };
      const p1 = await staff.post<Price>(`/api/v1/membership-plans/${first.body.id}/prices`, body, {
        'idempotency-key': priceKey,
      });
      const p2 = await staff.post<Price>(`/api/v1/membership-plans/${first.body.id}/prices`, body, {
        'idempotency-key': priceKey,
      });
      assert.equal(p1.status, 201);
      assert.equal(p2.body.id, p1.body.id);
      assert.equal(
        ok<{ data: Price[] }>(await staff.get(`/api/v1/membership-plans/${first.body.id}/prices`)).data.length,
        1,
      );
    });
  });
}
