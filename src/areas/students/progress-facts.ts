import { sql } from 'kysely';
import { bucketsCte } from '../../db/bucket-ranges.ts';
import type { Executor } from '../../db/tables.ts';

/** What the students' rows tell analytics, per bucket of time or per course. */
export type LearningMetric = 'enrollments' | 'completions' | 'active_students';

/**
 * Where each metric is read: the table, the timestamp that places a row in a bucket, and whether people are counted
 * once per bucket (distinct user_id) rather than rows.
 */
const COUNTED: Record<LearningMetric, { table: 'enrollments' | 'lesson_progress'; at: string; people: boolean }> = {
  enrollments: { table: 'enrollments', at: 'enrolled_at', people: false },
  completions: { table: 'enrollments', at: 'completed_at', people: false },
  active_students: { table: 'lesson_progress', at: 'completed_at', people: true },
};

/** Enrollments, completions and lesson progress counted for analytics (analytics/ports.ts LearningFacts). */
export function progressFacts() {
  return {
    /** How many rows (or people) each bucket between `edges` holds, of one course or all; empty buckets are absent. */
    perBucket: async (ex: Executor, metric: LearningMetric, edges: string[], courseId?: string) => {
      const { table, at, people } = COUNTED[metric];
      const counted = people ? sql`count(distinct x.user_id)` : sql`count(*)`;
      const narrowed = courseId ? sql` and ${sql.ref('x.course_id')} = ${courseId}` : sql``;
      const column = sql.ref(`x.${at}`);
      const { rows } = await sql<{ i: number; n: number | string }>`with ${bucketsCte(edges)}
        select b.i as i, ${counted} as n
        from b join ${sql.table(table)} x on ${column} >= b.s and ${column} < b.e${narrowed}
        group by b.i`.execute(ex);
      return new Map(rows.map((r) => [Number(r.i), Number(r.n)]));
    },

    /** Enrollments and completions of each course of `ids`. */
    enrollmentTotals: async (ex: Executor, ids: string[]) => {
      const rows = await ex
        .selectFrom('enrollments')
        .select((eb) => ['course_id', eb.fn.countAll().as('n'), eb.fn.count('completed_at').as('completed')])
        .where('course_id', 'in', ids)
        .groupBy('course_id')
        .execute();
      return new Map(rows.map((r) => [r.course_id, { enrollments: Number(r.n), completions: Number(r.completed) }]));
    },

    /** People who completed a lesson of each course of `ids` since `since`. */
    activeStudents: async (ex: Executor, ids: string[], since: string) => {
      const rows = await ex
        .selectFrom('lesson_progress')
        .select((eb) => ['course_id', eb.fn.count('user_id').distinct().as('n')])
        .where('course_id', 'in', ids)
        .where('completed_at', '>=', since)
        .groupBy('course_id')
        .execute();
      return new Map(rows.map((r) => [r.course_id, Number(r.n)]));
    },
  };
}
