import type { CertificatesTable, Executor } from '../../db/tables.ts';

export function certificatesStore() {
  return {
    baseQuery: (ex: Executor) => ex.selectFrom('certificates').selectAll(),

    findById: (ex: Executor, id: string) =>
      ex.selectFrom('certificates').selectAll().where('id', '=', id).executeTakeFirst(),

    findByCode: (ex: Executor, code: string) =>
      ex.selectFrom('certificates').selectAll().where('code', '=', code).executeTakeFirst(),

    findFor: (ex: Executor, userId: string, courseId: string) =>
      ex
        .selectFrom('certificates')
        .selectAll()
        .where('user_id', '=', userId)
        .where('course_id', '=', courseId)
        .executeTakeFirst(),

    /** The name printed on a new certificate. */
    recipientName: async (ex: Executor, userId: string) =>
      (await ex.selectFrom('users').select('name').where('id', '=', userId).executeTakeFirst())?.name,

    /** Inserts unless the person already has one for the course (the unique pair decides, also under races). */
    insertOnce: async (ex: Executor, row: CertificatesTable) => {
      await ex
        .insertInto('certificates')
        .values(row)
        .onConflict((oc) => oc.columns(['user_id', 'course_id']).doNothing())
        .execute();
    },

    /** Revokes a valid certificate; false when it was revoked already. */
    revoke: async (ex: Executor, id: string, at: string, reason: string | null) => {
      const result = await ex
        .updateTable('certificates')
        .set({ revoked_at: at, revoked_reason: reason })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

export type CertificatesStore = ReturnType<typeof certificatesStore>;
