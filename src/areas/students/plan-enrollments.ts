import type { Executor } from '../../db/tables.ts';

/**
 * A person's enrollments that a plan gave (source `subscription`), or that are in one of `courseIds`: what the
 * subscriptions area's plan access compares with the courses the person's plans give now.
 */
export const planEnrollments = (ex: Executor, userId: string, courseIds: string[]) =>
  ex
    .selectFrom('enrollments')
    .select(['id', 'course_id', 'source', 'status', 'expires_at'])
    .where('user_id', '=', userId)
    .where((eb) =>
      courseIds.length
        ? eb.or([eb('source', '=', 'subscription'), eb('course_id', 'in', courseIds)])
        : eb('source', '=', 'subscription'),
    )
    .execute();
