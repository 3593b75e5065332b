import type Stripe from 'stripe';
import type { StripeLookups } from './events.ts';

/** The documented reads the event translation makes when an event only names an object. */
export function stripeLookups(stripe: Stripe): StripeLookups {
  return {
    subscription: (id) => stripe.subscriptions.retrieve(id),
    paymentIntent: (id) => stripe.paymentIntents.retrieve(id),
    async invoiceOfPaymentIntent(id) {
      const page = await stripe.invoicePayments.list({
        payment: { type: 'payment_intent', payment_intent: id },
        expand: ['data.invoice'],
        limit: 1,
      });
      const invoice = page.data[0]?.invoice;
      return typeof invoice === 'object' && !invoice.deleted ? (invoice as Stripe.Invoice) : null;
    },
    refundsOfCharge: async (chargeId) => (await stripe.refunds.list({ charge: chargeId, limit: 100 })).data,
  };
}
