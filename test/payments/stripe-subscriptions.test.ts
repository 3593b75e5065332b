import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiClient, createUser, listAll, type Person, schoolWithPeople, tokenFor } from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { deliver, type FakeStripe, type Obj, startFakeStripe } from '../support/fake-stripe.ts';
import { courseWithLesson, ok, opens, planWithPrice, type Subscription } from '../support/memberships.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const SECRET = 'whsec_school_endpoint';
const DAY_MS = 86_400_000;
const STAFF =
  'subscriptions:read subscriptions:write membership_plans:read membership_plans:write courses:read courses:write curriculum:read curriculum:write orders:read';
const BUYER = 'subscriptions:read curriculum:read orders:read account:read account:write';

for (const engine of engines) {
  describe(`a plan bought through Stripe: its subscription follows Stripe's events (${engine})`, () => {
    // The server's, Stripe's and the signatures' clock, moved by hand.
    let skew = 0;
    const clock = { now: () => new Date(Date.now() + skew) };
    let fake: FakeStripe;
    let server: TestServer;
    let staffPerson: Person;

    before(async () => {
      fake = await startFakeStripe({ now: clock.now });
      server = await startTestServer(
        engine,
        {
          PAYMENTS_PROVIDER: 'stripe',
          STRIPE_SECRET_KEY: fake.secretKey,
          STRIPE_WEBHOOK_SECRET: SECRET,
          STRIPE_API_URL: fake.url,
          JOBS_POLL_MS: '60000',
        },
        { clock },
      );
      staffPerson = (await schoolWithPeople(server)).staff;
    });
    after(async () => {
      await server.close();
      await fake.close();
    });

    /** Tokens are dated by the server's clock: one is made after each move. */
    const staff = async () => apiClient(server.url, await tokenFor(server, staffPerson, STAFF));
    const send = async (event: Obj) => {
      const answer = await deliver(`${server.url}/webhooks/stripe`, event, SECRET, clock.now());
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body;
    };

    test('trial → paid renewal → an older state arriving late is ignored → past due → canceled in Stripe closes the course', async () => {
      const course = await courseWithLesson(await staff());
      const { price } = await planWithPrice(
        await staff(),
        { name: 'Stripe Gold', course_ids: [course.id] },
        { amount: 1200, currency: 'EUR', interval: 'month', trial_days: 7 },
      );
      const buyer = await createUser(server, 'student');
      const own = async () => apiClient(server.url, await tokenFor(server, buyer, BUYER));
      const started = ok<{ order: { id: string }; payment_url: string }>(
        await (await own()).post('/api/v1/account/orders', { item: { type: 'plan', key: price.id } }),
        201,
      );
      const [session] = fake.find('checkout.session', (s) => s.client_reference_id === started.order.id);
      assert.equal(started.payment_url, session.url);
      const asked = fake.calls('POST', '/v1/checkout/sessions').at(-1)!.body;
      assert.equal(asked.mode, 'subscription');
      assert.equal(asked.subscription_data.trial_period_days, '7');
      assert.equal(asked.subscription_data.metadata.price_id, price.id);

      await send(fake.completeSession(session.id));
      const stripeSub = fake.object(session.id).subscription;
      const [sub] = (await listAll<Subscription>(await staff(), '/api/v1/subscriptions')).filter(
        (s) => s.order_id === started.order.id,
      );
      assert.deepEqual([sub?.status, sub?.provider], ['trialing', 'stripe']);
      assert.equal(sub?.trial_end, new Date(fake.object(stripeSub).trial_end * 1000).toISOString());
      assert.equal(await opens(await own(), course.lessonId), true, 'the trial opens the plan’s course');
      const trialing = fake.eventAbout('customer.subscription.updated', stripeSub);

      // The trial ends; Stripe charges the first period and reports the subscription active, then the invoice paid.
      skew += 7 * DAY_MS + 60_000;
      const renewed = fake.renew(stripeSub, { paid: true });
      await send(renewed.subscription);
      await send(renewed.invoice);
      const get = async () => ok<Subscription>(await (await staff()).get(`/api/v1/subscriptions/${sub?.id}`));
      assert.equal((await get()).status, 'active');
      const orders = await listAll<{ id: string; kind: string; total: { amount: number }; status: string }>(
        await staff(),
        `/api/v1/orders?user_id=${buyer.id}`,
      );
      assert.deepEqual(orders.map((o) => [o.kind, o.total.amount, o.status]).sort(), [
        ['purchase', 0, 'paid'],
        ['renewal', 1200, 'paid'],
      ]);
      // The trial's state, delivered late (Stripe does not promise order): older than the one applied, it is ignored.
      assert.deepEqual(await send(trialing), { received: true, applied: true });
      assert.equal((await get()).status, 'active');

      skew += 30 * DAY_MS;
      const failed = fake.renew(stripeSub, { paid: false });
      await send(failed.invoice);
      await send(failed.subscription);
      assert.equal((await get()).status, 'past_due');
      assert.equal(await opens(await own(), course.lessonId), true, 'past due keeps the course through the grace days');

      // Staff cancel now: Stripe is asked first, then its event confirms it.
      ok(await (await staff()).post(`/api/v1/subscriptions/${sub?.id}/cancel`, { at_period_end: false }));
      assert.deepEqual(
        fake.calls('DELETE', `/v1/subscriptions/${stripeSub}`).map((r) => r.path),
        [`/v1/subscriptions/${stripeSub}`],
      );
      await send(fake.eventAbout('customer.subscription.deleted', stripeSub));
      assert.equal((await get()).status, 'canceled');
      assert.equal(await opens(await own(), course.lessonId), false);
    });
  });
}
