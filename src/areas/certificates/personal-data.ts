import type { Executor } from '../../db/tables.ts';

/** A person's certificates: exported with their data, and revoked under an anonymous name when they leave. */
export const certificatesOfPerson = {
  list: (ex: Executor, userId: string) =>
    ex
      .selectFrom('certificates')
      .select(['code', 'course_id', 'course_title', 'recipient_name', 'issued_at', 'revoked_at'])
      .where('user_id', '=', userId)
      .orderBy('issued_at')
      .execute(),

  /** The public verification page would otherwise keep showing the name of someone who asked to be forgotten. */
  anonymise: async (ex: Executor, userId: string, name: string, at: string) => {
    await ex.updateTable('certificates').set({ recipient_name: name }).where('user_id', '=', userId).execute();
    await ex
      .updateTable('certificates')
      .set({ revoked_at: at, revoked_reason: 'The holder deleted their account.' })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
  },
};
