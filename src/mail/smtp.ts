import type { Transporter } from 'nodemailer';

/** One message ready for the wire. */
export type Envelope = {
  from: string | { name: string; address: string };
  to: string;
  subject: string;
  text: string;
  html: string;
};

/** Sends a message or throws; `permanent` on the error says the server refused it for good (an SMTP 5xx reply). */
export type MailTransport = {
  send(message: Envelope): Promise<void>;
  close(): void;
};

/** What an SMTP failure says, for the outbox and the retry decision; never the message itself. */
export function describeSmtpError(error: unknown): { permanent: boolean; text: string } {
  const e = (error ?? {}) as { permanent?: boolean; responseCode?: number; response?: string; code?: string };
  const text = e.response
    ? e.response
    : `${e.code ?? 'ERROR'}: ${error instanceof Error ? error.message : String(error)}`;
  return { permanent: e.permanent === true, text: text.slice(0, 1000) };
}

/** An SMTP transport (nodemailer) for `smtp://` or `smtps://` URLs; one connection a message, so nothing idles open. */
export function smtpTransport(url: string): MailTransport {
  // nodemailer is loaded with the first message, not at start: a school without SMTP never loads it.
  let transporter: Transporter | undefined;
  return {
    async send(message) {
      transporter ??= (await import('nodemailer')).createTransport(url);
      await transporter.sendMail(message);
    },
    close: () => transporter?.close(),
  };
}
