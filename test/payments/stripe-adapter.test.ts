import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { connectDatabase, type Database } from '../../src/db/connect.ts';
import { ApiError } from '../../src/http/errors.ts';
import type { CheckoutRequest, PaymentProvider } from '../../src/payments/provider.ts';
import { apiAddress, stripeClient } from '../../src/payments/stripe/client.ts';
import { stripeProvider } from '../../src/payments/stripe/provider.ts';
import { engines, freshDatabaseUrl } from '../support/databases.ts';
import { type FakeStripe, startFakeStripe } from '../support/fake-stripe.ts';

const START = new Date('2026-05-04T10:00:00.000Z');

const oneTime: CheckoutRequest = {
  order: { id: 'ord_one', number: 1001, currency: 'EUR', subtotal: 5000, discount: 1000, total: 4000 },
  customer: { id: 'usr_1', email: 'ada@example.com', name: 'Ada' },
  lines: [
    { title: 'Algebra', amount: 2500 },
    { title: 'Geometry', amount: 1500 },
  ],
  successUrl: 'http://school.test/orders/ord_one/receipt',
  cancelUrl: 'http://school.test/checkout/review',
};

const monthly = (overrides: Partial<NonNullable<CheckoutRequest['recurring']>> = {}): CheckoutRequest => ({
  order: { id: 'ord_sub', number: 1002, currency: 'EUR', subtotal: 2000, discount: 500, total: 1500 },
  customer: { id: 'usr_2', email: 'grace@example.com', name: 'Grace' },
  lines: [{ title: 'Gold plan', amount: 1500 }],
  recurring: {
    planId: 'pln_gold',
    planName: 'Gold plan',
    priceId: 'ppr_gold_month',
    providerPriceId: null,
    interval: 'month',
    amount: 2000,
    trialDays: 14,
    ...overrides,
  },
  successUrl: 'http://school.test/orders/ord_sub/receipt',
  cancelUrl: 'http://school.test/checkout/review',
});

test('STRIPE_API_URL becomes the client options host, port and protocol', () => {
  assert.deepEqual(apiAddress(''), {});
  assert.deepEqual(apiAddress('http://127.0.0.1:12111'), { host: '127.0.0.1', port: 12111, protocol: 'http' });
  assert.deepEqual(apiAddress('https://stripe.internal'), { host: 'stripe.internal', port: 443, protocol: 'https' });
  assert.deepEqual(apiAddress('http://[::1]:8080/'), { host: '::1', port: 8080, protocol: 'http' });
});

