import type Stripe from 'stripe';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import type { Clock } from '../../time/clock.ts';
import { applyOnce } from '../apply-once.ts';
import type { PaymentEventSink } from '../provider.ts';
import { type StripeLookups, toPaymentEvents } from './events.ts';
import { stripeLookups } from './lookups.ts';
import { stripeStore } from './store.ts';

/** Stripe's own default and recommendation: a delivery's signature is at most 5 minutes from now, either way. */
const TOLERANCE_SECONDS = 300;

/** The header's `t`, read exactly as the stripe library reads it, so it is the timestamp its signature covered. */
function signedTimestamp(header: string): number {
  let timestamp = Number.NaN;
  for (const item of header.split(',')) {
    const [key, value] = item.split('=');
    if (key === 't') timestamp = Number.parseInt(value ?? '', 10);
  }
  return timestamp;
}

export type StripeWebhookDeps = {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'STRIPE_WEBHOOK_SECRET'>;
  stripe: Stripe;
  /** Turns the school's PaymentEvents into orders, access and subscriptions, inside applyOnce's transaction. */
  sink: PaymentEventSink;
  /** Stripe's API by default. */
  lookups?: StripeLookups;
};

/**
 * Receives Stripe's events: only a body signed with the endpoint's secret is read, and each event is applied once
 * (payment_events), whatever order Stripe sends them in and however often.
 */
export function stripeWebhook(deps: StripeWebhookDeps) {
  const store = stripeStore();
  const lookups = deps.lookups ?? stripeLookups(deps.stripe);

  async function verified(raw: Buffer, signature: string | string[] | undefined): Promise<Stripe.Event> {
    if (typeof signature !== 'string' || !signature)
      throw errors.invalidRequest('The Stripe-Signature header is missing: only events signed by Stripe are accepted.');
    const refused = () =>
      errors.invalidRequest(
        "The Stripe-Signature header does not match this body and the endpoint's signing secret, or was not made within 5 minutes of now.",
      );
    const now = deps.clock.now().getTime();
    let event: Stripe.Event;
    try {
      event = await deps.stripe.webhooks.constructEventAsync(
        raw,
        signature,
        deps.config.STRIPE_WEBHOOK_SECRET,
        TOLERANCE_SECONDS,
        undefined,
        now,
      );
    } catch {
      throw refused();
    }
    // The library refuses a signature older than the tolerance but takes one dated any time ahead. Stripe signs each
    // delivery as it sends it, so a timestamp in the future is as wrong as a stale one: whoever held the secret made
    // it to be replayed later, or a clock is far off.
    const signedAt = signedTimestamp(signature);
    if (!Number.isFinite(signedAt) || signedAt * 1000 - now > TOLERANCE_SECONDS * 1000) throw refused();
    return event;
  }

  return {
    /** Verifies, translates and applies one delivery; a failure to apply throws, so Stripe sends the event again. */
    async receive(raw: Buffer | undefined, signature: string | string[] | undefined) {
      const event = await verified(raw ?? Buffer.alloc(0), signature);
      // A re-sent event costs one read: it is not translated again, which may ask Stripe for objects.
      if (await store.eventApplied(deps.db, event.id)) return { received: true, applied: false };
      const changes = await toPaymentEvents(event, lookups);
      const applied = await applyOnce(deps.db, deps.sink, {
        provider: 'stripe',
        id: event.id,
        type: event.type,
        at: deps.clock.now().toISOString(),
        changes,
      });
      return { received: true, applied };
    },
  };
}

export type StripeWebhook = ReturnType<typeof stripeWebhook>;
