import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Stripe from 'stripe';
import { apiClient, listAll, type Person, schoolWithPeople, tokenFor } from '../support/api.ts';
import { publishWithALesson } from '../support/course-content.ts';
import { engines } from '../support/databases.ts';
import { deliver, type FakeStripe, type Obj, signed, startFakeStripe } from '../support/fake-stripe.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { csrfOf, WebClient } from '../support/web-client.ts';

type Client = ReturnType<typeof apiClient>;
type Money = { amount: number; currency: string };
type Order = {
  id: string;
  status: string;
  provider: string;
  total: Money;
  refunded_amount: Money;
  paid_at: string | null;
};
type Started = { order: Order; payment_url: string | null };

const SECRET = 'whsec_school_endpoint';
const STAFF_SCOPES = 'orders:read courses:read courses:write curriculum:write students:read';
const BUYER_SCOPES = 'orders:read account:read account:write';

const ok = <T>(response: { status: number; body: unknown }, status = 200) => {
  assert.equal(response.status, status, JSON.stringify(response.body));
  return response.body as T;
};

for (const engine of engines) {
  describe(`buying through Stripe: checkout, the signed webhook, refunds (${engine})`, () => {
    const clock = { now: () => new Date() };
    let fake: FakeStripe;
    let server: TestServer;
    let endpoint: string;
    let staff: Client;
    let staffPerson: Person;
    let buyer: Person;
    let buyerApi: Client;
    /** Stripe's dashboard: a refund made there, not through the school. */
    let dashboard: Stripe;

    before(async () => {
      fake = await startFakeStripe({ now: () => clock.now() });
      server = await startTestServer(
        engine,
        {
          PAYMENTS_PROVIDER: 'stripe',
          STRIPE_SECRET_KEY: fake.secretKey,
          STRIPE_WEBHOOK_SECRET: SECRET,
          STRIPE_API_URL: fake.url,
        },
        { clock },
      );
      endpoint = `${server.url}/webhooks/stripe`;
      const people = await schoolWithPeople(server);
      staffPerson = people.staff;
      buyer = people.student;
      staff = apiClient(server.url, await tokenFor(server, staffPerson, STAFF_SCOPES));
      buyerApi = apiClient(server.url, await tokenFor(server, buyer, BUYER_SCOPES));
      dashboard = new Stripe(fake.secretKey, { host: '127.0.0.1', port: new URL(fake.url).port, protocol: 'http' });
    });
    after(async () => {
      await server.close();
      await fake.close();
    });

    const paidCourse = async (amount: number) => {
      const made = ok<{ id: string; slug: string; title: string }>(
        await staff.post('/api/v1/courses', {
          title: `Course ${Math.random().toString(36).slice(2, 8)}`,
          price: { amount, currency: 'EUR' },
        }),
        201,
      );
      ok(await publishWithALesson(staff, made.id));
      return made;
    };
    const enrollmentOf = async (courseId: string) =>
      (
        await listAll<{ id: string; course_id: string; status: string; source: string }>(
          staff,
          `/api/v1/students/${buyer.id}/enrollments`,
        )
      ).find((e) => e.course_id === courseId);
    const orderOf = async (id: string) => ok<Order>(await staff.get(`/api/v1/orders/${id}`));
    /** The buyer checks out through the API, and is sent to Stripe's page for the session made for the order. */
    const checkout = async (amount: number) => {
      const course = await paidCourse(amount);
      const started = ok<Started>(
        await buyerApi.post('/api/v1/account/orders', { item: { type: 'course', key: course.slug } }),
        201,
      );
      const [session] = fake.find('checkout.session', (s) => s.client_reference_id === started.order.id);
      assert.ok(session, 'a Checkout Session was made for the order');
      return { course, order: started.order, paymentUrl: started.payment_url, session: session.id as string };
    };
    const ledger = (orderId: string) =>
      server.database.db
        .selectFrom('payments')
        .select(['kind', 'amount', 'provider_ref'])
        .where('order_id', '=', orderId)
        .orderBy('created_at')
        .orderBy('kind')
        .execute()
        .then((rows) => rows.map((r) => ({ ...r })));
    const applied = async (eventId: string) =>
      (
        await server.database.db.selectFrom('payment_events').select('type').where('event_id', '=', eventId).execute()
      ).map((r) => ({ ...r }));
    const send = async (event: Obj) => {
      const answer = await deliver(endpoint, event, SECRET, clock.now());
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body;
    };

    test('a paid course: the buyer goes to Stripe, the signed checkout.session.completed makes the order paid and enrolls them', async () => {
      const bought = await checkout(4900);
      assert.equal(bought.order.status, 'pending');
      assert.equal(bought.order.provider, 'stripe');
      assert.equal(bought.paymentUrl, `${fake.url}/c/pay/${bought.session}`);
      const session = fake.object(bought.session);
      assert.equal(session.amount_total, 4900);
      assert.equal(session.customer_email, buyer.email);
      assert.equal(session.metadata.order_id, bought.order.id);
      assert.equal(await enrollmentOf(bought.course.id), undefined, 'nothing is granted before Stripe says so');

      const event = fake.completeSession(bought.session);
      assert.deepEqual(await send(event), { received: true, applied: true });
      const order = await orderOf(bought.order.id);
      assert.equal(order.status, 'paid');
      assert.ok(order.paid_at);
      const enrollment = await enrollmentOf(bought.course.id);
      assert.deepEqual([enrollment?.status, enrollment?.source], ['active', 'order']);
      assert.deepEqual(await ledger(bought.order.id), [
        { kind: 'charge', amount: 4900, provider_ref: fake.object(bought.session).payment_intent },
      ]);
    });

    test('the same event re-sent three times and ten times at once is one payment', async () => {
      const bought = await checkout(2500);
      const event = fake.completeSession(bought.session);
      assert.equal((await send(event)).applied, true);
      for (let i = 0; i < 3; i++) assert.equal((await send(event)).applied, false);
      const other = await checkout(1500);
      const burst = fake.completeSession(other.session);
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => deliver(endpoint, burst, SECRET, clock.now())),
      );
      assert.deepEqual(
        answers.map((a) => a.status),
        Array(10).fill(200),
      );
      assert.equal(answers.filter((a) => a.body.applied).length, 1);
      for (const [bought2, id] of [
        [bought, event.id],
        [other, burst.id],
      ] as const) {
        assert.equal((await orderOf(bought2.order.id)).status, 'paid');
        assert.equal((await ledger(bought2.order.id)).length, 1, 'one charge in the ledger');
        assert.deepEqual(await applied(id), [{ type: 'checkout.session.completed' }]);
      }
    });

    test('a forged or unsigned event changes nothing', async () => {
      const bought = await checkout(900);
      const event = fake.completeSession(bought.session);
      const forged = signed(event, 'whsec_not_the_school', clock.now());
      const refused = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': forged.signature },
        body: forged.body,
      });
      assert.equal(refused.status, 400);
      assert.equal(((await refused.json()) as Obj).error, 'invalid_request');
      const unsigned = await fetch(endpoint, { method: 'POST', body: forged.body });
      assert.equal(unsigned.status, 400);
      assert.equal((await orderOf(bought.order.id)).status, 'pending');
      assert.deepEqual(await applied(event.id), []);
    });

    test('staff refund part then the rest: Stripe is asked, and each refund applies when its charge.refunded arrives', async () => {
      const bought = await checkout(3000);
      await send(fake.completeSession(bought.session));
      const staffWeb = new WebClient(server.url);
      await staffWeb.submit('/signin', '/signin', { email: staffPerson.email, password: staffPerson.password });
      const page = await staffWeb.get(`/orders/${bought.order.id}`);
      const intent = fake.object(bought.session).payment_intent;

      const part = await staffWeb.postForm(`/orders/${bought.order.id}/refund`, {
        _csrf: csrfOf(page.text),
        amount: '1000',
      });
      assert.equal(part.status, 303);
      const [asked] = fake.calls('POST', '/v1/refunds').filter((r) => r.body.payment_intent === intent);
      assert.deepEqual(
        { ...asked.body, metadata: { ...asked.body.metadata, refund_request_id: '' } },
        { payment_intent: intent, amount: '1000', metadata: { order_id: bought.order.id, refund_request_id: '' } },
      );
      assert.match(
        asked.body.metadata.refund_request_id,
        /^rfd_/,
        "the school's refund request, which its webhook names",
      );
      assert.equal((await orderOf(bought.order.id)).status, 'paid', 'applied when Stripe reports it, not before');
      const [first] = fake.find('refund', (r) => r.payment_intent === intent);
      const firstEvent = fake.refundedEvent(first.id);
      await send(firstEvent);
      let order = await orderOf(bought.order.id);
      assert.deepEqual([order.status, order.refunded_amount.amount], ['partially_refunded', 1000]);
      assert.equal((await enrollmentOf(bought.course.id))?.status, 'active', 'a partial refund leaves the access');

      await staffWeb.postForm(`/orders/${bought.order.id}/refund`, { _csrf: csrfOf(page.text), amount: '' });
      const second = fake.find('refund', (r) => r.payment_intent === intent)[1];
      assert.equal(second.amount, 2000);
      await send(fake.refundedEvent(second.id));
      order = await orderOf(bought.order.id);
      assert.deepEqual([order.status, order.refunded_amount.amount], ['refunded', 3000]);
      assert.equal((await enrollmentOf(bought.course.id))?.status, 'revoked', 'a full refund takes the access back');
      // The first refund's event delivered again, late: cumulative amounts cannot count twice.
      await send({ ...firstEvent, id: `${firstEvent.id}_copy` });
      assert.deepEqual(
        (await ledger(bought.order.id)).map((r) => [r.kind, r.amount, r.provider_ref]),
        [
          ['charge', 3000, intent],
          ['refund', 1000, first.id],
          ['refund', 2000, second.id],
        ],
      );
    });

    test("a refund made in Stripe's dashboard and reported before the payment itself: paid, then refunded, then the late payment changes nothing", async () => {
      const bought = await checkout(2000);
      const paid = fake.completeSession(bought.session);
      const refund = await dashboard.refunds.create({ payment_intent: fake.object(bought.session).payment_intent });
      await send(fake.refundedEvent(refund.id));
      let order = await orderOf(bought.order.id);
      assert.deepEqual([order.status, order.refunded_amount.amount], ['refunded', 2000]);
      assert.equal((await enrollmentOf(bought.course.id))?.status, 'revoked');
      assert.deepEqual(await send(paid), { received: true, applied: true });
      order = await orderOf(bought.order.id);
      assert.equal(order.status, 'refunded', 'the late payment does not reopen a refunded order');
      assert.equal((await enrollmentOf(bought.course.id))?.status, 'revoked');
      assert.deepEqual(
        (await ledger(bought.order.id)).map((r) => [r.kind, r.amount]),
        [
          ['charge', 2000],
          ['refund', 2000],
        ],
      );
    });

    test('a failed delayed payment fails the order and an abandoned session cancels it; neither grants anything', async () => {
      const declined = await checkout(1200);
      await send(fake.eventAbout('checkout.session.async_payment_failed', declined.session));
      const failed = await orderOf(declined.order.id);
      assert.equal(failed.status, 'failed');
      const abandoned = await checkout(1300);
      await send(fake.eventAbout('checkout.session.expired', abandoned.session));
      assert.equal((await orderOf(abandoned.order.id)).status, 'canceled');
      assert.equal(await enrollmentOf(declined.course.id), undefined);
      assert.equal(await enrollmentOf(abandoned.course.id), undefined);
    });
  });
}
