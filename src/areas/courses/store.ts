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

    /**
     * The courses most of the school's latest `window` enrollments went to (those still active or completed and not
     * expired), with
     * how many, most first. The window walks the enrollment ids backwards (ids are time-ordered), so the cost is the
     * same at any number of enrollments: counting them all took seconds at a million. No join here: with a join,
     * PostgreSQL on fresh statistics re-ran the window once per course (20 s at 10,000 courses).
     */
    enrollmentLeaders: async (ex: Executor, now: string, limit: number, window: number) => {
      const rows = await ex
        .selectFrom((eb) =>
          // Unfiltered, so the id index serves it whatever the planner's statistics say (a filter here made
          // PostgreSQL scan the whole table when it misjudged how many rows pass).
          eb
            .selectFrom('enrollments')
            .select(['course_id', 'status', 'expires_at'])
            .orderBy('id', 'desc')
            .limit(window)
            .as('e'),
        )
        .where('e.status', 'in', ['active', 'completed'])
        .where((w) => w.or([w('e.expires_at', 'is', null), w('e.expires_at', '>', now)]))
        .select(['e.course_id', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('e.course_id')
        .orderBy('n', 'desc')
        .orderBy('e.course_id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ courseId: r.course_id, enrollments: Number(r.n) }));
    },

    /** Published courses of the given visibilities among `ids`. */
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

    existingLecturerIds: async (ex: Executor, ids: string[]) =>
      ids.length === 0
        ? []
        : (await ex.selectFrom('lecturers').select('id').where('id', 'in', ids).execute()).map((r) => r.id),
  };
}

export type CoursesStore = ReturnType<typeof coursesStore>;
