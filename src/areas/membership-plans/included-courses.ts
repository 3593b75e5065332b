import { sql } from 'kysely';
import type { Executor } from '../../db/tables.ts';

/** The courses a plan "of every course" takes in: published, and reachable by their link (private ones are not sold). */
export const ALL_COURSES_VISIBILITIES = ['public', 'unlisted'] as const;

/**
 * The one rule of which courses each of `planIds` includes, as rows (plan_id, course_id, position): those listed in
 * plan_courses, in their order, and for a plan that includes every course, each published public or unlisted course
 * not listed, after them. Access, the plan as the API shows it and the agent documents all read it here, so a course
 * published today is in every such plan at once, with nothing to copy.
 */
export function includedCourses(ex: Executor, planIds: string[]) {
  const listed = ex
    .selectFrom('plan_courses')
    .select(['plan_courses.plan_id', 'plan_courses.course_id', 'plan_courses.position'])
    .where('plan_courses.plan_id', 'in', planIds);
  const byRule = ex
    .selectFrom('membership_plans as mp')
    .innerJoin('courses as c', (join) => join.onTrue())
    .select(['mp.id as plan_id', 'c.id as course_id', sql<number>`1000000`.as('position')])
    .where('mp.id', 'in', planIds)
    .where('mp.includes_all_courses', '=', 1)
    .where('c.status', '=', 'published')
    .where('c.visibility', 'in', ALL_COURSES_VISIBILITIES)
    .where(({ exists, not, selectFrom }) =>
      not(
        exists(
          selectFrom('plan_courses as pc')
            .select('pc.course_id')
            .whereRef('pc.plan_id', '=', 'mp.id')
            .whereRef('pc.course_id', '=', 'c.id'),
        ),
      ),
    );
  return listed.unionAll(byRule).as('included');
}
