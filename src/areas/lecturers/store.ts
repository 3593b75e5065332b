import type { Executor, LecturersTable } from '../../db/tables.ts';

export function lecturersStore() {
  return {
    /** Which of `ids` are lecturers (another area's input may name them). */
    existingIds: async (ex: Executor, ids: string[]) =>
      (await ex.selectFrom('lecturers').select('id').where('id', 'in', ids).execute()).map((r) => r.id),

    baseQuery: (ex: Executor) => ex.selectFrom('lecturers').selectAll(),

    findById: (ex: Executor, id: string) =>
      ex.selectFrom('lecturers').selectAll().where('id', '=', id).executeTakeFirst(),

    insert: async (ex: Executor, row: LecturersTable) => {
      await ex.insertInto('lecturers').values(row).execute();
    },

    update: async (ex: Executor, id: string, changes: Partial<LecturersTable>) => {
      await ex.updateTable('lecturers').set(changes).where('id', '=', id).execute();
    },

    delete: async (ex: Executor, id: string) => {
      await ex.deleteFrom('lecturers').where('id', '=', id).execute();
    },

    userExists: async (ex: Executor, userId: string) =>
      (await ex.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()) !== undefined,

    /** The lecturer already linked to a user, other than `exceptId`. */
    linkedToUser: async (ex: Executor, userId: string, exceptId?: string) => {
      let query = ex.selectFrom('lecturers').select('id').where('user_id', '=', userId);
      if (exceptId) query = query.where('id', '!=', exceptId);
      return (await query.executeTakeFirst())?.id;
    },
  };
}

export type LecturersStore = ReturnType<typeof lecturersStore>;
