import type { Executor } from '../../db/tables.ts';

/** The submissions a person sent: while signed in, or naming their address in the form's e-mail field. */
const theirs = (ex: Executor, userId: string, email: string) =>
  ex.selectFrom('form_submissions').where((eb) => eb.or([eb('user_id', '=', userId), eb('email', '=', email)]));

export const submissionsOfPerson = {
  list: async (ex: Executor, userId: string, email: string) =>
    (await theirs(ex, userId, email).select(['form_id', 'values', 'created_at']).orderBy('created_at').execute()).map(
      (row) => ({ ...row, values: JSON.parse(row.values) as Record<string, unknown> }),
    ),

  erase: async (ex: Executor, userId: string, email: string) => {
    await ex
      .deleteFrom('form_submissions')
      .where((eb) => eb.or([eb('user_id', '=', userId), eb('email', '=', email)]))
      .execute();
  },
};
