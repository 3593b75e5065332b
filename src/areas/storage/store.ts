import type { AssetsTable, Executor } from '../../db/tables.ts';

export function storageStore() {
  return {
    baseQuery: (ex: Executor) => ex.selectFrom('assets').selectAll(),

    find: (ex: Executor, id: string) => ex.selectFrom('assets').selectAll().where('id', '=', id).executeTakeFirst(),

    insert: async (ex: Executor, row: AssetsTable) => {
      await ex.insertInto('assets').values(row).execute();
    },

    /** Applies `changes` only while the asset is pending: of two uploads racing, one finishes it. Returns whether it did. */
    updateWhilePending: async (ex: Executor, id: string, changes: Partial<AssetsTable>) => {
      const result = await ex
        .updateTable('assets')
        .set(changes)
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

export type StorageStore = ReturnType<typeof storageStore>;
