import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { OutboxMessage } from '../../areas/outbox/schema.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { Key, PageQuery, Text } from '../shared/page-schemas.ts';
import { ADMIN_ROUTE, type AdminDeps, adminGate, adminPage, refusal } from './admin-context.ts';
import { type SchoolClock, whenInWords } from './form-kit/school-time.ts';

const KINDS: Record<string, string> = {
  password_reset: 'Password reset',
  email_verification: 'E-mail address confirmation',
  invitation: 'Invitation',
  enrollment_confirmed: 'Enrollment confirmation',
  order_receipt: 'Order receipt',
  form_submission: 'Form submission',
};

const STATUSES = {
  queued: 'Waiting to be sent',
  sent: 'Sent',
  failed: 'Not delivered',
  held: 'Kept here, not sent (no SMTP server is configured)',
} as const;

const LINK = /https?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]]/g;

/** Plain text with its web addresses as links, so a reset or invitation link can be opened or copied whole. */
export function linkedText(text: string): SafeHtml {
  const parts: (SafeHtml | string)[] = [];
  let at = 0;
  for (const match of text.matchAll(LINK)) {
    parts.push(text.slice(at, match.index));
    parts.push(html`<a href="${match[0]}">${match[0]}</a>`);
    at = match.index + match[0].length;
  }
  parts.push(text.slice(at));
  return html`${parts}`;
}

/** A time in words in the school's zone ("26 Nov 2026, 14:05"). */
const when = (timestamp: string | null, clock: SchoolClock) => (timestamp ? whenInWords(timestamp, clock) : '—');

type Summary = Omit<OutboxMessage, 'text' | 'html'>;

/** The outbox as a list a phone can read: each message's subject (the link), who it is for, what and when. */
export function outboxListView(messages: Summary[], nextHref: string | null, clock: SchoolClock): SafeHtml {
  if (messages.length === 0) return html`<p class="meta">No messages yet.</p>`;
  return html`<ul class="outbox">${messages.map(
    (m) => html`<li class="outbox-item"><a href="/admin/outbox/${encodeURIComponent(m.id)}">${m.subject}</a>
<span class="meta">To ${m.to} · ${KINDS[m.kind] ?? m.kind.replaceAll('_', ' ')} · ${
      m.status === 'held' ? 'Not sent' : STATUSES[m.status]
    } · ${when(m.created_at, clock)}</span></li>`,
  )}</ul>${nextHref ? html`<p><a href="${nextHref}" rel="next">Older messages</a></p>` : ''}`;
}

export function outboxMessageView(message: OutboxMessage, clock: SchoolClock): SafeHtml {
  const status = STATUSES[message.status];
  return html`<p><a href="/admin/outbox">← The outbox</a></p>
<dl class="facts">
<div><dt>To</dt><dd>${message.to}</dd></div>
<div><dt>What it is</dt><dd>${KINDS[message.kind] ?? message.kind.replaceAll('_', ' ')}</dd></div>
<div><dt>Status</dt><dd>${status}${message.last_error ? html` — ${message.last_error}` : ''}</dd></div>
<div><dt>Written</dt><dd>${when(message.created_at, clock)}</dd></div>
${message.sent_at ? html`<div><dt>Sent</dt><dd>${when(message.sent_at, clock)}</dd></div>` : ''}
</dl>
${
  message.status === 'held'
    ? html`<p class="hint">This message was never sent. To pass it on, send its link to ${message.to} yourself; a link
that signs someone in is theirs alone.</p>`
    : ''
}
<section aria-labelledby="message-text"><h2 id="message-text">The message</h2>
<div class="message-text">${linkedText(message.text)}</div></section>`;
}

/**
 * One message of the outbox, whole: who it is for, what it is, and its text with working links — without SMTP the
 * owner passes a reset or invitation link on by hand from here. The owner only, as the getOutboxMessage operation
 * decides (anyone else gets the 404 page).
 */
export function registerOutboxPage(fastify: FastifyInstance, deps: AdminDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const page = adminPage(deps);
  app.get(
    '/admin/outbox',
    {
      schema: {
        querystring: PageQuery({
          status: Type.Optional(Text(20)),
          to: Type.Optional(Text(254)),
          starting_after: Type.Optional(Key),
        }),
      },
      ...ADMIN_ROUTE,
      preHandler: adminGate(),
    },
    async (request, reply) => {
      const { status, to, starting_after } = request.query;
      const args = {
        limit: 50,
        ...(status ? { status } : {}),
        ...(to ? { to } : {}),
        ...(starting_after ? { starting_after } : {}),
      };
      const answer = await deps.call(request, 'listOutboxMessages', args);
      if (answer.status !== 200) {
        const body = html`<div class="error" role="alert"><p>${refusal(answer).message}</p></div>`;
        return page(request, reply, { title: 'E-mail outbox', current: 'outbox', status: answer.status, body });
      }
      const next = answer.body.next_cursor as string | null;
      const nextHref = next
        ? `/admin/outbox?${new URLSearchParams({ ...(status ? { status } : {}), ...(to ? { to } : {}), starting_after: next })}`
        : null;
      const intro =
        request.viewer?.role === 'owner'
          ? html`<p class="hint">Every message the school wrote, newest first. Open one to read it whole, with its links.</p>`
          : html`<p class="hint">Only the owner reads the outbox: its messages carry sign-in links.</p>`;
      const body = html`${intro}${outboxListView(answer.body.data as Summary[], nextHref, await deps.clock(request))}`;
      return page(request, reply, { title: 'E-mail outbox', current: 'outbox', body });
    },
  );

  app.get(
    '/admin/outbox/:id',
    { schema: { params: Type.Object({ id: Key }) }, ...ADMIN_ROUTE, preHandler: adminGate() },
    async (request, reply) => {
      const answer = await deps.call(request, 'getOutboxMessage', { id: request.params.id });
      if (answer.status === 404 || answer.status === 400) return reply.callNotFound();
      if (answer.status !== 200) {
        const body = html`<div class="error" role="alert"><p>${refusal(answer).message}</p></div>`;
        return page(request, reply, { title: 'Message', current: 'outbox', status: answer.status, body });
      }
      const message = answer.body as unknown as OutboxMessage;
      return page(request, reply, {
        title: message.subject,
        current: 'outbox',
        body: outboxMessageView(message, await deps.clock(request)),
      });
    },
  );
}
