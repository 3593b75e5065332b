import type { Executor, PagesTable } from '../../db/tables.ts';

export function pagesStore() {
  return {
    baseQuery: (ex: Executor) => ex.selectFrom('pages').selectAll(),

    findByIdOrSlug: (ex: Executor, key: string) =>
      ex
        .selectFrom('pages')
        .selectAll()
        .where((eb) => eb.or([eb('id', '=', key), eb('slug', '=', key)]))
        .executeTakeFirst(),

    findById: (ex: Executor, id: string) => ex.selectFrom('pages').selectAll().where('id', '=', id).executeTakeFirst(),

    slugTaken: async (ex: Executor, slug: string, exceptId?: string) => {
      let query = ex.selectFrom('pages').select('id').where('slug', '=', slug);
      if (exceptId) query = query.where('id', '!=', exceptId);
      return (await query.executeTakeFirst()) !== undefined;
    },

    insert: async (ex: Executor, row: PagesTable) => {
      await ex.insertInto('pages').values(row).execute();
    },

    update: async (ex: Executor, id: string, changes: Partial<PagesTable>) => {
      await ex.updateTable('pages').set(changes).where('id', '=', id).execute();
    },

    /**
     * Takes the page's row lock until the transaction ends (a no-op update: PostgreSQL row lock; SQLite already runs
     * one writing transaction at a time), so what a write checks cannot change before it writes. False: no such page.
     */
    lock: async (ex: Executor, id: string) => {
      const result = await ex
        .updateTable('pages')
        .set((eb) => ({ updated_at: eb.ref('updated_at') }))
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Deletes the page unless it is published, deciding in the statement itself; returns how many rows went. */
    deleteUnpublished: async (ex: Executor, id: string) => {
      const result = await ex
        .deleteFrom('pages')
        .where('id', '=', id)
        .where('status', '<>', 'published')
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type PagesStore = ReturnType<typeof pagesStore>;
