import { sql } from 'kysely';
import { bucketsCte } from '../../db/bucket-ranges.ts';
import type { Executor } from '../../db/tables.ts';

/** The analytics area's own table: the revenue rollup. What it counts of other areas it asks them (ports.ts). */
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
  };
}

export type AnalyticsStore = ReturnType<typeof analyticsStore>;
