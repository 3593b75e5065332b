import { html, type SafeHtml } from '../text/html.ts';

/** One message as it is written: a subject and the same words as plain text and as HTML. */
export type MailContent = { subject: string; text: string; html: string };

/** What every message knows of the school that sends it. */
export type Sender = { school: string };

export function htmlBody(sender: Sender, greeting: string, paragraphs: SafeHtml[]): string {
  return `<!doctype html>${html`<html lang="en"><head><meta charset="utf-8"><title>${sender.school}</title></head>
<body style="font-family: sans-serif; line-height: 1.5">
<p>${greeting}</p>
${paragraphs.map((p) => html`<p>${p}</p>`)}
<p>— ${sender.school}</p>
</body></html>`}`;
}

export const textBody = (sender: Sender, greeting: string, paragraphs: string[]) =>
  [greeting, ...paragraphs, `— ${sender.school}`].join('\n\n');

export const link = (url: string, label: string) => html`<a href="${url}">${label}</a>`;

export function passwordResetMessage(sender: Sender, to: { name: string }, url: string): MailContent {
  const greeting = `Hello ${to.name},`;
  return {
    subject: `Reset your password at ${sender.school}`,
    text: textBody(sender, greeting, [
      'Someone (we hope you) asked to reset the password of your account. Open this link to choose a new one:',
      url,
      'The link works once, for one hour. If you did not ask for it, ignore this message: your password stays as it is.',
    ]),
    html: htmlBody(sender, greeting, [
      html`Someone (we hope you) asked to reset the password of your account.`,
      link(url, 'Choose a new password'),
      html`The link works once, for one hour. If you did not ask for it, ignore this message: your password stays as it is.`,
    ]),
  };
}

export function invitationMessage(sender: Sender, to: { name: string }, url: string, days: number): MailContent {
  const greeting = `Hello ${to.name},`;
  return {
    subject: `You are invited to ${sender.school}`,
    text: textBody(sender, greeting, [
      `${sender.school} has made an account for you. Open this link to choose your password and sign in:`,
      url,
      `The link works once, for ${days} days.`,
    ]),
    html: htmlBody(sender, greeting, [
      html`${sender.school} has made an account for you.`,
      link(url, 'Choose your password'),
      html`The link works once, for ${days} days.`,
    ]),
  };
}

export function verificationMessage(sender: Sender, to: { name: string }, url: string, days: number): MailContent {
  const greeting = `Hello ${to.name},`;
  return {
    subject: `Confirm your e-mail address at ${sender.school}`,
    text: textBody(sender, greeting, [
      'Open this link to confirm that this address is yours:',
      url,
      `The link works for ${days} days. If you did not create an account, ignore this message.`,
    ]),
    html: htmlBody(sender, greeting, [
      html`Please confirm that this address is yours.`,
      link(url, 'Confirm my address'),
      html`The link works for ${days} days. If you did not create an account, ignore this message.`,
    ]),
  };
}

export function enrollmentConfirmedMessage(
  sender: Sender,
  to: { name: string },
  course: { title: string },
  url: string,
): MailContent {
  const greeting = `Hello ${to.name},`;
  return {
    subject: `You are enrolled in ${course.title}`,
    text: textBody(sender, greeting, [`You are now enrolled in "${course.title}". Start learning here:`, url]),
    html: htmlBody(sender, greeting, [
      html`You are now enrolled in <strong>${course.title}</strong>.`,
      link(url, 'Start learning'),
    ]),
  };
}

/** The buyer's receipt: what they bought, what it cost and where it is. */
export function orderReceiptMessage(
  sender: Sender,
  to: { name: string },
  order: { number: number; lines: { title: string; amount: string }[]; discount: string | null; total: string },
  url: string,
): MailContent {
  const greeting = `Hello ${to.name},`;
  const lines = order.lines.map((l) => `${l.title}: ${l.amount}`);
  const totals = [...(order.discount ? [`Discount: −${order.discount}`] : []), `Total paid: ${order.total}`];
  return {
    subject: `Your receipt for order ${order.number}`,
    text: textBody(sender, greeting, [
      `Thank you for your order ${order.number}.`,
      [...lines, ...totals].join('\n'),
      `Your receipt and what you bought: ${url}`,
    ]),
    html: htmlBody(sender, greeting, [
      html`Thank you for your order <strong>${String(order.number)}</strong>.`,
      html`${order.lines.map((l) => html`${l.title}: <strong>${l.amount}</strong><br>`)}${totals.map((t) => html`${t}<br>`)}`,
      link(url, 'Your receipt and what you bought'),
    ]),
  };
}

/** A staff notice of a form submission: the form and every value sent, as label and value. */
export function formSubmittedMessage(
  sender: Sender,
  form: { title: string },
  lines: { label: string; value: string }[],
  url: string,
): MailContent {
  const greeting = 'Hello,';
  const shown = lines.map((l) => ({ label: l.label, value: l.value || '—' }));
  return {
    subject: `New submission: ${form.title}`,
    text: textBody(sender, greeting, [
      `Someone sent the form "${form.title}":`,
      shown.map((l) => `${l.label}: ${l.value}`).join('\n'),
      `Every submission of this form (forms:read): ${url}`,
    ]),
    html: htmlBody(sender, greeting, [
      html`Someone sent the form <strong>${form.title}</strong>:`,
      html`${shown.map((l) => html`${l.label}: <strong>${l.value}</strong><br>`)}`,
      html`Every submission of this form (forms:read): ${link(url, url)}`,
    ]),
  };
}
