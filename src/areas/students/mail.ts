import type { Executor } from '../../db/tables.ts';

type Person = { id: string; email: string; name: string };

/**
 * The messages the students area sends, written in the transaction of the change that asks for them (so a rolled-back
 * change sends nothing): a confirmation of an enrollment. `mail/account-mail.ts` implements it. (A person added as a
 * student is invited by identity/invitations.ts.)
 */
export type StudentMail = {
  enrollmentConfirmed(ex: Executor, input: { user: Person; course: { title: string; slug: string } }): Promise<void>;
};