for (const engine of engines) {
  describe(`the stripe provider against a stand-in of Stripe's API (${engine})`, () => {
    const now = START.getTime();
    let fake: FakeStripe;
    let database: Database;
    let provider: PaymentProvider;
    const saved: [string, string][] = [];
    const logged: string[] = [];

    before(async () => {
      fake = await startFakeStripe({ now: () => new Date(now) });
      database = connectDatabase(loadConfig({ DATABASE_URL: await freshDatabaseUrl(engine) }).database);
      await database.migrate();
      const at = START.toISOString();
      await database.db
        .insertInto('membership_plans')
        .values({
          id: 'pln_silver',
          name: 'Silver plan',
          slug: 'silver',
          description: '',
          benefits: '[]',
          visibility: 'public',
          status: 'active',
          archived_at: null,
          created_at: at,
          updated_at: at,
        })
        .execute();
      await database.db
        .insertInto('plan_prices')
        .values({
          id: 'ppr_silver_year',
          plan_id: 'pln_silver',
          amount: 12000,
          currency: 'EUR',
          interval: 'year',
          trial_days: 0,
          status: 'active',
          provider_price_id: null,
          archived_at: null,
          created_at: at,
        })
        .execute();
      provider = stripeProvider({
        stripe: await stripeClient({ STRIPE_SECRET_KEY: fake.secretKey, STRIPE_API_URL: fake.url }),
        db: database.db,
        savePriceId: async (priceId, providerPriceId) => {
          saved.push([priceId, providerPriceId]);
        },
        log: (message) => logged.push(message),
      });
    });
    after(async () => {
      await fake.close();
      await database.close();
    });

    test('a one-time order opens a payment Checkout Session of its lines as sold, keyed by the order', async () => {
      const started = await provider.startCheckout(oneTime);
      assert.match(started.reference, /^cs_test_/);
      assert.equal(started.url, `${fake.url}/c/pay/${started.reference}`);
      const [call] = fake.calls('POST', '/v1/checkout/sessions');
      assert.equal(call.idempotencyKey, 'lyceum-checkout-ord_one');
      assert.deepEqual(call.body, {
        customer_email: 'ada@example.com',
        client_reference_id: 'ord_one',
        metadata: { order_id: 'ord_one', order_number: '1001' },
        success_url: 'http://school.test/orders/ord_one/receipt',
        cancel_url: 'http://school.test/checkout/review',
        mode: 'payment',
        line_items: [
          { quantity: '1', price_data: { currency: 'eur', unit_amount: '2500', product_data: { name: 'Algebra' } } },
          { quantity: '1', price_data: { currency: 'eur', unit_amount: '1500', product_data: { name: 'Geometry' } } },
        ],
        payment_intent_data: { metadata: { order_id: 'ord_one', order_number: '1001' } },
      });
      assert.equal(fake.object(started.reference).amount_total, 4000);
      // Asking again for the same order (a double click) is the same session, not a second one.
      assert.deepEqual(await provider.startCheckout(oneTime), started);
      assert.equal(fake.calls('POST', '/v1/coupons').length, 0);
    });

    test('a plan price opens a subscription session with its trial and the first period discounted by a one-off coupon', async () => {
      const started = await provider.startCheckout(monthly());
      const [couponCall] = fake.calls('POST', '/v1/coupons');
      assert.equal(couponCall.idempotencyKey, 'lyceum-coupon-ord_sub');
      assert.deepEqual(couponCall.body, {
        duration: 'once',
        amount_off: '500',
        currency: 'eur',
        max_redemptions: '1',
        name: 'Order 1002',
        metadata: { order_id: 'ord_sub' },
      });
      const session = fake.calls('POST', '/v1/checkout/sessions').at(-1)!;
      assert.equal(session.idempotencyKey, 'lyceum-checkout-ord_sub');
      assert.deepEqual(session.body, {
        customer_email: 'grace@example.com',
        client_reference_id: 'ord_sub',
        metadata: { order_id: 'ord_sub', order_number: '1002' },
        success_url: 'http://school.test/orders/ord_sub/receipt',
        cancel_url: 'http://school.test/checkout/review',
        mode: 'subscription',
        line_items: [
          {
            quantity: '1',
            price_data: {
              currency: 'eur',
              unit_amount: '2000',
              recurring: { interval: 'month' },
              product_data: { name: 'Gold plan' },
            },
          },
        ],
        subscription_data: {
          trial_period_days: '14',
          metadata: { order_id: 'ord_sub', order_number: '1002', plan_id: 'pln_gold', price_id: 'ppr_gold_month' },
        },
        discounts: [{ coupon: session.body.discounts[0].coupon }],
      });
      assert.equal(fake.object(session.body.discounts[0].coupon).amount_off, 500);
      // Stripe shows the buyer the first period as the order charges it: the plan's price less the coupon, after the trial.
      assert.deepEqual(
        [fake.object(started.reference).amount_subtotal, fake.object(started.reference).discounts[0].coupon],
        [2000, session.body.discounts[0].coupon],
      );
    });

    test('a plan price Stripe already knows is named by its Stripe Price; no discount, no coupon', async () => {
      const price = fake.calls('POST', '/v1/checkout/sessions').length;
      const request = monthly({ providerPriceId: 'price_known', trialDays: 0 });
      request.order = { ...request.order, id: 'ord_known', discount: 0, total: 2000 };
      await assert.rejects(provider.startCheckout(request), (error: ApiError) => {
        // The stand-in knows no price_known: Stripe's refusal reaches the caller as one sentence, the log has Stripe's.
        assert.equal(error.code, 'service_unavailable');
        return true;
      });
      const call = fake.calls('POST', '/v1/checkout/sessions')[price];
      assert.deepEqual(call.body.line_items, [{ quantity: '1', price: 'price_known' }]);
      assert.equal(call.body.subscription_data.trial_period_days, undefined);
      assert.equal(call.body.discounts, undefined);
      assert.match(logged.at(-1) ?? '', /checkout of order ord_known/);
    });

    test("a refund names the PaymentIntent of the order, read from its session, keyed by the school's refund request", async () => {
      const checkout = await provider.startCheckout({ ...oneTime, order: { ...oneTime.order, id: 'ord_refund' } });
      fake.completeSession(checkout.reference);
      const intent = fake.object(checkout.reference).payment_intent;
      const refund = {
        orderId: 'ord_refund',
        checkoutRef: checkout.reference,
        amount: 1000,
        currency: 'EUR',
        requestId: 'rfd_first',
      };
      const before = fake.requests.length;
      const answered = await provider.refund(refund);
      assert.deepEqual(
        fake.requests.slice(before).map((r) => [r.method, r.path, r.query, r.body, r.idempotencyKey]),
        [
          ['GET', `/v1/checkout/sessions/${checkout.reference}`, { expand: ['invoice.payments'] }, {}, undefined],
          [
            'POST',
            '/v1/refunds',
            {},
            {
              payment_intent: intent,
              amount: '1000',
              metadata: { order_id: 'ord_refund', refund_request_id: 'rfd_first' },
            },
            'lyceum-refund-rfd_first',
          ],
        ],
      );
      const [made] = fake.find('refund', (r) => r.metadata.order_id === 'ord_refund');
      assert.equal(answered.reference, made.id);
      const charge = fake.object(fake.object(intent).latest_charge);
      assert.equal(charge.amount_refunded, 1000);
      // Another request of the same amount is a second refund …
      await provider.refund({ ...refund, requestId: 'rfd_second' });
      assert.equal(fake.calls('POST', '/v1/refunds').at(-1)?.idempotencyKey, 'lyceum-refund-rfd_second');
      assert.equal(fake.object(charge.id).amount_refunded, 2000);
      // … while one request asked twice at once (a retry racing its first try) is one.
      const third = { ...refund, requestId: 'rfd_third' };
      await Promise.all([provider.refund(third), provider.refund(third)]);
      assert.deepEqual(
        fake
          .calls('POST', '/v1/refunds')
          .slice(-2)
          .map((r) => r.idempotencyKey),
        ['lyceum-refund-rfd_third', 'lyceum-refund-rfd_third'],
      );
      assert.equal(fake.object(charge.id).amount_refunded, 3000);
    });

    test("a subscription order's refund finds the PaymentIntent that paid its first invoice", async () => {
      const request = monthly({ trialDays: 0 });
      request.order = { ...request.order, id: 'ord_subrefund' };
      const checkout = await provider.startCheckout(request);
      fake.completeSession(checkout.reference);
      const invoice = fake.object(fake.object(checkout.reference).invoice);
      assert.equal(invoice.amount_paid, 1500);
      await provider.refund({
        orderId: 'ord_subrefund',
        checkoutRef: checkout.reference,
        amount: 1500,
        currency: 'EUR',
        requestId: 'rfd_sub',
      });
      const refundCall = fake.calls('POST', '/v1/refunds').at(-1)!;
      const intent = fake.object(refundCall.body.payment_intent);
      assert.equal(intent.amount, 1500);
      assert.equal(fake.object(intent.latest_charge).amount_refunded, 1500);
      assert.equal(refundCall.idempotencyKey, 'lyceum-refund-rfd_sub');
    });

    test('an order that charged nothing (a trial) has nothing to refund', async () => {
      const request = monthly();
      request.order = { ...request.order, id: 'ord_trial', discount: 0, total: 2000 };
      const checkout = await provider.startCheckout(request);
      fake.completeSession(checkout.reference);
      await assert.rejects(
        provider.refund({
          orderId: 'ord_trial',
          checkoutRef: checkout.reference,
          amount: 100,
          currency: 'EUR',
          requestId: 'rfd_trial',
        }),
        (error: ApiError) => error instanceof ApiError && error.code === 'conflict',
      );
    });

    test('subscription changes are the documented updates of the subscription', async () => {
      const request = monthly({ trialDays: 0 });
      request.order = { ...request.order, id: 'ord_changes', discount: 0, total: 2000 };
      const checkout = await provider.startCheckout(request);
      fake.completeSession(checkout.reference);
      const sub = fake.object(checkout.reference).subscription;
      const path = `/v1/subscriptions/${sub}`;
      const last = () => fake.requests.at(-1)!;

      await provider.changeSubscription(sub, { kind: 'cancel', atPeriodEnd: true });
      assert.deepEqual([last().method, last().path, last().body], ['POST', path, { cancel_at_period_end: 'true' }]);
      await provider.changeSubscription(sub, { kind: 'pause' });
      assert.deepEqual([last().method, last().body], ['POST', { pause_collection: { behavior: 'void' } }]);
      assert.equal(fake.object(sub).pause_collection.behavior, 'void');
      await provider.changeSubscription(sub, { kind: 'resume' });
      assert.deepEqual([last().method, last().body], ['POST', { cancel_at_period_end: 'false', pause_collection: '' }]);
      assert.equal(fake.object(sub).pause_collection, null);
      assert.equal(fake.object(sub).cancel_at_period_end, false);

      const item = fake.object(sub).items.data[0].id;
      const before = fake.requests.length;
      await provider.changeSubscription(sub, {
        kind: 'change_price',
        price: { id: 'ppr_silver_year', providerPriceId: null, amount: 12000, currency: 'EUR' },
      });
      const made = fake.requests.slice(before);
      assert.deepEqual(
        made.map((r) => [r.method, r.path]),
        [
          ['GET', path],
          ['POST', '/v1/prices'],
          ['POST', path],
        ],
      );
      assert.equal(made[1].idempotencyKey, 'lyceum-price-ppr_silver_year');
      assert.deepEqual(made[1].body, {
        currency: 'eur',
        unit_amount: '12000',
        recurring: { interval: 'year' },
        product_data: { name: 'Silver plan' },
        metadata: { price_id: 'ppr_silver_year' },
      });
      const price = fake.object(sub).items.data[0].price.id;
      assert.deepEqual(saved, [['ppr_silver_year', price]]);
      assert.deepEqual(made[2].body, { items: [{ id: item, price }], proration_behavior: 'none' });

      await provider.changeSubscription(sub, {
        kind: 'change_price',
        price: { id: 'ppr_gold_month', providerPriceId: price, amount: 12000, currency: 'EUR' },
      });
      assert.equal(fake.calls('POST', '/v1/prices').length, 1, 'a price Stripe knows is not made again');

      await provider.changeSubscription(sub, { kind: 'cancel', atPeriodEnd: false });
      assert.deepEqual([last().method, last().path], ['DELETE', path]);
      assert.equal(fake.object(sub).status, 'canceled');
    });

    test("by default the Stripe Price made for a plan price is kept in the plan price's provider_price_id", async () => {
      const keeping = stripeProvider({
        stripe: await stripeClient({ STRIPE_SECRET_KEY: fake.secretKey, STRIPE_API_URL: fake.url }),
        db: database.db,
      });
      const request = monthly({ trialDays: 0 });
      request.order = { ...request.order, id: 'ord_keeps_price', discount: 0, total: 2000 };
      const checkout = await keeping.startCheckout(request);
      fake.completeSession(checkout.reference);
      const sub = fake.object(checkout.reference).subscription;
      await keeping.changeSubscription(sub, {
        kind: 'change_price',
        price: { id: 'ppr_silver_year', providerPriceId: null, amount: 12000, currency: 'EUR' },
      });
      const row = await database.db
        .selectFrom('plan_prices')
        .select('provider_price_id')
        .where('id', '=', 'ppr_silver_year')
        .executeTakeFirstOrThrow();
      assert.equal(row.provider_price_id, fake.object(sub).items.data[0].price.id);
    });

    test('a plan price that is not in the school cannot be made into a Stripe Price', async () => {
      const request = monthly({ trialDays: 0 });
      request.order = { ...request.order, id: 'ord_unknown_price', discount: 0, total: 2000 };
      const checkout = await provider.startCheckout(request);
      fake.completeSession(checkout.reference);
      const sub = fake.object(checkout.reference).subscription;
      await assert.rejects(
        provider.changeSubscription(sub, {
          kind: 'change_price',
          price: { id: 'ppr_nowhere', providerPriceId: null, amount: 100, currency: 'EUR' },
        }),
        (error: ApiError) => error.code === 'not_found',
      );
    });

    test('a wrong secret key is refused by Stripe and reported as the provider not taking the request', async () => {
      const wrong = stripeProvider({
        stripe: await stripeClient({ STRIPE_SECRET_KEY: 'sk_test_wrong', STRIPE_API_URL: fake.url }),
        db: database.db,
        savePriceId: async () => {},
        log: (message) => logged.push(message),
      });
      await assert.rejects(wrong.startCheckout(oneTime), (error: ApiError) => {
        assert.equal(error.status, 503);
        assert.equal(error.message, 'The payment provider could not take this request now; try again.');
        return true;
      });
    });
  });
}
