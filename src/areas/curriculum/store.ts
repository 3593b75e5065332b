import type { Executor, LessonsTable, PlaybackPositionsTable, SectionsTable } from '../../db/tables.ts';

export function curriculumStore() {
  return {
    findSection: (ex: Executor, id: string) =>
      ex.selectFrom('sections').selectAll().where('id', '=', id).executeTakeFirst(),

    listSections: (ex: Executor, courseId: string, filter: { status?: SectionsTable['status'] }) => {
      let query = ex.selectFrom('sections').selectAll().where('course_id', '=', courseId);
      if (filter.status) query = query.where('status', '=', filter.status);
      return query.orderBy('position').orderBy('id').execute();
    },

    countSections: async (ex: Executor, courseId: string) =>
      Number(
        (
          await ex
            .selectFrom('sections')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('course_id', '=', courseId)
            .executeTakeFirstOrThrow()
        ).n,
      ),

    insertSection: async (ex: Executor, row: SectionsTable) => {
      await ex.insertInto('sections').values(row).execute();
    },

    updateSection: async (ex: Executor, id: string, changes: Partial<SectionsTable>) => {
      await ex.updateTable('sections').set(changes).where('id', '=', id).execute();
    },

    deleteSection: async (ex: Executor, id: string) => {
      await ex.deleteFrom('sections').where('id', '=', id).execute();
    },

    /** Moves the sections at or after `from` by `delta` places (+1 opens a gap, -1 closes one). */
    shiftSections: async (ex: Executor, courseId: string, from: number, delta: 1 | -1) => {
      await ex
        .updateTable('sections')
        .set((eb) => ({ position: eb('position', '+', delta) }))
        .where('course_id', '=', courseId)
        .where('position', '>=', from)
        .execute();
    },

    setSectionPosition: async (ex: Executor, id: string, position: number, at: string) => {
      await ex.updateTable('sections').set({ position, updated_at: at }).where('id', '=', id).execute();
    },

    findLesson: (ex: Executor, id: string) =>
      ex.selectFrom('lessons').selectAll().where('id', '=', id).executeTakeFirst(),

    /** A lesson with the section it sits in (for visibility and drip). */
    findLessonWithSection: (ex: Executor, id: string) =>
      ex
        .selectFrom('lessons')
        .innerJoin('sections', 'sections.id', 'lessons.section_id')
        .selectAll('lessons')
        .select(['sections.status as section_status', 'sections.drip_type', 'sections.drip_days', 'sections.drip_date'])
        .where('lessons.id', '=', id)
        .executeTakeFirst(),

    /** Every lesson of a course (of one status when given), in position order within their sections. */
    listCourseLessons: (ex: Executor, courseId: string, status: LessonsTable['status'] | undefined) => {
      let query = ex.selectFrom('lessons').selectAll().where('course_id', '=', courseId);
      if (status) query = query.where('status', '=', status);
      return query.orderBy('position').orderBy('id').execute();
    },

    /** The lessons progress counts: published lessons of published sections, in course order. */
    countedLessons: (ex: Executor, courseId: string) =>
      ex
        .selectFrom('lessons')
        .innerJoin('sections', 'sections.id', 'lessons.section_id')
        .select(['lessons.id', 'lessons.section_id', 'lessons.title'])
        .where('lessons.course_id', '=', courseId)
        .where('lessons.status', '=', 'published')
        .where('sections.status', '=', 'published')
        .orderBy('sections.position')
        .orderBy('lessons.position')
        .orderBy('lessons.id')
        .execute(),

    listLessons: (
      ex: Executor,
      sectionId: string,
      filter: { status?: LessonsTable['status']; type?: LessonsTable['type'] },
    ) => {
      let query = ex.selectFrom('lessons').selectAll().where('section_id', '=', sectionId);
      if (filter.status) query = query.where('status', '=', filter.status);
      if (filter.type) query = query.where('type', '=', filter.type);
      return query.orderBy('position').orderBy('id').execute();
    },

    countLessons: async (ex: Executor, sectionId: string) =>
      Number(
        (
          await ex
            .selectFrom('lessons')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('section_id', '=', sectionId)
            .executeTakeFirstOrThrow()
        ).n,
      ),

    insertLesson: async (ex: Executor, row: LessonsTable) => {
      await ex.insertInto('lessons').values(row).execute();
    },

    updateLesson: async (ex: Executor, id: string, changes: Partial<LessonsTable>) => {
      await ex.updateTable('lessons').set(changes).where('id', '=', id).execute();
    },

    deleteLesson: async (ex: Executor, id: string) => {
      await ex.deleteFrom('lessons').where('id', '=', id).execute();
    },

    /** Moves the lessons of a section at or after `from` by `delta` places (+1 opens a gap, -1 closes one). */
    shiftLessons: async (ex: Executor, sectionId: string, from: number, delta: 1 | -1) => {
      await ex
        .updateTable('lessons')
        .set((eb) => ({ position: eb('position', '+', delta) }))
        .where('section_id', '=', sectionId)
        .where('position', '>=', from)
        .execute();
    },

    /** Publishes every draft section and lesson of a course. */
    publishCourseDrafts: async (ex: Executor, courseId: string, at: string) => {
      const changes = { status: 'published' as const, updated_at: at };
      await ex
        .updateTable('sections')
        .set(changes)
        .where('course_id', '=', courseId)
        .where('status', '=', 'draft')
        .execute();
      await ex
        .updateTable('lessons')
        .set(changes)
        .where('course_id', '=', courseId)
        .where('status', '=', 'draft')
        .execute();
    },

    setLessonPosition: async (ex: Executor, id: string, position: number, at: string) => {
      await ex.updateTable('lessons').set({ position, updated_at: at }).where('id', '=', id).execute();
    },

    findPlayback: (ex: Executor, userId: string, lessonId: string) =>
      ex
        .selectFrom('playback_positions')
        .selectAll()
        .where('user_id', '=', userId)
        .where('lesson_id', '=', lessonId)
        .executeTakeFirst(),

    /**
     * Records where the person is in the lesson, unless they recorded it after `notAfter` (the throttle): decided by
     * the one statement that writes, so two saves at once cannot both pass. False when it was not written.
     */
    savePlayback: async (ex: Executor, row: PlaybackPositionsTable, notAfter: string) => {
      const result = await ex
        .insertInto('playback_positions')
        .values(row)
        .onConflict((oc) =>
          oc
            .columns(['user_id', 'lesson_id'])
            .doUpdateSet({ position_s: row.position_s, duration_s: row.duration_s, updated_at: row.updated_at })
            .where('playback_positions.updated_at', '<=', notAfter),
        )
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
  };
}

export type CurriculumStore = ReturnType<typeof curriculumStore>;
