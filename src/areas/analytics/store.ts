import { sql } from 'kysely';
import { bucketsCte } from '../../db/bucket-ranges.ts';
import type { Executor } from '../../db/tables.ts';

/**
 * The analytics area's own table, the revenue rollup; what it counts of other areas it asks them (ports.ts). Still
 * here: monthly recurring revenue, a join of the subscriptions and their plans' prices.
 */
export function analyticsStore() {
  return {
    /** Charges minus refunds per bucket and currency, from the rollup; `slots` are the edges as revenue slots. */
    revenuePerBucket: async (ex: Executor, slots: string[]) => {
      const { rows } = await sql<{ i: number; currency: string; amount: number | string }>`with ${bucketsCte(slots)}
        select b.i as i, r.currency as currency, sum(r.charged) - sum(r.refunded) as amount
        from b join revenue_slots r on r.slot >= b.s and r.slot < b.e
        group by b.i, r.currency`.execute(ex);
      return rows.map((r) => ({ i: Number(r.i), currency: r.currency, amount: Number(r.amount) }));
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
  };
}

export type AnalyticsStore = ReturnType<typeof analyticsStore>;
