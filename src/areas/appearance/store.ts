import type { AppearanceTable, Executor } from '../../db/tables.ts';

/** The appearance is a singleton row with this id, written on the first change. */
const APPEARANCE_ID = 'appearance';

export function appearanceStore() {
  return {
    get: (ex: Executor) => ex.selectFrom('appearance').selectAll().where('id', '=', APPEARANCE_ID).executeTakeFirst(),

    upsert: async (ex: Executor, row: Omit<AppearanceTable, 'id'>) => {
      await ex
        .insertInto('appearance')
        .values({ ...row, id: APPEARANCE_ID })
        .onConflict((oc) => oc.column('id').doUpdateSet(row))
        .execute();
    },
  };
}

export type AppearanceStore = ReturnType<typeof appearanceStore>;
