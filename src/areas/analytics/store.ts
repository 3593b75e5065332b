import { sql } from 'kysely';
import { bucketsCte } from '../../db/bucket-ranges.ts';
import type { CoursesTable, Executor } from '../../db/tables.ts';
import type { CountMetric } from './schema.ts';

/**
 * Where each counted metric is read: the table, the timestamp that places a row in a bucket, whether people are
 * counted once per bucket (distinct user_id) rather than rows, and the column a course filter narrows.
 */
const COUNTED: Record<CountMetric, { table: string; at: string; people: boolean; course?: string }> = {
  enrollments: { table: 'enrollments', at: 'enrolled_at', people: false, course: 'course_id' },
  completions: { table: 'enrollments', at: 'completed_at', people: false, course: 'course_id' },
  active_students: { table: 'lesson_progress', at: 'completed_at', people: true, course: 'course_id' },
  new_members: { table: 'subscriptions', at: 'created_at', people: true },
  churned_members: { table: 'subscriptions', at: 'canceled_at', people: true },
};

/** A course's share of each ledger row of its orders: the row times the item's part of the order's total. */
const courseShare = sql<number>`cast(p.amount as bigint) * oi.amount / o.total`;

export function analyticsStore() {
  return {
    findCourse: (ex: Executor, id: string) =>
      ex.selectFrom('courses').select(['id', 'title']).where('id', '=', id).executeTakeFirst(),

    /** For the per-course list: the courses, narrowed by status, paginated by the caller. */
    coursesQuery: (ex: Executor, status?: CoursesTable['status']) => {
      let query = ex.selectFrom('courses').select(['id', 'title', 'created_at']);
      if (status) query = query.where('status', '=', status);
      return query;
    },

    /** Events that have started (not canceled), with their seat holders and how many of them attended. */
    eventAttendanceQuery: (ex: Executor, now: string) =>
      ex
        .selectFrom('events')
        .select(['events.id', 'events.title', 'events.starts_at', 'events.created_at'])
        .select((eb) => [
          eb
            .selectFrom('event_registrations as r')
            .select(eb.fn.countAll<number | string>().as('n'))
            .whereRef('r.event_id', '=', 'events.id')
            .where('r.status', '=', 'registered')
            .as('registered'),
          eb
            .selectFrom('event_registrations as r')
            .select(eb.fn.countAll<number | string>().as('n'))
            .whereRef('r.event_id', '=', 'events.id')
            .where('r.status', '=', 'registered')
            .where('r.attended', '=', 1)
            .as('attended'),
        ])
        .where('events.canceled_at', 'is', null)
        .where('events.starts_at', '<=', now),

    /** How many rows (or people) each bucket between `edges` holds; buckets with none are absent. */
    countsPerBucket: async (ex: Executor, metric: CountMetric, edges: string[], courseId?: string) => {
      const { table, at, people, course } = COUNTED[metric];
      const counted = people ? sql`count(distinct x.user_id)` : sql`count(*)`;
      const narrowed = courseId && course ? sql` and ${sql.ref(`x.${course}`)} = ${courseId}` : sql``;
      const column = sql.ref(`x.${at}`);
      const { rows } = await sql<{ i: number; n: number | string }>`with ${bucketsCte(edges)}
        select b.i as i, ${counted} as n
        from b join ${sql.table(table)} x on ${column} >= b.s and ${column} < b.e${narrowed}
        group by b.i`.execute(ex);
      return new Map(rows.map((r) => [Number(r.i), Number(r.n)]));
    },

    /** Charges minus refunds per bucket and currency, from the rollup; `slots` are the edges as revenue slots. */
    revenuePerBucket: async (ex: Executor, slots: string[]) => {
      const { rows } = await sql<{ i: number; currency: string; amount: number | string }>`with ${bucketsCte(slots)}
        select b.i as i, r.currency as currency, sum(r.charged) - sum(r.refunded) as amount
        from b join revenue_slots r on r.slot >= b.s and r.slot < b.e
        group by b.i, r.currency`.execute(ex);
      return rows.map((r) => ({ i: Number(r.i), currency: r.currency, amount: Number(r.amount) }));
    },

    /**
     * The ledger rows of a course's orders between two instants, each as the course's share (negative for refunds):
     * few enough per course to be bucketed by the caller.
     */
    courseLedger: async (ex: Executor, courseId: string, from: string, to: string) => {
      const rows = await ex
        .selectFrom('order_items as oi')
        .innerJoin('orders as o', 'o.id', 'oi.order_id')
        .innerJoin('payments as p', 'p.order_id', 'oi.order_id')
        .select(['p.created_at as at', 'p.currency as currency', 'p.kind as kind', courseShare.as('share')])
        .where('oi.item_type', '=', 'course')
        .where('oi.item_id', '=', courseId)
        .where('o.total', '>', 0)
        .where('p.created_at', '>=', from)
        .where('p.created_at', '<', to)
        .execute();
      return rows.map((r) => ({
        at: r.at,
        currency: r.currency,
        amount: r.kind === 'refund' ? -Number(r.share) : Number(r.share),
      }));
    },

    /**
     * Monthly recurring revenue's changes, per currency and price interval: what the subscriptions paying at `first`
     * pay per interval (`at` null), then each start (+) and stop (-) of paying after `first` up to `last`, in time
     * order. A subscription to a month or year price pays from its creation, or the end of its trial, until it is
     * canceled or paused. The table keeps no history of states, so an earlier pause that was resumed, or the price
     * before a plan change, is not seen. Only the changes inside the range leave the database.
     */
    recurringChanges: async (ex: Executor, first: string, last: string) => {
      const { rows } = await sql<{
        at: string | null;
        currency: string;
        interval: 'month' | 'year';
        amount: number | string;
      }>`with span as (
          select pp.amount, pp.currency, pp.interval,
            case when s.trial_end > s.created_at then s.trial_end else s.created_at end as start_at,
            case when s.status = 'paused' and s.paused_at is not null
              and (s.canceled_at is null or s.paused_at < s.canceled_at) then s.paused_at else s.canceled_at end
              as end_at
          from subscriptions s join plan_prices pp on pp.id = s.price_id
          where pp.interval in ('month', 'year') and s.created_at <= ${last}
        ),
        paying as (select * from span where end_at is null or end_at > start_at)
        select null as at, currency, interval, sum(amount) as amount from paying
          where start_at <= ${first} and (end_at is null or end_at > ${first})
          group by currency, interval
        union all
        select start_at, currency, interval, amount from paying where start_at > ${first} and start_at <= ${last}
        union all
        select end_at, currency, interval, -amount from paying where end_at > ${first} and end_at <= ${last}
        order by 1`.execute(ex);
      return rows.map((r) => ({ ...r, amount: Number(r.amount) }));
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

    /** A course's share of the ledger per currency, all time. */
    courseRevenue: async (ex: Executor, courseId: string) => {
      const rows = await ex
        .selectFrom('order_items as oi')
        .innerJoin('orders as o', 'o.id', 'oi.order_id')
        .innerJoin('payments as p', 'p.order_id', 'oi.order_id')
        .select([
          'p.currency as currency',
          sql<number | string>`sum(case when p.kind = 'refund' then -(${courseShare}) else ${courseShare} end)`.as(
            'amount',
          ),
        ])
        .where('oi.item_type', '=', 'course')
        .where('oi.item_id', '=', courseId)
        .where('o.total', '>', 0)
        .groupBy('p.currency')
        .orderBy('p.currency')
        .execute();
      return rows.map((r) => ({ currency: r.currency, amount: Number(r.amount) }));
    },
  };
}

export type AnalyticsStore = ReturnType<typeof analyticsStore>;
