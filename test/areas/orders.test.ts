import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  apiClient,
  createUser,
  insufficientScopeChallenge,
  listAll,
  type Person,
  schoolWithPeople,
  tokenFor,
} from '../support/api.ts';
import { publishWithALesson } from '../support/course-content.ts';
import { engines } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { csrfOf, signedInClient, WebClient } from '../support/web-client.ts';

type Client = ReturnType<typeof apiClient>;
type Money = { amount: number; currency: string };
type Order = {
  id: string;
  number: number;
  user_id: string;
  status: string;
  kind: string;
  created_at: string;
  provider: string;
  items: { item_type: string; item_id: string; title: string; unit_price: Money; amount: Money }[];
  subtotal: Money;
  discount: Money;
  total: Money;
  refunded_amount: Money;
  failure_reason: string | null;
  paid_at: string | null;
};
type Started = { order: Order; payment_url: string | null };

const HOUR_MS = 3_600_000;
const STAFF_SCOPES = 'orders:read courses:read courses:write curriculum:write students:read school:read';
const BUYER_SCOPES = 'orders:read account:read account:write students:read';

const ok = <T>(response: { status: number; body: unknown }, status = 200) => {
  assert.equal(response.status, status, JSON.stringify(response.body));
  return response.body as T;
};

const signedIn = (server: TestServer, person: Person) => signedInClient(server.url, person);

