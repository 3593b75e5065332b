import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { freePort } from './server.ts';

export type Received = { to: string[]; from: string; subject: string; text: string; html: string; parsed: ParsedMail };

/**
 * A real SMTP server for a test: it keeps every message it accepts, parsed. `refuse` makes it answer RCPT TO with
 * that reply code (451 temporary, 550 permanent) until it is set back to undefined.
 */
export async function startSmtpServer() {
  const received: Received[] = [];
  const waiting: (() => void)[] = [];
  const state: { refuse: number | undefined; attempts: number } = { refuse: undefined, attempts: 0 };
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on loopback: nodemailer would otherwise upgrade to TLS against the server's self-signed certificate.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      state.attempts += 1;
      if (state.refuse === undefined) return callback();
      const error = Object.assign(new Error(state.refuse >= 500 ? 'Mailbox unavailable' : 'Try again later'), {
        responseCode: state.refuse,
      });
      return callback(error);
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            parsed,
          });
          for (const wake of waiting.splice(0)) wake();
          callback();
        })
        .catch(callback);
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    state,
    /** Resolves once `count` messages have arrived (the jobs are run by the test, so this does not wait for time). */
    async waitFor(count: number, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} messages, got ${received.length}`);
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a message's text that starts with `prefix`. */
export function linkIn(text: string, prefix: string): string {
  const match = text.match(/https?:\/\/\S+/g)?.find((url) => url.includes(prefix));
  if (!match) throw new Error(`no ${prefix} link in: ${text}`);
  return match;
}
