import type { CoursesTable, Executor } from '../../db/tables.ts';

export function coursesStore() {
  return {
    /** Which of `ids` are courses (another area's input may name them). */
    existingIds: async (ex: Executor, ids: string[]) =>
      (await ex.selectFrom('courses').select('id').where('id', 'in', ids).execute()).map((r) => r.id),

    baseQuery: (ex: Executor) => ex.selectFrom('courses').selectAll(),

    findByIdOrSlug: (ex: Executor, key: string) =>
      ex
        .selectFrom('courses')
        .selectAll()
        .where((eb) => eb.or([eb('id', '=', key), eb('slug', '=', key)]))
        .executeTakeFirst(),

    findById: (ex: Executor, id: string) =>
      ex.selectFrom('courses').selectAll().where('id', '=', id).executeTakeFirst(),

    slugTaken: async (ex: Executor, slug: string, exceptId?: string) => {
      let query = ex.selectFrom('courses').select('id').where('slug', '=', slug);
      if (exceptId) query = query.where('id', '!=', exceptId);
      return (await query.executeTakeFirst()) !== undefined;
    },

    insert: async (ex: Executor, row: CoursesTable) => {
      await ex.insertInto('courses').values(row).execute();
    },

    update: async (ex: Executor, id: string, changes: Partial<CoursesTable>) => {
      await ex.updateTable('courses').set(changes).where('id', '=', id).execute();
    },

    delete: async (ex: Executor, id: string) => {
      await ex.deleteFrom('courses').where('id', '=', id).execute();
    },

    /**
     * Applies `changes` only while the course is in one of `statuses` (and, with `needsTitle`, has a title): the rule
     * is decided by the same statement that writes, so two racing writes cannot both pass it. Returns whether it did.
     */
    updateWhile: async (
      ex: Executor,
      id: string,
      statuses: CoursesTable['status'][],
      changes: Partial<CoursesTable>,
      needsTitle = false,
    ) => {
      let query = ex.updateTable('courses').set(changes).where('id', '=', id).where('status', 'in', statuses);
      if (needsTitle) query = query.where('title', '!=', '');
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Deletes the course only while it is a draft; returns whether it did. */
    deleteDraft: async (ex: Executor, id: string) => {
      const result = await ex
        .deleteFrom('courses')
        .where('id', '=', id)
        .where('status', '=', 'draft')
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    /**
     * Takes the course row's write lock until the transaction ends, by a no-op update (PostgreSQL; SQLite already runs
     * one writing transaction at a time).
     */
    lock: async (ex: Executor, id: string) => {
      await ex
        .updateTable('courses')
        .set((eb) => ({ updated_at: eb.ref('updated_at') }))
        .where('id', '=', id)
        .execute();
    },

    findByIds: (ex: Executor, ids: string[]) =>
      ids.length === 0 ? Promise.resolve([]) : ex.selectFrom('courses').selectAll().where('id', 'in', ids).execute(),

    /** Published courses of the given visibilities among `ids`. */
    publishedAmong: (ex: Executor, ids: string[], visibilities: CoursesTable['visibility'][]) =>
      ids.length === 0
        ? Promise.resolve([])
        : ex
            .selectFrom('courses')
            .selectAll()
            .where('id', 'in', ids)
            .where('status', '=', 'published')
            .where('visibility', 'in', visibilities)
            .execute(),

    /** What other areas show of a course (a title, a link) and decide by (its status), for each of `ids`. */
    facts: (ex: Executor, ids: string[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : ex.selectFrom('courses').select(['id', 'title', 'slug', 'status']).where('id', 'in', ids).execute(),

    /** Ids of the courses whose lecturer_ids (a JSON array of strings) lists the lecturer. */
    idsListingLecturer: async (ex: Executor, lecturerId: string) =>
      (
        await ex
          .selectFrom('courses')
          .select('id')
          .where('lecturer_ids', 'like', `%"${lecturerId}"%`)
          .orderBy('id')
          .execute()
      ).map((r) => r.id),
  };
}

export type CoursesStore = ReturnType<typeof coursesStore>;
