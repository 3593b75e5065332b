import { sql } from 'kysely';
import { bucketsCte } from '../../db/bucket-ranges.ts';
import type { Executor } from '../../db/tables.ts';

/** What the subscriptions tell analytics per bucket of time: people who subscribed, and who canceled. */
export type MembershipMetric = 'new_members' | 'churned_members';

const AT: Record<MembershipMetric, string> = { new_members: 'created_at', churned_members: 'canceled_at' };

/** Subscriptions counted for analytics (analytics/ports.ts RecurringFacts). */
export function recurringFacts() {
  return {
    /** How many people each bucket between `edges` holds; buckets with none are absent. */
    perBucket: async (ex: Executor, metric: MembershipMetric, edges: string[]) => {
      const column = sql.ref(`x.${AT[metric]}`);
      const { rows } = await sql<{ i: number; n: number | string }>`with ${bucketsCte(edges)}
        select b.i as i, count(distinct x.user_id) as n
        from b join subscriptions x on ${column} >= b.s and ${column} < b.e
        group by b.i`.execute(ex);
      return new Map(rows.map((r) => [Number(r.i), Number(r.n)]));
    },
  };
}
