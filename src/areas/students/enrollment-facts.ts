import type { EnrollmentsTable, Executor } from '../../db/tables.ts';

/** What other areas ask of enrollments (courses for who sees what and what is popular, curriculum for drip). */
export function enrollmentFacts() {
  return {
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
     * expired), with how many, most first. The window walks the enrollment ids backwards (ids are time-ordered), so
     * the cost is the same at any number of enrollments: counting them all took seconds at a million. No join here:
     * with a join, PostgreSQL on fresh statistics re-ran the window once per course (20 s at 10,000 courses).
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

    /** The person's enrollment in the course that gives access (active or completed), if any; expiry is the caller's. */
    accessEnrollment: (ex: Executor, courseId: string, userId: string) =>
      ex
        .selectFrom('enrollments')
        .select(['enrolled_at', 'expires_at'])
        .where('course_id', '=', courseId)
        .where('user_id', '=', userId)
        .where('status', 'in', ['active', 'completed'] satisfies EnrollmentsTable['status'][])
        .executeTakeFirst(),
  };
}

export type EnrollmentFacts = ReturnType<typeof enrollmentFacts>;
