import type { FastifyInstance } from 'fastify';
import { html } from '../../text/html.ts';
import { ADMIN_ROUTE, type AdminDeps, adminGate, adminPage } from './admin-context.ts';

/** What the server was started with, as far as staff need to know it (never a secret). */
export type DeliveryFacts = {
  /** The SMTP server's host when one is configured; undefined: messages are held in the outbox. */
  smtpHost: string | undefined;
  payments: 'none' | 'test' | 'stripe';
};

const PAYMENTS = {
  none: 'No payment provider: only free courses, plans and products can be taken. Set PAYMENTS_PROVIDER to take money.',
  test: 'The built-in test provider: orders are paid on a test page without taking money. For demos, never a live school.',
  stripe: 'Stripe: checkouts on Stripe, payments and refunds confirmed by its signed webhook.',
} as const;

/**
 * E-mail delivery and payments at a glance: how the school sends mail and how many messages wait or failed (the
 * outbox counts are the owner's to read, as its messages are), and which provider takes payments.
 */
export function registerDeliveryPage(app: FastifyInstance, deps: AdminDeps & { facts: DeliveryFacts }) {
  const page = adminPage(deps);
  app.get('/admin/delivery', { ...ADMIN_ROUTE, preHandler: adminGate() }, async (request, reply) => {
    const count = async (status: string) => {
      const answer = await deps.call(request, 'listOutboxMessages', { status, limit: 100 });
      const rows = answer.status === 200 ? (answer.body.data as unknown[]).length : 0;
      return answer.body.has_more ? `${rows}+` : String(rows);
    };
    const owner = request.viewer?.role === 'owner';
    const [queued, failed, held] = owner ? await Promise.all(['queued', 'failed', 'held'].map(count)) : [];
    const { smtpHost, payments } = deps.facts;
    const body = html`<section aria-labelledby="mail"><h2 id="mail">E-mail</h2>
<p>${
      smtpHost
        ? html`Sent through the SMTP server at <strong>${smtpHost}</strong>.`
        : html`<strong>No SMTP server is configured</strong>: messages are kept in the outbox, unsent. Set SMTP_URL to send them.`
    }</p>
${
  owner
    ? html`<dl class="figures"><div><dt>Waiting to be sent</dt><dd>${queued}</dd></div><div><dt>Failed</dt><dd>${failed}</dd></div><div><dt>Held (no SMTP)</dt><dd>${held}</dd></div></dl>
<p><a href="/admin/outbox">The outbox</a></p>`
    : html`<p class="meta">The owner sees the outbox (its messages carry sign-in links).</p>`
}</section>
<section aria-labelledby="payments"><h2 id="payments">Payments</h2><p>${PAYMENTS[payments]}</p></section>`;
    return page(request, reply, { title: 'E-mail and payments', body, current: 'delivery' });
  });
}
