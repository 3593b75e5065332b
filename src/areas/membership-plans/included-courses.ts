import { sql } from 'kysely';
import type { Executor } from '../../db/tables.ts';
import type { CoursesInEveryPlan } from './ports.ts';

/**
 * The one rule of which courses each of `planIds` includes, as rows (plan_id, course_id, position): those listed in
 * plan_courses, in their order, and for a plan that includes every course, each course the courses area says such a
 * plan takes in (`inEveryPlan`: published, public or unlisted) not listed, after them. Access, the plan as the API
 * shows it and the agent documents all read it here, so a course published today is in every such plan at once,
 * with nothing to copy.
 */
export function includedCourses(ex: Executor, planIds: string[], inEveryPlan: CoursesInEveryPlan) {
  const listed = ex
    .selectFrom('plan_courses')
    .select(['plan_courses.plan_id', 'plan_courses.course_id', 'plan_courses.position'])
    .where('plan_courses.plan_id', 'in', planIds);
  const byRule = ex
    .selectFrom('membership_plans as mp')
    .innerJoin(inEveryPlan(ex).as('c'), (join) => join.onTrue())
    .select(['mp.id as plan_id', 'c.course_id', sql<number>`1000000`.as('position')])
    .where('mp.id', 'in', planIds)
    .where('mp.includes_all_courses', '=', 1)
    .where(({ exists, not, selectFrom }) =>
      not(
        exists(
          selectFrom('plan_courses as pc')
            .select('pc.course_id')
            .whereRef('pc.plan_id', '=', 'mp.id')
            .whereRef('pc.course_id', '=', 'c.course_id'),
        ),
      ),
    );
  return listed.unionAll(byRule).as('included');
}

/** The rule's rows of `planIds`, by position, then course id: what each plan gives now, its list first. */
export const includedCourseRows = (inEveryPlan: CoursesInEveryPlan) => (ex: Executor, planIds: string[]) =>
  planIds.length === 0
    ? Promise.resolve([])
    : ex
        .selectFrom(includedCourses(ex, planIds, inEveryPlan))
        .selectAll()
        .orderBy('position')
        .orderBy('course_id')
        .execute();
