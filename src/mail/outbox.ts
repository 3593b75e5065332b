import { newId } from '../db/ids.ts';
import type { Db, Executor, OutboxTable } from '../db/tables.ts';
import { type JobContext, type JobQueue, PermanentJobError } from '../jobs/queue.ts';
import type { Clock } from '../time/clock.ts';
import type { MailContent } from './messages.ts';
import { outboxStore } from './outbox-store.ts';
import { describeSmtpError, type Envelope, type MailTransport } from './smtp.ts';

export const DELIVER = 'mail.deliver';
/** With the queue's backoff (10 s doubling, at most an hour apart) ten attempts span about an hour and a half. */
export const DELIVERY_ATTEMPTS = 10;

export type OutboxDeps = {
  db: Db;
  clock: Clock;
  jobs: JobQueue;
  /** Absent when no SMTP server is configured: messages are then held in the outbox. */
  transport: MailTransport | undefined;
  /** The sender, read when a message goes out (the default carries the school's current name). */
  from: () => Promise<Envelope['from']>;
  log: (message: string, fields: Record<string, unknown>) => void;
};

/**
 * Every message the school sends is a row of the outbox. Queuing writes the row and, when SMTP is configured, a
 * `mail.deliver` job carrying only the row's id, both in the caller's transaction: a message exists exactly when the
 * change that asked for it does, and personal data stays out of job payloads. Without SMTP the row is `held` and
 * stays so (it is not sent later when SMTP is configured: its links may have expired by then).
 */
export function mailOutbox(deps: OutboxDeps) {
  const { db, clock, jobs, transport } = deps;
  const store = outboxStore();
  const now = () => clock.now().toISOString();

  async function deliver(payload: { id: string }, job: JobContext) {
    const row = await store.find(db, payload.id);
    // Sent already (a job run twice after a lost lease) or gone: nothing to do.
    if (row?.status !== 'queued') return { status: row?.status ?? 'missing' };
    if (!transport) {
      await store.update(db, row.id, { status: 'held', updated_at: now() });
      return { status: 'held' };
    }
    const attempts = row.attempts + 1;
    try {
      await transport.send({
        from: await deps.from(),
        to: row.to_address,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
      });
    } catch (error) {
      const { permanent, text } = describeSmtpError(error);
      const last = permanent || job.attempt >= DELIVERY_ATTEMPTS;
      await store.update(db, row.id, {
        status: last ? 'failed' : 'queued',
        attempts,
        last_error: text,
        updated_at: now(),
      });
      // The server's reply may name the recipient: the log names the message only.
      deps.log(last ? 'mail not delivered' : 'mail delivery will be retried', {
        message_id: row.id,
        kind: row.kind,
        attempt: attempts,
        permanent,
      });
      const reason = `The SMTP server ${permanent ? 'refused the message' : 'could not take the message'}; see the outbox.`;
      throw permanent ? new PermanentJobError(reason) : new Error(reason);
    }
    await store.update(db, row.id, { status: 'sent', attempts, sent_at: now(), last_error: null, updated_at: now() });
    return { status: 'sent' };
  }
  jobs.handle(DELIVER, deliver);

  return {
    /** Whether messages leave the school (SMTP configured) or are held in the outbox. */
    delivers: transport !== undefined,

    /** Writes the message to the outbox (and its delivery job) in the caller's transaction; returns its id. */
    async queue(ex: Executor, message: { to: string; kind: string; content: MailContent }): Promise<string> {
      const at = now();
      const row: OutboxTable = {
        id: newId('msg'),
        to_address: message.to,
        subject: message.content.subject,
        text_body: message.content.text,
        html_body: message.content.html,
        kind: message.kind,
        status: transport ? 'queued' : 'held',
        attempts: 0,
        last_error: null,
        sent_at: null,
        created_at: at,
        updated_at: at,
      };
      await store.insert(ex, row);
      if (transport) await jobs.enqueue(ex, DELIVER, { id: row.id }, { maxAttempts: DELIVERY_ATTEMPTS });
      return row.id;
    },
  };
}

export type MailOutbox = ReturnType<typeof mailOutbox>;
