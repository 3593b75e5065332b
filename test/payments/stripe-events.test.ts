import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type Stripe from 'stripe';
import type { CheckoutRequest, PaymentProvider, ProviderSubscriptionState } from '../../src/payments/provider.ts';
import { stripeClient } from '../../src/payments/stripe/client.ts';
import { toPaymentEvents } from '../../src/payments/stripe/events.ts';
import { stripeLookups } from '../../src/payments/stripe/lookups.ts';
import { stripeProvider } from '../../src/payments/stripe/provider.ts';
import { type FakeStripe, type Obj, startFakeStripe } from '../support/fake-stripe.ts';

const START = new Date('2026-05-04T10:00:00.000Z');
const DAY_MS = 86_400_000;

describe("Stripe's events in the school's terms (toPaymentEvents)", () => {
  let now = START.getTime();
  let fake: FakeStripe;
  let stripe: Stripe;
  let provider: PaymentProvider;
  const translate = (event: Obj) => toPaymentEvents(event as Stripe.Event, stripeLookups(stripe));
  const iso = (ms: number) => new Date(ms).toISOString();

  before(async () => {
    fake = await startFakeStripe({ now: () => new Date(now) });
    stripe = await stripeClient({ STRIPE_SECRET_KEY: fake.secretKey, STRIPE_API_URL: fake.url });
    // The stand-in holds no school data: a plan price without a Stripe Price is never changed here.
    provider = stripeProvider({ stripe, db: undefined as never, savePriceId: async () => {} });
  });
  after(() => fake.close());

  const course = (orderId: string, total = 3000): CheckoutRequest => ({
    order: { id: orderId, number: 7, currency: 'EUR', subtotal: total, discount: 0, total },
    customer: { id: 'usr_1', email: 'ada@example.com', name: 'Ada' },
    lines: [{ title: 'Algebra', amount: total }],
    successUrl: 'http://school.test/receipt',
    cancelUrl: 'http://school.test/review',
  });
  const plan = (orderId: string, trialDays: number): CheckoutRequest => ({
    ...course(orderId, 2000),
    recurring: {
      planId: 'pln_gold',
      planName: 'Gold',
      priceId: 'ppr_gold',
      providerPriceId: null,
      interval: 'month',
      amount: 2000,
      trialDays,
    },
  });
  const checkout = async (request: CheckoutRequest) => (await provider.startCheckout(request)).reference;

  test('a paid one-time checkout is checkout_paid with its PaymentIntent as the payment', async () => {
    const session = await checkout(course('ord_course'));
    const event = fake.completeSession(session);
    const intent = fake.object(session).payment_intent;
    assert.deepEqual(await translate(event), [
      {
        kind: 'checkout_paid',
        orderId: 'ord_course',
        checkoutRef: session,
        paymentRef: intent,
        amount: 3000,
        currency: 'EUR',
        at: START.toISOString(),
      },
    ]);
  });

  test("a subscription checkout with a trial charges nothing and carries the subscription's state, read from Stripe", async () => {
    const session = await checkout(plan('ord_trial', 14));
    const event = fake.completeSession(session);
    const sub = fake.object(session).subscription;
    const reads = fake.calls('GET', `/v1/subscriptions/${sub}`).length;
    const price = fake.object(sub).items.data[0].price.id;
    assert.deepEqual(await translate(event), [
      {
        kind: 'checkout_paid',
        orderId: 'ord_trial',
        checkoutRef: session,
        paymentRef: null,
        amount: 0,
        currency: 'EUR',
        at: START.toISOString(),
        subscription: {
          reference: sub,
          status: 'trialing',
          currentPeriodStart: START.toISOString(),
          currentPeriodEnd: iso(START.getTime() + 14 * DAY_MS),
          cancelAtPeriodEnd: false,
          trialEnd: iso(START.getTime() + 14 * DAY_MS),
          providerPriceId: price,
          at: START.toISOString(),
        },
      },
    ]);
    assert.equal(fake.calls('GET', `/v1/subscriptions/${sub}`).length, reads + 1);
  });

  test("a paid subscription checkout names the subscription's first invoice as the payment", async () => {
    const session = await checkout(plan('ord_plan', 0));
    const [paid] = await translate(fake.completeSession(session));
    assert.equal(paid.kind, 'checkout_paid');
    if (paid.kind !== 'checkout_paid') return;
    assert.equal(paid.paymentRef, fake.object(session).invoice);
    assert.equal(paid.amount, 2000);
    assert.equal(paid.subscription?.status, 'active');
  });

  test('a delayed payment: completed unpaid is nothing yet; then it succeeds, or fails; a session can expire', async () => {
    const session = await checkout(course('ord_debit'));
    fake.completeSession(session);
    fake.update(session, { payment_status: 'unpaid' });
    assert.deepEqual(await translate(fake.eventAbout('checkout.session.completed', session)), []);
    fake.update(session, { payment_status: 'paid' });
    const [succeeded] = await translate(fake.eventAbout('checkout.session.async_payment_succeeded', session));
    assert.equal(succeeded.kind, 'checkout_paid');
    now += 1000;
    assert.deepEqual(await translate(fake.eventAbout('checkout.session.async_payment_failed', session)), [
      {
        kind: 'checkout_failed',
        orderId: 'ord_debit',
        checkoutRef: session,
        reason: 'The payment did not go through.',
        at: iso(now),
      },
    ]);
    const abandoned = await checkout(course('ord_abandoned'));
    assert.deepEqual(await translate(fake.eventAbout('checkout.session.expired', abandoned)), [
      { kind: 'checkout_expired', orderId: 'ord_abandoned', checkoutRef: abandoned, at: iso(now) },
    ]);
  });

  test('charge.refunded reports each refund of the charge by its own id and amount, oldest first', async () => {
    const session = await checkout(course('ord_refunds'));
    fake.completeSession(session);
    const ask = { orderId: 'ord_refunds', checkoutRef: session, currency: 'EUR' };
    await provider.refund({ ...ask, amount: 1000, requestId: 'rfd_one' });
    const [first] = fake.find('refund', (r) => r.metadata.order_id === 'ord_refunds');
    const late = fake.refundedEvent(first.id);
    // The second refund in the same second as the first: only Stripe's list order tells them apart.
    await provider.refund({ ...ask, amount: 500, requestId: 'rfd_two' });
    const second = fake.find('refund', (r) => r.metadata.order_id === 'ord_refunds')[1];
    const latest = fake.refundedEvent(second.id);
    // The charge names no order: it is found on the PaymentIntent, read from Stripe.
    const intent = fake.object(session).payment_intent;
    const report = (id: string, amount: number, requestId: string) => ({
      kind: 'refunded',
      orderId: 'ord_refunds',
      refundRef: id,
      amount,
      currency: 'EUR',
      requestId,
      at: iso(now),
    });
    assert.deepEqual(await translate(latest), [report(first.id, 1000, 'rfd_one'), report(second.id, 500, 'rfd_two')]);
    assert.ok(fake.calls('GET', `/v1/payment_intents/${intent}`).length > 0);
    // The first refund's event arriving after the second names every refund Stripe lists now: the ledger records each
    // once by its id, so nothing counts twice (the webhook test shows it).
    assert.deepEqual(await translate(late), [report(first.id, 1000, 'rfd_one'), report(second.id, 500, 'rfd_two')]);
  });

  test("a subscription's first charge refunded is its order's refund; a renewal's charge names no order", async () => {
    const session = await checkout(plan('ord_sub_refund', 0));
    fake.completeSession(session);
    await provider.refund({
      orderId: 'ord_sub_refund',
      checkoutRef: session,
      amount: 2000,
      currency: 'EUR',
      requestId: 'rfd_sub',
    });
    const [refund] = fake.find('refund', (r) => r.metadata.order_id === 'ord_sub_refund');
    const [event] = await translate(fake.refundedEvent(refund.id));
    assert.deepEqual(event && event.kind === 'refunded' && [event.orderId, event.amount], ['ord_sub_refund', 2000]);

    const sub = fake.object(session).subscription;
    now += 30 * DAY_MS;
    fake.renew(sub, { paid: true });
    const renewal = fake.object(fake.object(sub).latest_invoice);
    const payment = fake.find('invoice_payment', (p) => p.invoice === renewal.id)[0];
    const renewalRefund = await stripe.refunds.create({ payment_intent: payment.payment.payment_intent });
    assert.deepEqual(await translate(fake.refundedEvent(renewalRefund.id)), []);
  });

  test("subscription events are its state in the school's words, dated when Stripe sent them", async () => {
    const session = await checkout(plan('ord_states', 0));
    fake.completeSession(session);
    const sub = fake.object(session).subscription;
    const stateOf = async (type: string): Promise<ProviderSubscriptionState | undefined> => {
      const events = await translate(fake.eventAbout(type, sub));
      assert.ok(events.every((e) => e.kind === 'subscription_state'));
      return events[0]?.kind === 'subscription_state' ? events[0].state : undefined;
    };
    now += 1000;
    const created = await stateOf('customer.subscription.created');
    assert.equal(created?.status, 'active');
    assert.equal(created?.at, iso(now));

    await provider.changeSubscription(sub, { kind: 'cancel', atPeriodEnd: true });
    assert.equal((await stateOf('customer.subscription.updated'))?.cancelAtPeriodEnd, true);
    await provider.changeSubscription(sub, { kind: 'pause' });
    assert.equal((await stateOf('customer.subscription.updated'))?.status, 'paused', 'collection paused');
    await provider.changeSubscription(sub, { kind: 'resume' });
    assert.equal((await stateOf('customer.subscription.updated'))?.status, 'active');
    const expected = { past_due: 'past_due', paused: 'paused', unpaid: 'canceled', incomplete_expired: 'canceled' };
    for (const [stripeStatus, schoolStatus] of Object.entries(expected)) {
      fake.update(sub, { status: stripeStatus });
      assert.equal((await stateOf('customer.subscription.updated'))?.status, schoolStatus, stripeStatus);
    }
    fake.update(sub, { status: 'incomplete' });
    assert.equal(await stateOf('customer.subscription.updated'), undefined, 'incomplete is no state of the school');
    fake.update(sub, { status: 'active' });
    await provider.changeSubscription(sub, { kind: 'cancel', atPeriodEnd: false });
    assert.equal((await stateOf('customer.subscription.deleted'))?.status, 'canceled');
  });

  test('a renewal paid is renewal_paid for the period it pays; a renewal failed is renewal_failed; the first invoice is neither', async () => {
    const session = await checkout(plan('ord_renewals', 0));
    fake.completeSession(session);
    const sub = fake.object(session).subscription;
    const first = fake.object(session).invoice;
    assert.deepEqual(await translate(fake.eventAbout('invoice.paid', first)), []);
    assert.deepEqual(await translate(fake.eventAbout('invoice.payment_failed', first)), []);

    const periodEnd = fake.object(sub).items.data[0].current_period_end * 1000;
    now = periodEnd + 60_000;
    const paid = fake.renew(sub, { paid: true });
    assert.deepEqual(await translate(paid.invoice), [
      {
        kind: 'renewal_paid',
        subscriptionRef: sub,
        invoiceRef: paid.invoice.data.object.id,
        amount: 2000,
        currency: 'EUR',
        periodStart: iso(periodEnd),
        periodEnd: iso(periodEnd + 30 * DAY_MS),
        at: iso(now),
      },
    ]);
    now += 30 * DAY_MS;
    const failed = fake.renew(sub, { paid: false });
    assert.deepEqual(await translate(failed.invoice), [
      { kind: 'renewal_failed', subscriptionRef: sub, invoiceRef: failed.invoice.data.object.id, at: iso(now) },
    ]);
    const [state] = await translate(failed.subscription);
    assert.equal(state?.kind === 'subscription_state' && state.state.status, 'past_due');
  });

  test('an event the school does not act on is nothing', async () => {
    const event = {
      ...fake.eventAbout('checkout.session.expired', await checkout(course('ord_x'))),
      type: 'product.created',
    };
    assert.deepEqual(await translate(event), []);
  });
});
