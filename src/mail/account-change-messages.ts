import { html } from '../text/html.ts';
import { htmlBody, link, type MailContent, type Sender, textBody } from './messages.ts';

/** Sent to the new address: the account moves to it only when this link is opened. */
export function emailChangeMessage(sender: Sender, to: { name: string }, url: string, days: number): MailContent {
  const greeting = `Hello ${to.name},`;
  return {
    subject: `Confirm your new e-mail address at ${sender.school}`,
    text: textBody(sender, greeting, [
      'You asked to sign in with this address from now on. Open this link to confirm that it is yours:',
      url,
      `Until you do, your account keeps its old address. The link works for ${days} days. If you did not ask for this, ignore this message.`,
    ]),
    html: htmlBody(sender, greeting, [
      html`You asked to sign in with this address from now on. Please confirm that it is yours.`,
      link(url, 'Use this address'),
      html`Until you do, your account keeps its old address. The link works for ${days} days. If you did not ask for this, ignore this message.`,
    ]),
  };
}

/** Sent to the address in use: someone signed in as the person asked to move the account to another address. */
export function emailChangeNoticeMessage(
  sender: Sender,
  to: { name: string },
  newEmail: string,
  accountUrl: string,
): MailContent {
  const greeting = `Hello ${to.name},`;
  const notYou =
    'If this was not you, sign in and change your password now: the change happens only when the link sent to the new address is opened.';
  return {
    subject: `Your e-mail address at ${sender.school} is about to change`,
    text: textBody(sender, greeting, [
      `Someone signed in to your account asked to use ${newEmail} instead of this address.`,
      notYou,
      accountUrl,
    ]),
    html: htmlBody(sender, greeting, [
      html`Someone signed in to your account asked to use <strong>${newEmail}</strong> instead of this address.`,
      html`${notYou}`,
      link(accountUrl, 'Open my account'),
    ]),
  };
}

/** The last message to an address whose account was deleted at the person's request. */
export function accountDeletedMessage(sender: Sender, to: { name: string }): MailContent {
  const greeting = `Hello ${to.name},`;
  const kept =
    'Your name and e-mail address are erased from the school. Orders stay in its books, as the law requires, under an anonymous name.';
  return {
    subject: `Your account at ${sender.school} is deleted`,
    text: textBody(sender, greeting, ['Your account was deleted, as you asked.', kept]),
    html: htmlBody(sender, greeting, [html`Your account was deleted, as you asked.`, html`${kept}`]),
  };
}
