import type { Executor } from '../../db/tables.ts';

/**
 * The courses a membership plan "of every course" takes in: published, and reachable by their link (private ones
 * are not sold), as a query of their ids. The membership plans area unions it into its rule of which courses each
 * plan includes (membership-plans/included-courses.ts), so a course published today is in every such plan at once.
 */
export const coursesInEveryPlan = (ex: Executor) =>
  ex
    .selectFrom('courses')
    .select('courses.id as course_id')
    .where('courses.status', '=', 'published')
    .where('courses.visibility', 'in', ['public', 'unlisted']);
