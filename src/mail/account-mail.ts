import type { Executor, UserTokensTable } from '../db/tables.ts';
import type { UserTokensStore } from '../identity/user-tokens-store.ts';
import { randomToken, sha256 } from '../security/tokens.ts';
import type { Clock } from '../time/clock.ts';
import { accountDeletedMessage, emailChangeMessage, emailChangeNoticeMessage } from './account-change-messages.ts';
import {
  enrollmentConfirmedMessage,
  formSubmittedMessage,
  invitationMessage,
  type MailContent,
  orderReceiptMessage,
  passwordResetMessage,
  type Sender,
  verificationMessage,
} from './messages.ts';
import type { MailOutbox } from './outbox.ts';

/** The person a message is for. */
export type Recipient = { id: string; email: string; name: string };

const HOUR_MS = 3_600_000;
export const LINK_LIFETIME_MS = {
  reset: HOUR_MS,
  invite: 7 * 24 * HOUR_MS,
  verify: 7 * 24 * HOUR_MS,
  email_change: 24 * HOUR_MS,
} as const satisfies Record<UserTokensTable['purpose'], number>;
const days = (ms: number) => Math.round(ms / (24 * HOUR_MS));

/**
 * The messages sent to a person about their account and learning. Each takes the transaction of the change it
 * belongs to (an invited student, a new enrollment, a reset asked for): the link, the outbox row and the delivery
 * job are written with that change or not at all. Links carry a random secret of which only the hash is stored.
 */
export function accountMail(deps: {
  outbox: MailOutbox;
  tokens: UserTokensStore;
  clock: Clock;
  baseUrl: string;
  /** The school's name, read on the caller's transaction (SQLite has one connection, held by that transaction). */
  schoolName: (ex: Executor) => Promise<string | undefined>;
}) {
  const { outbox, tokens, clock, baseUrl } = deps;
  const sender = async (ex: Executor) => ({ school: (await deps.schoolName(ex)) ?? 'Lyceum' });

  async function link(ex: Executor, purpose: UserTokensTable['purpose'], user: Recipient, path: string) {
    const token = randomToken();
    const now = clock.now();
    await tokens.insert(ex, {
      token_hash: sha256(token),
      purpose,
      user_id: user.id,
      email: user.email,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + LINK_LIFETIME_MS[purpose]).toISOString(),
      used_at: null,
    });
    return `${baseUrl}${path}?token=${token}`;
  }

  return {
    /**
     * A change of address asked for: a link to the new address (which moves the account there when opened, valid a
     * day) and a notice to the address in use, so a stolen session cannot move the account away unseen.
     */
    async emailChange(ex: Executor, user: Recipient, newEmail: string): Promise<void> {
      const url = await link(ex, 'email_change', { ...user, email: newEmail }, '/verify-email');
      const from = await sender(ex);
      const content = emailChangeMessage(from, user, url, 1);
      await outbox.queue(ex, { to: newEmail, kind: 'email_change', content });
      const notice = emailChangeNoticeMessage(from, user, newEmail, `${baseUrl}/account`);
      await outbox.queue(ex, { to: user.email, kind: 'email_change_notice', content: notice });
    },

    /**
     * Erases every message the school kept to the person's `addresses` (the one in use among them), then tells the address in use that the
     * account is gone: the last message the school sends it, whose copy the outbox deletes once delivered. Without
     * SMTP no notice is kept: it could never go out, and a held copy would keep the address the deletion erases.
     */
    async accountDeleted(ex: Executor, user: Recipient, addresses: string[]): Promise<void> {
      await outbox.eraseTo(ex, addresses);
      if (!outbox.delivers) return;
      const content = accountDeletedMessage(await sender(ex), user);
      await outbox.queue(ex, { to: user.email, kind: 'account_deleted', content });
    },

    /** An invitation to an account someone else made: the link opens "Choose your password" (valid 7 days, once). */
    async invite(ex: Executor, user: Recipient): Promise<void> {
      const url = await link(ex, 'invite', user, '/password/reset');
      const content = invitationMessage(await sender(ex), user, url, days(LINK_LIFETIME_MS.invite));
      await outbox.queue(ex, { to: user.email, kind: 'invitation', content });
    },

    /** Tells a student they are enrolled, with a link to the course. */
    async enrollmentConfirmed(
      ex: Executor,
      input: { user: Recipient; course: { title: string; slug: string } },
    ): Promise<void> {
      const url = `${baseUrl}/courses/${encodeURIComponent(input.course.slug)}`;
      const content = enrollmentConfirmedMessage(await sender(ex), input.user, input.course, url);
      await outbox.queue(ex, { to: input.user.email, kind: 'enrollment_confirmed', content });
    },

    /** The receipt of a paid order, with a link to its page. */
    async orderReceipt(
      ex: Executor,
      input: { user: Recipient; order: Parameters<typeof orderReceiptMessage>[2]; orderId: string },
    ) {
      const url = `${baseUrl}/orders/${input.orderId}`;
      const content = orderReceiptMessage(await sender(ex), input.user, input.order, url);
      await outbox.queue(ex, { to: input.user.email, kind: 'order_receipt', content });
    },

    /** Tells a staff recipient what was sent through a form, with the API address of the form's submissions. */
    async formSubmitted(
      ex: Executor,
      input: { to: string; form: { id: string; title: string }; lines: { label: string; value: string }[] },
    ): Promise<void> {
      const url = `${baseUrl}/api/v1/forms/${input.form.id}/submissions`;
      const content = formSubmittedMessage(await sender(ex), input.form, input.lines, url);
      await outbox.queue(ex, { to: input.to, kind: 'form_submission', content });
    },

    /**
     * A message an area writes itself (the events area's notices) to each of `to`, given the school that sends it
     * (read once for all of them: a cancel may tell thousands).
     */
    async send<P extends Recipient>(
      ex: Executor,
      input: { to: P[]; kind: string; write: (sender: Sender, person: P) => MailContent },
    ) {
      if (input.to.length === 0) return;
      const from = await sender(ex);
      for (const person of input.to)
        await outbox.queue(ex, { to: person.email, kind: input.kind, content: input.write(from, person) });
    },

    /** A password-reset link (valid one hour, once). */
    async passwordReset(ex: Executor, user: Recipient): Promise<void> {
      const url = await link(ex, 'reset', user, '/password/reset');
      const content = passwordResetMessage(await sender(ex), user, url);
      await outbox.queue(ex, { to: user.email, kind: 'password_reset', content });
    },

    /** A link that proves the person reads mail at their current address (valid 7 days). */
    async verifyEmail(ex: Executor, user: Recipient): Promise<void> {
      const url = await link(ex, 'verify', user, '/verify-email');
      const content = verificationMessage(await sender(ex), user, url, days(LINK_LIFETIME_MS.verify));
      await outbox.queue(ex, { to: user.email, kind: 'email_verification', content });
    },
  };
}

export type AccountMail = ReturnType<typeof accountMail>;
