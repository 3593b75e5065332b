import type { FastifyInstance } from 'fastify';
import { type StripeWebhookDeps, stripeWebhook } from './webhook.ts';

/** Stripe's events are a few kilobytes; a subscription invoice with many lines stays well under this. */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/**
 * `POST /webhooks/stripe`, outside the API: Stripe signs the raw bytes, so this route alone keeps the body as it came
 * (a Buffer, whatever its content type) for the signature check before anything reads it.
 */
export function registerStripeWebhook(app: FastifyInstance, deps: StripeWebhookDeps) {
  const webhook = stripeWebhook(deps);
  return app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) =>
      done(null, body),
    );
    raw.post(
      '/webhooks/stripe',
      { config: { public: true }, schema: { hide: true }, bodyLimit: WEBHOOK_BODY_LIMIT },
      (request) => webhook.receive(request.body as Buffer | undefined, request.headers['stripe-signature']),
    );
  });
}
