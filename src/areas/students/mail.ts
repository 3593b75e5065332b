import type { Executor } from '../../db/tables.ts';

type Person = { id: string; email: string; name: string };

/**
 * The messages the students area sends, written in the transaction of the change that asks for them (so a rolled-back
 * change sends nothing): an invitation with a set-password link to a person added as a student, and a confirmation of
 * an enrollment. `mail/account-mail.ts` implements it.
 */
export type StudentMail = {
  invite(ex: Executor, user: Person): Promise<void>;
  enrollmentConfirmed(ex: Executor, input: { user: Person; course: { title: string; slug: string } }): Promise<void>;
};
