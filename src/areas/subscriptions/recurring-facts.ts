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

    /**
     * When subscriptions pay, per price: how many paying at `first` (`at` null), then each start (+1) and stop (-1) of
     * paying after `first` up to `last`, in time order. A subscription pays from its creation, or the end of its
     * trial, until it is canceled or paused. The table keeps no history of states, so an earlier pause that was
     * resumed, or the price before a plan change, is not seen. Only the changes inside the range leave the database;
     * what a price costs, and whether it recurs, is the price's owner's to say.
     */
    payingChanges: async (ex: Executor, first: string, last: string) => {
      const { rows } = await sql<{ at: string | null; price_id: string; n: number | string }>`with span as (
          select s.price_id,
            case when s.trial_end > s.created_at then s.trial_end else s.created_at end as start_at,
            case when s.status = 'paused' and s.paused_at is not null
              and (s.canceled_at is null or s.paused_at < s.canceled_at) then s.paused_at else s.canceled_at end
              as end_at
          from subscriptions s
          where s.created_at <= ${last}
        ),
        paying as (select * from span where end_at is null or end_at > start_at)
        select null as at, price_id, count(*) as n from paying
          where start_at <= ${first} and (end_at is null or end_at > ${first})
          group by price_id
        union all
        select start_at, price_id, 1 from paying where start_at > ${first} and start_at <= ${last}
        union all
        select end_at, price_id, -1 from paying where end_at > ${first} and end_at <= ${last}
        order by 1`.execute(ex);
      return rows.map((r) => ({ at: r.at, price_id: r.price_id, n: Number(r.n) }));
    },
  };
}
