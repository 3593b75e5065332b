import type { CoursesTable, Executor } from '../../db/tables.ts';

export function coursesStore() {
  return {
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

    /** Ids of the courses a user is enrolled in (active or completed, and not past its expiry); or only `courseId`. */
    enrolledCourseIds: async (ex: Executor, userId: string, now: string, courseId?: string) => {
      let query = ex
        .selectFrom('enrollments')
        .select('course_id')
        .where('user_id', '=', userId)
        .where('status', 'in', ['active', 'completed'])
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
      if (courseId) query = query.where('course_id', '=', courseId);
      return (await query.execute()).map((r) => r.course_id);
    },

    /** Published courses of the given visibilities by current enrollments (active or completed, not expired), most first. */
    mostEnrolled: (ex: Executor, visibilities: CoursesTable['visibility'][], now: string, limit: number) =>
      ex
        .selectFrom('courses as c')
        .innerJoin('enrollments as e', 'e.course_id', 'c.id')
        .selectAll('c')
        .where('c.status', '=', 'published')
        .where('c.visibility', 'in', visibilities)
        .where('e.status', 'in', ['active', 'completed'])
        .where((eb) => eb.or([eb('e.expires_at', 'is', null), eb('e.expires_at', '>', now)]))
        .groupBy('c.id')
        .orderBy((eb) => eb.fn.countAll(), 'desc')
        .orderBy('c.id', 'desc')
        .limit(limit)
        .execute(),

    existingLecturerIds: async (ex: Executor, ids: string[]) =>
      ids.length === 0
        ? []
        : (await ex.selectFrom('lecturers').select('id').where('id', 'in', ids).execute()).map((r) => r.id),
  };
}

export type CoursesStore = ReturnType<typeof coursesStore>;
