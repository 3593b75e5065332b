import type { Executor } from '../../db/tables.ts';

/**
 * The notice staff get of each submission, written in the submission's transaction (so a refused or rolled-back
 * submission sends nothing): the form's title and every value, one message per recipient. `mail/account-mail.ts`
 * implements it.
 */
export type FormMail = {
  formSubmitted(
    ex: Executor,
    input: { to: string; form: { id: string; title: string }; lines: { label: string; value: string }[] },
  ): Promise<void>;
};
