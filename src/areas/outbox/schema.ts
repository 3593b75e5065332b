import Type, { type Static } from 'typebox';
import { Id, ListQueryBase, Page, Timestamp } from '../../http/schemas.ts';

const Status = Type.Union(
  [Type.Literal('queued'), Type.Literal('sent'), Type.Literal('failed'), Type.Literal('held')],
  {
    description:
      'queued: waiting for (another) delivery attempt; sent: the SMTP server took it; failed: refused or out of attempts (see last_error); held: no SMTP server is configured, so it was never sent',
  },
);
const Kind = Type.String({
  maxLength: 64,
  description:
    'What the message is: password_reset, email_verification, invitation, enrollment_confirmed, order_receipt, form_submission',
});

const summary = {
  id: Id('msg'),
  to: Type.String({ description: 'The recipient address' }),
  subject: Type.String(),
  kind: Kind,
  status: Status,
  attempts: Type.Integer({ description: 'Delivery attempts made so far' }),
  last_error: Type.Union([Type.String(), Type.Null()], { description: "The SMTP server's last refusal, if any" }),
  sent_at: Type.Union([Timestamp, Type.Null()]),
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const OutboxMessageSummary = Type.Object(summary, { $id: 'OutboxMessageSummary' });
export type OutboxMessageSummary = Static<typeof OutboxMessageSummary>;

export const OutboxMessage = Type.Object(
  {
    ...summary,
    text: Type.String({ description: 'The plain-text body' }),
    html: Type.String({ description: 'The HTML body' }),
  },
  { $id: 'OutboxMessage' },
);
export type OutboxMessage = Static<typeof OutboxMessage>;

export const OutboxListQuery = Type.Object(
  {
    ...ListQueryBase,
    status: Type.Optional(Status),
    kind: Type.Optional(Kind),
    to: Type.Optional(Type.String({ minLength: 1, maxLength: 254, description: 'Only messages to this address' })),
  },
  { additionalProperties: false },
);
export type OutboxListQuery = Static<typeof OutboxListQuery>;

export const OutboxPage = Page(OutboxMessageSummary);

export const OutboxIdParams = Type.Object({ id: Id('msg') }, { additionalProperties: false });
