import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Analytics: the revenue rollup and the time indexes the series read.
 *
 * revenue_slots sums the payment ledger per currency and 15-minute UTC slot ('YYYY-MM-DDTHH:MM'), written in the
 * transaction of each ledger row (orders/store.ts insertPayment). A 12-month revenue series then reads ~35,000 rows
 * per currency whatever the number of payments (summing the ledger itself took 160-230 ms at 500,000 payments a year
 * on PostgreSQL); 15 minutes, because every time zone's midnight falls on one, so the series can be bucketed by the
 * school's own days. Sums are bigint: one slot may hold more than 2^31 minor units.
 */
export const analytics: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('revenue_slots')
      .addColumn('slot', 'text', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('charged', 'bigint', (c) => c.notNull())
      .addColumn('refunded', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('revenue_slots_pk', ['slot', 'currency'])
      .execute();
    // Payments recorded before this migration (timestamps are fixed-width ISO text on both engines), in slot order as
    // later payments write them, so a range of slots is a range of pages.
    await sql`
      insert into revenue_slots (slot, currency, charged, refunded)
      select slot, currency,
        sum(case when kind = 'charge' then amount else 0 end),
        sum(case when kind = 'refund' then amount else 0 end)
      from (
        select currency, kind, amount, substr(created_at, 1, 14) || case
          when substr(created_at, 15, 2) < '15' then '00'
          when substr(created_at, 15, 2) < '30' then '15'
          when substr(created_at, 15, 2) < '45' then '30'
          else '45' end as slot
        from payments
      ) p
      group by slot, currency
      order by slot, currency`.execute(db);

    await db.schema.createIndex('enrollments_enrolled_at').on('enrollments').column('enrolled_at').execute();
    await db.schema.createIndex('enrollments_completed_at').on('enrollments').column('completed_at').execute();
    await db.schema.createIndex('lesson_progress_completed_at').on('lesson_progress').column('completed_at').execute();
    await db.schema
      .createIndex('lesson_progress_course_completed_at')
      .on('lesson_progress')
      .columns(['course_id', 'completed_at'])
      .execute();
    await db.schema.createIndex('subscriptions_created_at').on('subscriptions').column('created_at').execute();
    await db.schema.createIndex('subscriptions_canceled_at').on('subscriptions').column('canceled_at').execute();
  },
};
