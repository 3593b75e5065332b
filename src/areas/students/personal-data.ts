import type { Executor } from '../../db/tables.ts';

/** A person's enrollments and completed lessons, for the export of their own data (account area). */
export const learningRecord = {
  enrollments: (ex: Executor, userId: string) =>
    ex
      .selectFrom('enrollments')
      .select(['course_id', 'source', 'status', 'enrolled_at', 'expires_at', 'completed_at', 'progress_percent'])
      .where('user_id', '=', userId)
      .orderBy('enrolled_at')
      .execute(),

  lessonCompletions: (ex: Executor, userId: string) =>
    ex
      .selectFrom('lesson_progress')
      .select(['course_id', 'lesson_id', 'completed_at'])
      .where('user_id', '=', userId)
      .orderBy('completed_at')
      .execute(),
};
