import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { connectDatabase, type Database } from '../../src/db/connect.ts';
import { installErrorHandlers } from '../../src/http/error-handler.ts';
import { requireRouteDeclarations } from '../../src/http/guard.ts';
import type { PaymentEvent, PaymentProvider } from '../../src/payments/provider.ts';
import { stripeClient } from '../../src/payments/stripe/client.ts';
import { stripeProvider } from '../../src/payments/stripe/provider.ts';
import { registerStripeWebhook, WEBHOOK_BODY_LIMIT } from '../../src/payments/stripe/webhook-route.ts';
import { engines, freshDatabaseUrl } from '../support/databases.ts';
import { deliver, type FakeStripe, type Obj, signed, startFakeStripe } from '../support/fake-stripe.ts';

const SECRET = 'whsec_test_school';
const START = new Date('2026-05-04T10:00:00.000Z');

for (const engine of engines) {
  describe(`POST /webhooks/stripe (${engine})`, () => {
    let now = START.getTime();
    const clock = { now: () => new Date(now) };
    let fake: FakeStripe;
    let database: Database;
    let app: FastifyInstance;
    let endpoint: string;
    let provider: PaymentProvider;
    /** What the sink was given, in order; the sink is the orders and subscriptions code, not this adapter's. */
    let applied: PaymentEvent[] = [];
    let sinkFails = false;

    before(async () => {
      fake = await startFakeStripe({ now: clock.now });
      database = connectDatabase(loadConfig({ DATABASE_URL: await freshDatabaseUrl(engine) }).database);
      await database.migrate();
      const stripe = await stripeClient({ STRIPE_SECRET_KEY: fake.secretKey, STRIPE_API_URL: fake.url });
      provider = stripeProvider({ stripe, db: database.db, savePriceId: async () => {} });
      app = Fastify();
      requireRouteDeclarations(app);
      installErrorHandlers(app, { pageContext: async () => undefined, renderErrorPage: () => '' });
      await registerStripeWebhook(app, {
        db: database.db,
        clock,
        config: { STRIPE_WEBHOOK_SECRET: SECRET },
        stripe,
        sink: async (_trx, event) => {
          if (sinkFails) throw new Error('the orders database said no');
          applied.push(event);
        },
      });
      endpoint = `${await app.listen({ port: 0, host: '127.0.0.1' })}/webhooks/stripe`;
    });
    after(async () => {
      await app.close();
      await fake.close();
      await database.close();
    });
    beforeEach(() => {
      applied = [];
      sinkFails = false;
    });

    const recorded = async () =>
      (await database.db.selectFrom('payment_events').selectAll().orderBy('event_id').execute()).map((r) => ({ ...r }));
    const paidOrder = async (orderId: string) => {
      const checkout = await provider.startCheckout({
        order: { id: orderId, number: 1, currency: 'EUR', subtotal: 3000, discount: 0, total: 3000 },
        customer: { id: 'usr_1', email: 'ada@example.com', name: 'Ada' },
        lines: [{ title: 'Algebra', amount: 3000 }],
        successUrl: 'http://school.test/receipt',
        cancelUrl: 'http://school.test/review',
      });
      return fake.completeSession(checkout.reference);
    };
    const post = (body: string, headers: Record<string, string>) =>
      fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

    test('an event without a signature is refused and nothing is recorded', async () => {
      const event = await paidOrder('ord_unsigned');
      const response = await post(JSON.stringify(event), {});
      assert.equal(response.status, 400);
      assert.deepEqual(await response.json(), {
        error: 'invalid_request',
        error_description: 'The Stripe-Signature header is missing: only events signed by Stripe are accepted.',
      });
      assert.deepEqual(await recorded(), []);
      assert.deepEqual(applied, []);
    });

    test('a wrong signature, a changed body or a stale signature is refused and nothing is recorded', async () => {
      const event = await paidOrder('ord_forged');
      const refusal = {
        error: 'invalid_request',
        error_description:
          "The Stripe-Signature header does not match this body and the endpoint's signing secret, or was not made within 5 minutes of now.",
      };
      const forged = signed(event, 'whsec_someone_else', clock.now());
      const other = await post(forged.body, { 'stripe-signature': forged.signature });
      assert.equal(other.status, 400);
      assert.deepEqual(await other.json(), refusal);

      const genuine = signed(event, SECRET, clock.now());
      const changed = genuine.body.replace('"amount_total": 3000', '"amount_total": 1');
      assert.notEqual(changed, genuine.body);
      const tampered = await post(changed, { 'stripe-signature': genuine.signature });
      assert.equal(tampered.status, 400);
      assert.deepEqual(await tampered.json(), refusal);

      // Signed 10 minutes before it arrives: past the library's 5-minute tolerance, a replay of an old capture.
      const old = signed(event, SECRET, new Date(now - 10 * 60_000));
      const stale = await post(old.body, { 'stripe-signature': old.signature });
      assert.equal(stale.status, 400);

      assert.deepEqual(await recorded(), []);
      assert.deepEqual(applied, []);
    });

    test("Stripe's tolerance holds both ways: a signature dated more than 5 minutes ahead is refused too", async () => {
      const event = await paidOrder('ord_future');
      const at = async (offsetMs: number) => {
        const { body, signature } = signed(event, SECRET, new Date(now + offsetMs));
        const response = await post(body, { 'stripe-signature': signature });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      // A delivery is signed as it is sent, so one dated later than now can only have been made with the secret for
      // use later (or by a clock far off): a year, an hour, 5 minutes and a second ahead are refused and apply nothing.
      for (const ahead of [365 * 86_400_000, 3_600_000, 301_000]) {
        const refused = await at(ahead);
        assert.equal(refused.status, 400, `${ahead} ms ahead`);
        assert.equal(refused.body.error, 'invalid_request');
        assert.match(String(refused.body.error_description), /within 5 minutes/);
      }
      assert.deepEqual(await recorded(), []);
      assert.deepEqual(applied, []);
      // Within the tolerance either way (clocks differ a little) it is accepted, once.
      assert.equal((await at(299_000)).status, 200);
      assert.equal((await at(-299_000)).status, 200);
      assert.equal(applied.length, 1);
    });

    test('a signed event is applied and recorded; sent again it is answered and not applied again', async () => {
      const event = await paidOrder('ord_signed');
      const first = await deliver(endpoint, event, SECRET, clock.now());
      assert.deepEqual(first, { status: 200, body: { received: true, applied: true } });
      assert.deepEqual(
        applied.map((e) => [e.kind, 'orderId' in e ? e.orderId : null]),
        [['checkout_paid', 'ord_signed']],
      );
      assert.deepEqual(
        (await recorded()).filter((r) => r.event_id === event.id),
        [
          {
            provider: 'stripe',
            event_id: event.id,
            type: 'checkout.session.completed',
            received_at: START.toISOString(),
          },
        ],
      );
      const lookupsBefore = fake.requests.length;
      now += 60_000;
      for (let i = 0; i < 3; i++)
        assert.deepEqual(await deliver(endpoint, event, SECRET, clock.now()), {
          status: 200,
          body: { received: true, applied: false },
        });
      assert.equal(applied.length, 1);
      assert.equal(fake.requests.length, lookupsBefore, 'a re-sent event asks Stripe nothing');
    });

    test('ten copies delivered at once are applied once', async () => {
      const checkout = await provider.startCheckout({
        order: { id: 'ord_ten', number: 2, currency: 'EUR', subtotal: 100, discount: 0, total: 100 },
        customer: { id: 'usr_1', email: 'ada@example.com', name: 'Ada' },
        lines: [{ title: 'Algebra', amount: 100 }],
        successUrl: 'http://school.test/receipt',
        cancelUrl: 'http://school.test/review',
      });
      const event = fake.completeSession(checkout.reference);
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => deliver(endpoint, event, SECRET, clock.now())),
      );
      assert.deepEqual(
        answers.map((a) => a.status),
        Array(10).fill(200),
      );
      assert.equal(answers.filter((a) => a.body.applied).length, 1);
      assert.equal(applied.length, 1);
      assert.equal((await recorded()).filter((r) => r.event_id === event.id).length, 1);
    });

    test('an event the school does not act on is answered 200 and recorded, nothing else', async () => {
      const event: Obj = {
        id: 'evt_other_type',
        object: 'event',
        api_version: '2026-10-28.endive',
        created: Math.floor(now / 1000),
        data: { object: { id: 'prod_1', object: 'product', name: 'Algebra' } },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type: 'product.created',
      };
      assert.deepEqual(await deliver(endpoint, event, SECRET, clock.now()), {
        status: 200,
        body: { received: true, applied: true },
      });
      assert.deepEqual(applied, []);
      assert.deepEqual(
        (await recorded()).filter((r) => r.event_id === 'evt_other_type').map((r) => r.type),
        ['product.created'],
      );
    });

    test('when the school cannot apply an event it answers 500 and records nothing, so Stripe sends it again', async () => {
      const event = await paidOrder('ord_retry');
      sinkFails = true;
      const failed = await deliver(endpoint, event, SECRET, clock.now());
      assert.equal(failed.status, 500);
      assert.equal(failed.body.error, 'server_error');
      assert.equal((await recorded()).filter((r) => r.event_id === event.id).length, 0);
      sinkFails = false;
      assert.deepEqual((await deliver(endpoint, event, SECRET, clock.now())).body, { received: true, applied: true });
      assert.equal(applied.length, 1);
    });

    test('a body over the limit is refused before anything reads it', async () => {
      const response = await post('x'.repeat(WEBHOOK_BODY_LIMIT + 1), { 'stripe-signature': 't=1,v1=00' });
      assert.equal(response.status, 413);
      assert.equal(((await response.json()) as Obj).error, 'payload_too_large');
    });
  });
}