for (const engine of engines) {
  describe(`orders and checkout, test provider (${engine})`, () => {
    let server: TestServer;
    let skew = 0;
    let staff: Client;
    let staffPerson: Person;
    let owner: Person;
    let buyer: Person;
    let buyerApi: Client;
    let other: Person;
    let otherApi: Client;

    before(async () => {
      server = await startTestServer(
        engine,
        // Tokens outlive the hour the clock is moved by.
        { PAYMENTS_PROVIDER: 'test', OAUTH_ACCESS_TOKEN_TTL_SECONDS: '86400' },
        { clock: { now: () => new Date(Date.now() + skew) } },
      );
      const people = await schoolWithPeople(server);
      staffPerson = people.staff;
      owner = people.owner;
      buyer = people.student;
      other = await createUser(server, 'student', 'Otto Other');
      staff = apiClient(server.url, await tokenFor(server, staffPerson, STAFF_SCOPES));
      buyerApi = apiClient(server.url, await tokenFor(server, buyer, BUYER_SCOPES));
      otherApi = apiClient(server.url, await tokenFor(server, other, BUYER_SCOPES));
    });
    after(() => server.close());

    const course = async (price: Money | null) => {
      const made = ok<{ id: string; slug: string; title: string }>(
        await staff.post('/api/v1/courses', {
          title: `Course ${Math.random().toString(36).slice(2, 8)}`,
          ...(price ? { price } : {}),
        }),
        201,
      );
      ok(await publishWithALesson(staff, made.id));
      return made;
    };
    const enrollmentOf = async (person: Person, courseId: string) =>
      (
        await listAll<{ id: string; course_id: string; status: string; source: string }>(
          staff,
          `/api/v1/students/${person.id}/enrollments`,
        )
      ).find((e) => e.course_id === courseId);
    const start = (client: Client, key: string, extra: Record<string, unknown> = {}) =>
      client.post<Started>('/api/v1/account/orders', { item: { type: 'course', key }, ...extra });

    /** Presses Pay or Decline on the test provider's page, as the buyer's browser does. */
    async function payOnTestPage(web: WebClient, url: string, outcome: 'pay' | 'decline') {
      const path = new URL(url).pathname;
      const page = await web.get(path);
      assert.equal(page.status, 200, page.text.slice(0, 300));
      assert.match(page.text, /TEST PAYMENT/);
      const csrf = csrfOf(page.text);
      return { ...(await web.postForm(path, { _csrf: csrf, outcome })), csrf };
    }

    test('a paid course: pending order → the test page’s Pay → paid, enrolled with source order, receipt queued', async () => {
      const paid = await course({ amount: 4900, currency: 'EUR' });
      const quote = ok<{ total: Money; needs_payment: boolean; payments_enabled: boolean }>(
        await buyerApi.get(`/api/v1/account/checkout?type=course&key=${paid.slug}`),
      );
      assert.deepEqual(quote.total, { amount: 4900, currency: 'EUR' });
      assert.equal(quote.needs_payment, true);
      assert.equal(quote.payments_enabled, true);
      const started = ok<Started>(await start(buyerApi, paid.slug), 201);
      assert.equal(started.order.status, 'pending');
      assert.equal(started.order.provider, 'test');
      assert.match(started.payment_url ?? '', /\/pay\/test\/tps_/);
      assert.equal(await enrollmentOf(buyer, paid.id), undefined, 'nothing is granted before the payment');

      const web = await signedIn(server, buyer);
      const paidPage = await payOnTestPage(web, started.payment_url ?? '', 'pay');
      assert.equal(paidPage.status, 303);
      assert.equal(paidPage.location, `/orders/${started.order.id}`);
      const order = ok<Order>(await buyerApi.get(`/api/v1/orders/${started.order.id}`));
      assert.equal(order.status, 'paid');
      assert.ok(order.paid_at);
      assert.deepEqual(order.items[0]?.unit_price, { amount: 4900, currency: 'EUR' });
      const enrollment = await enrollmentOf(buyer, paid.id);
      assert.equal(enrollment?.status, 'active');
      assert.equal(enrollment?.source, 'order');
      const receipt = await web.get(`/orders/${order.id}`);
      assert.match(receipt.text, /Paid\. Thank you!/);
      assert.match(receipt.text, /€49\.00/);

      const outbox = apiClient(server.url, await tokenFor(server, owner, 'school:read'));
      const mails = ok<{ data: { to: string; subject: string; kind: string }[] }>(
        await outbox.get(`/api/v1/outbox?kind=order_receipt&to=${encodeURIComponent(buyer.email)}`),
      );
      assert.ok(mails.data.some((m) => m.subject === `Your receipt for order ${order.number}`));

      // Pressing Pay again (a double submit, the back button) applies nothing twice.
      const again = await web.postForm(new URL(started.payment_url ?? '').pathname, {
        _csrf: paidPage.csrf,
        outcome: 'pay',
      });
      assert.equal(again.status, 303);
      const after = ok<Order>(await buyerApi.get(`/api/v1/orders/${order.id}`));
      assert.equal(after.paid_at, order.paid_at);
      const conflict = await start(buyerApi, paid.slug);
      assert.equal(conflict.status, 409, 'a course already held is not sold again');
    });

    test('a declined payment fails the order, grants nothing and says so; Try again keeps the slug and the coupon', async () => {
      const paid = await course({ amount: 1500, currency: 'EUR' });
      const coupons = apiClient(server.url, await tokenFor(server, staffPerson, 'coupons:write coupons:read'));
      const code = `AGAIN${engine.toUpperCase()}`;
      ok(await coupons.post('/api/v1/coupons', { code, percent_off: 20 }), 201);
      const started = ok<Started>(await start(buyerApi, paid.id, { coupon_code: code }), 201);
      const web = await signedIn(server, buyer);
      const declined = await payOnTestPage(web, started.payment_url ?? '', 'decline');
      assert.equal(declined.status, 303);
      const order = ok<Order>(await buyerApi.get(`/api/v1/orders/${started.order.id}`));
      assert.equal(order.status, 'failed');
      assert.match(order.failure_reason ?? '', /declined/);
      assert.equal(await enrollmentOf(buyer, paid.id), undefined);
      const page = await web.get(`/orders/${order.id}`);
      assert.match(page.text, /The payment did not go through: nothing was charged and nothing was granted\./);
      const retry = /<a class="button" href="([^"]+)">Try again<\/a>/.exec(page.text)?.[1]?.replaceAll('&amp;', '&');
      assert.equal(retry, `/checkout/course/${paid.slug}?coupon_code=${code}`, 'by slug, with the coupon');
      const review = await web.get(retry ?? '');
      assert.equal(review.status, 200);
      assert.match(review.text, new RegExp(`Coupon ${code}</td><td>−€3\\.00`), 'the coupon is applied again');
      assert.match(review.text, /Pay €12\.00/);
    });

    test('a free course at checkout is paid at once, with no provider page', async () => {
      const free = await course(null);
      const started = ok<Started>(await start(buyerApi, free.id), 201);
      assert.equal(started.payment_url, null);
      assert.equal(started.order.status, 'paid');
      assert.equal(started.order.provider, 'none');
      assert.equal(started.order.total.amount, 0);
      assert.equal((await enrollmentOf(buyer, free.id))?.status, 'active');
    });

    test('order numbers are sequential; items keep the price they were bought at', async () => {
      const c = await course({ amount: 1000, currency: 'EUR' });
      const a = ok<Started>(await start(buyerApi, c.slug), 201).order;
      const b = ok<Started>(await start(otherApi, c.slug), 201).order;
      assert.equal(b.number, a.number + 1);
      ok(await staff.patch(`/api/v1/courses/${c.id}`, { price: { amount: 2000, currency: 'EUR' }, title: 'Renamed' }));
      const kept = ok<Order>(await buyerApi.get(`/api/v1/orders/${a.id}`));
      assert.equal(kept.items[0]?.unit_price.amount, 1000);
      assert.notEqual(kept.items[0]?.title, 'Renamed');
    });

    test('an unpaid checkout is canceled after an hour by the jobs mechanism', async () => {
      const c = await course({ amount: 700, currency: 'EUR' });
      const started = ok<Started>(await start(buyerApi, c.slug), 201);
      skew += HOUR_MS + 1000;
      await server.services.jobs.runDue();
      const order = ok<Order>(await buyerApi.get(`/api/v1/orders/${started.order.id}`));
      assert.equal(order.status, 'canceled');
      const page = await (await signedIn(server, buyer)).get(new URL(started.payment_url ?? '').pathname);
      assert.equal(page.status, 303, 'the test page of a canceled order sends the buyer to the order');
    });

    test('staff refund part then all: partially_refunded, then refunded and the course closed', async () => {
      const c = await course({ amount: 3000, currency: 'EUR' });
      const started = ok<Started>(await start(otherApi, c.slug), 201);
      await payOnTestPage(await signedIn(server, other), started.payment_url ?? '', 'pay');
      const staffWeb = await signedIn(server, staffPerson);
      const orderPage = await staffWeb.get(`/orders/${started.order.id}`);
      assert.match(orderPage.text, /Refund \(staff\)/);
      const part = await staffWeb.postForm(`/orders/${started.order.id}/refund`, {
        _csrf: csrfOf(orderPage.text),
        amount: '1000',
      });
      assert.equal(part.status, 303);
      let order = ok<Order>(await staff.get(`/api/v1/orders/${started.order.id}`));
      assert.equal(order.status, 'partially_refunded');
      assert.equal(order.refunded_amount.amount, 1000);
      assert.equal((await enrollmentOf(other, c.id))?.status, 'active');
      const tooMuch = await staffWeb.postForm(`/orders/${started.order.id}/refund`, {
        _csrf: csrfOf(orderPage.text),
        amount: '5000',
      });
      assert.equal(tooMuch.status, 400);
      assert.match(tooMuch.text, /At most 2000 can be refunded|from 1 to 2000/);
      const rest = await staffWeb.postForm(`/orders/${started.order.id}/refund`, {
        _csrf: csrfOf(orderPage.text),
        amount: '',
      });
      assert.equal(rest.status, 303);
      order = ok<Order>(await staff.get(`/api/v1/orders/${started.order.id}`));
      assert.equal(order.status, 'refunded');
      assert.equal(order.refunded_amount.amount, 3000);
      assert.equal((await enrollmentOf(other, c.id))?.status, 'revoked', 'a full refund takes the access back');
      // A student cannot refund.
      const studentWeb = await signedIn(server, other);
      const own = await studentWeb.get(`/orders/${started.order.id}`);
      assert.doesNotMatch(own.text, /Refund \(staff\)/);
      const formPage = await studentWeb.get(`/checkout/course/${c.slug}`);
      const refused = await studentWeb.postForm(`/orders/${started.order.id}/refund`, { _csrf: csrfOf(formPage.text) });
      assert.equal(refused.status, 404);
    });

    test('refundOrder: staff refund through the API (school:write); wrong state, too much and wrong tokens refused', async () => {
      const refunder = apiClient(server.url, await tokenFor(server, staffPerson, 'orders:read school:write'));
      const c = await course({ amount: 2500, currency: 'EUR' });
      const pending = ok<Started>(await start(otherApi, c.slug), 201);
      const early = await refunder.post<{ error: string }>(`/api/v1/orders/${pending.order.id}/refund`, {});
      assert.equal(early.status, 409, 'a pending order has nothing to refund');
      await payOnTestPage(await signedIn(server, other), pending.payment_url ?? '', 'pay');
      const tooMuch = await refunder.post<{ errors: { field: string }[] }>(
        `/api/v1/orders/${pending.order.id}/refund`,
        {
          amount: 9999,
        },
      );
      assert.equal(tooMuch.status, 400);
      assert.equal(tooMuch.body.errors[0]?.field, 'amount');
      const part = await refunder.post<Order>(`/api/v1/orders/${pending.order.id}/refund`, { amount: 500 });
      assert.equal(part.status, 202);
      assert.equal(part.body.status, 'partially_refunded', 'the test provider applies it at once');
      assert.equal(part.body.refunded_amount.amount, 500);
      const moved = await otherApi.get<{ data: { kind: string; amount: Money }[] }>(
        `/api/v1/orders/${pending.order.id}/payments`,
      );
      assert.equal(moved.status, 200, 'the buyer reads the payments of their own order');
      assert.deepEqual(
        moved.body.data.map((p) => [p.kind, p.amount.amount]),
        [
          ['charge', 2500],
          ['refund', 500],
        ],
      );
      assert.equal((await buyerApi.get(`/api/v1/orders/${pending.order.id}/payments`)).status, 404, "not another's");
      const readOnly = await staff.post(`/api/v1/orders/${pending.order.id}/refund`, {});
      assert.equal(readOnly.status, 403, 'a token without school:write');
      const studentToken = apiClient(server.url, await tokenFor(server, other, 'orders:read school:write'));
      assert.equal((await studentToken.post(`/api/v1/orders/${pending.order.id}/refund`, {})).status, 403);
      assert.equal((await refunder.post(`/api/v1/orders/${pending.order.id}/refund`, { colour: 1 })).status, 400);
    });

    test('who sees which orders: staff all, a student their own, anonymous and scope-less tokens refused', async () => {
      const c = await course({ amount: 500, currency: 'EUR' });
      const mine = ok<Started>(await start(buyerApi, c.slug), 201).order;
      const theirs = ok<Started>(await start(otherApi, c.slug), 201).order;
      assert.equal((await otherApi.get(`/api/v1/orders/${mine.id}`)).status, 404);
      const ownIds = (await listAll<Order>(buyerApi, '/api/v1/orders')).map((o) => o.id);
      assert.ok(ownIds.includes(mine.id));
      assert.ok(!ownIds.includes(theirs.id));
      const staffIds = (await listAll<Order>(staff, `/api/v1/orders?item_id=${c.id}`)).map((o) => o.id);
      assert.deepEqual(new Set(staffIds), new Set([mine.id, theirs.id]));
      const byUser = await listAll<Order>(staff, `/api/v1/orders?user_id=${other.id}&status=pending`);
      assert.ok(byUser.every((o) => o.user_id === other.id && o.status === 'pending'));

      const anonymous = apiClient(server.url);
      const anon = await anonymous.get('/api/v1/orders');
      assert.equal(anon.status, 403);
      const noScope = apiClient(server.url, await tokenFor(server, staffPerson, 'courses:read'));
      const refused = await noScope.get('/api/v1/orders');
      assert.equal(refused.status, 403);
      assert.match(refused.headers.get('www-authenticate') ?? '', insufficientScopeChallenge('orders:read'));
      assert.equal((await noScope.get(`/api/v1/orders/${mine.id}`)).status, 403);
      const noAccount = apiClient(server.url, await tokenFor(server, buyer, 'orders:read'));
      assert.equal(
        (await noAccount.post('/api/v1/account/orders', { item: { type: 'course', key: c.slug } })).status,
        403,
      );
      assert.equal((await noAccount.get(`/api/v1/account/checkout?type=course&key=${c.slug}`)).status, 403);
      const staffBuys = apiClient(server.url, await tokenFor(server, staffPerson, 'account:write'));
      assert.equal(
        (await staffBuys.post('/api/v1/account/orders', { item: { type: 'course', key: c.slug } })).status,
        409,
      );
    });

    test('100 concurrent checkouts with a 10-use coupon redeem it exactly 10 times', async () => {
      const c = await course({ amount: 2000, currency: 'EUR' });
      const coupons = apiClient(server.url, await tokenFor(server, staffPerson, 'coupons:write coupons:read'));
      const coupon = ok<{ id: string }>(
        await coupons.post('/api/v1/coupons', {
          code: `RUSH${engine.toUpperCase()}`,
          percent_off: 50,
          max_redemptions: 10,
        }),
        201,
      );
      const attempts = await Promise.all(
        Array.from({ length: 100 }, () => start(buyerApi, c.slug, { coupon_code: `rush${engine}` })),
      );
      const statuses = attempts.map((a) => a.status);
      assert.equal(statuses.filter((s) => s === 201).length, 10, statuses.join(' '));
      assert.equal(statuses.filter((s) => s === 400).length, 90, statuses.join(' '));
      for (const refused of attempts.filter((a) => a.status === 400))
        assert.equal((refused.body as unknown as { errors: { field: string }[] }).errors[0]?.field, 'coupon_code');
      const made = attempts.filter((a) => a.status === 201).map((a) => (a.body as Started).order);
      assert.ok(made.every((o) => o.discount.amount === 1000 && o.total.amount === 1000));
      const after = ok<{ times_redeemed: number; state: string }>(await coupons.get(`/api/v1/coupons/${coupon.id}`));
      assert.equal(after.times_redeemed, 10);
      assert.equal(after.state, 'exhausted');
      const byCoupon = await listAll<Order>(staff, `/api/v1/orders?coupon_id=${coupon.id}`);
      assert.equal(byCoupon.length, 10, 'no order was half-written by a refused checkout');
    });

    test('bad input: unknown fields, unknown items and a coupon before coupons exist are clear 400/404s', async () => {
      const c = await course({ amount: 500, currency: 'EUR' });
      const unknown = await buyerApi.post('/api/v1/account/orders', {
        item: { type: 'course', key: c.slug },
        extra: 1,
      });
      assert.equal(unknown.status, 400);
      const missing = await start(buyerApi, 'no-such-course');
      assert.equal(missing.status, 404);
      assert.equal((await buyerApi.get('/api/v1/orders/ord_00000000000000000000000000')).status, 404);
      assert.equal((await buyerApi.get('/api/v1/orders?status=shipped')).status, 400);
    });

    test('the orders list pages by cursor, newest first, and refuses bad paging', async () => {
      const c = await course({ amount: 100, currency: 'EUR' });
      const people = await Promise.all([0, 1, 2, 3, 4].map((i) => createUser(server, 'student', `Pager ${i}`)));
      const made: Order[] = [];
      const began = skew;
      try {
        for (const person of people) {
          const client = apiClient(server.url, await tokenFor(server, person, 'account:write'));
          // A second apart, so a date range can take some and leave others.
          skew += 1000;
          made.push(ok<Started>(await start(client, c.slug), 201).order);
        }
      } finally {
        skew = began;
      }
      type Page = { data: Order[]; has_more: boolean; next_cursor: string | null };
      const query = `/api/v1/orders?item_id=${c.id}`;
      const first = ok<Page>(await staff.get(`${query}&limit=2`));
      assert.deepEqual(
        first.data.map((o) => o.id),
        [made[4]?.id, made[3]?.id],
      );
      assert.equal(first.has_more, true);
      const second = ok<Page>(await staff.get(`${query}&limit=2&starting_after=${first.next_cursor}`));
      assert.deepEqual(
        second.data.map((o) => o.id),
        [made[2]?.id, made[1]?.id],
      );
      const third = ok<Page>(await staff.get(`${query}&limit=2&starting_after=${second.next_cursor}`));
      assert.deepEqual(
        third.data.map((o) => o.id),
        [made[0]?.id],
      );
      assert.equal(third.next_cursor, null);
      const ascending = ok<Page>(await staff.get(`${query}&sort=created_at&limit=1`));
      assert.equal(ascending.data[0]?.id, made[0]?.id);
      // A date range is read in time order, paged by the same cursor: here orders 1 to 3 of 0 to 4.
      const at = (i: number) => Date.parse(made[i]?.created_at ?? '');
      const range = `${query}&created_after=${new Date(at(0)).toISOString()}&created_before=${new Date(at(4)).toISOString()}`;
      const pages = async (extra: string) => {
        const ids: string[] = [];
        for (let cursor: string | null = null, n = 0; n === 0 || cursor; n++) {
          const page: Page = ok<Page>(
            await staff.get(`${range}&limit=2${extra}${cursor ? `&starting_after=${cursor}` : ''}`),
          );
          ids.push(...page.data.map((o) => o.id));
          cursor = page.next_cursor;
        }
        return ids;
      };
      assert.deepEqual(await pages(''), [made[3]?.id, made[2]?.id, made[1]?.id]);
      assert.deepEqual(await pages('&sort=created_at'), [made[1]?.id, made[2]?.id, made[3]?.id]);
      assert.equal((await staff.get(`${query}&limit=101`)).status, 400);
      assert.equal((await staff.get(`${query}&starting_after=nope`)).status, 400);
      assert.equal((await staff.get(`${query}&colour=red`)).status, 400);
    });
  });

  describe(`checkout without a payment provider (${engine})`, () => {
    let server: TestServer;
    let staff: Client;
    let buyer: Person;

    before(async () => {
      server = await startTestServer(engine);
      const people = await schoolWithPeople(server);
      buyer = people.student;
      staff = apiClient(
        server.url,
        await tokenFor(server, people.staff, 'courses:read courses:write curriculum:write'),
      );
    });
    after(() => server.close());

    test('a paid item cannot be taken, and the course page says the school takes no payments', async () => {
      const made = ok<{ id: string; slug: string }>(
        await staff.post('/api/v1/courses', { title: 'Paid thing', price: { amount: 900, currency: 'EUR' } }),
        201,
      );
      ok(await publishWithALesson(staff, made.id));
      const api = apiClient(server.url, await tokenFor(server, buyer, 'account:write account:read orders:read'));
      const refused = await api.post('/api/v1/account/orders', { item: { type: 'course', key: made.slug } });
      assert.equal(refused.status, 409);
      assert.match((refused.body as { error_description: string }).error_description, /does not take payments yet/);
      assert.deepEqual((await api.get<{ data: unknown[] }>('/api/v1/orders')).body.data, [], 'nothing half-written');
      const page = await new WebClient(server.url).get(`/courses/${made.slug}`);
      assert.match(page.text, /This school does not take payments yet/);
    });
  });
}
