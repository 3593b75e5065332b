import { sql } from 'kysely';
import type { Executor } from '../../db/tables.ts';

/** A course's share of each ledger row of its orders: the row times the item's part of the order's total. */
const courseShare = sql<number>`cast(p.amount as bigint) * oi.amount / o.total`;

/** The ledger as one course's share of it, for analytics (analytics/ports.ts LedgerFacts). */
export function courseLedger() {
  return {
    /**
     * The ledger rows of a course's orders between two instants, each as the course's share (negative for refunds):
     * few enough per course to be bucketed by the caller.
     */
    rowsBetween: async (ex: Executor, courseId: string, from: string, to: string) => {
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

    /** A course's share of the ledger per currency, all time. */
    totals: async (ex: Executor, courseId: string) => {
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
