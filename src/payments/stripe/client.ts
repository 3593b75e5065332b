import type Stripe from 'stripe';
import type { Config } from '../../config.ts';

/**
 * The one Stripe API client of the school, shared by the adapter (checkouts, refunds, subscription changes) and the
 * webhook (the objects an event only names). STRIPE_API_URL points it at a stand-in of Stripe's API (tests).
 */
export async function stripeClient(config: Pick<Config, 'STRIPE_SECRET_KEY' | 'STRIPE_API_URL'>): Promise<Stripe> {
  // loadConfig refuses PAYMENTS_PROVIDER=stripe without a key; build the client only then.
  if (!config.STRIPE_SECRET_KEY) throw new Error('The Stripe client needs STRIPE_SECRET_KEY');
  // Loaded only by a school that takes payments through Stripe: the library is ≈ 30 MB of memory once loaded.
  const { default: StripeClient } = await import('stripe');
  return new StripeClient(config.STRIPE_SECRET_KEY, {
    ...apiAddress(config.STRIPE_API_URL),
    // Reporting request timings to Stripe is the library's default; a school's server sends only what it must.
    telemetry: false,
    maxNetworkRetries: 2,
    timeout: 20_000,
  });
}

/** `https://api.stripe.com` when unset; else the URL's host, port and protocol. */
export function apiAddress(url: string): { host?: string; port?: number; protocol?: 'http' | 'https' } {
  if (!url) return {};
  const parsed = new URL(url);
  const protocol = parsed.protocol === 'http:' ? 'http' : 'https';
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: parsed.port ? Number(parsed.port) : protocol === 'http' ? 80 : 443,
    protocol,
  };
}

/** Stripe writes currencies in lower case; the school in ISO 4217 upper case. */
export const toStripeCurrency = (currency: string) => currency.toLowerCase();
export const fromStripeCurrency = (currency: string) => currency.toUpperCase();

/** Stripe's times are Unix seconds; the school's fixed-width ISO strings. */
export const fromStripeTime = (seconds: number) => new Date(seconds * 1000).toISOString();

/** The id of an expandable field, whether Stripe sent the id or the object. */
export const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;
