import { newId } from '../db/ids.ts';
import type { Db, Executor, OutboxTable } from '../db/tables.ts';
import { type JobContext, type JobQueue, PermanentJobError } from '../jobs/queue.ts';
import type { Clock } from '../time/clock.ts';
import type { MailContent } from './messages.ts';
import { outboxStore } from './outbox-store.ts';
import { describeSmtpError, type Envelope, type MailTransport } from './smtp.ts';

export const DELIVER = 'mail.deliver';
/**
 * Messages whose copy is deleted once their delivery ends (sent, or failed for good): the notice of a deleted account
 * is the one message the school still owes an address it has otherwise forgotten.
 */
const FORGOTTEN_ONCE_DELIVERED = new Set(['account_deleted']);
/** With the queue's backoff (10 s doubling, at most an hour apart) ten attempts span about an hour and a half. */
export const DELIVERY_ATTEMPTS = 10;

/** An address in the top-level name `.invalid`, which RFC 2606 §2 reserves as one that can never exist. */
const UNDELIVERABLE = /\.invalid$/i;

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

  /** Writes where a delivery ended; a message forgotten once delivered is deleted instead when it has ended. */
  async function record(row: OutboxTable, changes: Partial<Omit<OutboxTable, 'id'>>) {
    if (changes.status !== 'queued' && FORGOTTEN_ONCE_DELIVERED.has(row.kind)) await store.remove(db, row.id);
    else await store.update(db, row.id, { ...changes, updated_at: now() });
  }

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
      await record(row, { status: last ? 'failed' : 'queued', attempts, last_error: text });
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
    await record(row, { status: 'sent', attempts, sent_at: now(), last_error: null });
    return { status: 'sent' };
  }
  jobs.handle(DELIVER, deliver);

  return {
    /** Whether messages leave the school (SMTP configured) or are held in the outbox. */
    delivers: transport !== undefined,

    /** Deletes every message to these addresses from the outbox, in the caller's transaction. */
    eraseTo: (ex: Executor, addresses: string[]) => store.eraseTo(ex, addresses),

    /**
     * Writes the message to the outbox (and its delivery job) in the caller's transaction; returns its id. An address
     * under `.invalid` (a deleted account's) is never written to: RFC 2606 §2 reserves that name so that it can never
     * exist, and a copy kept for it would only keep the mail a deleted person was sent.
     */
    async queue(
      ex: Executor,
      message: { to: string; kind: string; content: MailContent },
    ): Promise<string | undefined> {
      if (UNDELIVERABLE.test(message.to)) return undefined;
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
