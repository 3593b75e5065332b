import type { Executor, PagesTable } from '../../db/tables.ts';

export function pagesStore() {
  return {
    /** Which of `ids` are pages (a form may be placed on one). */
    existingIds: async (ex: Executor, ids: string[]) =>
      (await ex.selectFrom('pages').select('id').where('id', 'in', ids).execute()).map((r) => r.id),

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

    /** Deletes the page unless it is published, deciding in the statement itself; returns whether it went. */
    deleteUnpublished: async (ex: Executor, id: string) => {
      const result = await ex
        .deleteFrom('pages')
        .where('id', '=', id)
        .where('status', '<>', 'published')
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type PagesStore = ReturnType<typeof pagesStore>;
