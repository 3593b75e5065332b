import type { Executor, SchoolTable } from '../../db/tables.ts';

/** The school is a singleton row with this id. */
const SCHOOL_ID = 'school';

export function schoolStore() {
  return {
    get: (ex: Executor) => ex.selectFrom('school').selectAll().where('id', '=', SCHOOL_ID).executeTakeFirst(),
    insert: async (ex: Executor, row: Omit<SchoolTable, 'id'>) => {
      await ex
        .insertInto('school')
        .values({ ...row, id: SCHOOL_ID })
        .execute();
    },
    update: async (ex: Executor, changes: Partial<Omit<SchoolTable, 'id'>>) => {
      await ex.updateTable('school').set(changes).where('id', '=', SCHOOL_ID).execute();
    },
  };
}

export type SchoolStore = ReturnType<typeof schoolStore>;
