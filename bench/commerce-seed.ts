import { type RawBuilder, sql } from 'kysely';
import type { Db, Engine } from '../src/db/tables.ts';

/** Orders seeded by default (BENCH_ORDERS), subscriptions (BENCH_SUBSCRIPTIONS), buyers and courses sold. */
export const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
export const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 20_000);
const BUYERS = 10_000;
export const COURSES = 200;
const SPAN_S = 2 * 365 * 86_400;

/** What differs between the engines' SQL: a sequence 1…n as rows g(n), zero-padding, and seconds to ISO text. */
function dialect(engine: Engine) {
  return engine === 'postgres'
    ? {
        seq: (n: number) => sql`generate_series(1, ${sql.lit(n)}) as g(n)`,
        pad: (expr: RawBuilder<unknown>) => sql`lpad((${expr})::text, 26, '0')`,
        iso: (seconds: RawBuilder<unknown>) =>
          sql`to_char(to_timestamp(${seconds}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
      }
    : {
        seq: (n: number) =>
          sql`(with recursive s(n) as (select 1 union all select n + 1 from s where n < ${sql.lit(n)}) select n from s) as g`,
        pad: (expr: RawBuilder<unknown>) => sql`printf('%026d', ${expr})`,
        iso: (seconds: RawBuilder<unknown>) => sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${seconds}, 'unixepoch')`,
      };
}

/**
 * Orders 1…ORDERS, order n created `n × SPAN_S / ORDERS` seconds after the start: 85 % paid, 5 % refunded (the
 * whole), 5 % partially refunded (half), 3 % failed, 2 % pending; three in four in EUR. Each paid or refunded order has
 * its charge, each refunded one its refund three days later. Subscriptions to a monthly and a yearly price with a
 * trial, a tenth of them canceled. The revenue rollup is filled as migration 015 fills it, in slot order: as payments
 * arriving over time write it (PostgreSQL's unordered aggregate put every slot on a page of its own, 52 ms against 33).
 */
export async function seedCommerce(db: Db, engine: Engine) {
  const { seq, pad, iso } = dialect(engine);
  const start = Math.floor(Date.now() / 1000) - SPAN_S;
  const at = (n: RawBuilder<unknown>, plus = sql`0`) =>
    iso(sql`${sql.lit(start)} + cast(${n} as bigint) * ${sql.lit(SPAN_S)} / ${sql.lit(ORDERS)} + ${plus}`);
  const now = new Date().toISOString();
  await sql`create table bench_courses (k integer primary key, id text not null)`.execute(db);
  const courseIds = (await db.selectFrom('courses').select('id').orderBy('id').limit(COURSES).execute()).map(
    (c) => c.id,
  );
  await db
    .insertInto('bench_courses' as never)
    .values(courseIds.map((id, k) => ({ k, id })) as never)
    .execute();
  const hash = (await db.selectFrom('users').select('password_hash').limit(1).executeTakeFirstOrThrow()).password_hash;
  await sql`insert into users (id, email, name, role, status, password_hash, locale, email_verified, created_at, updated_at)
    select 'usr_' || ${pad(sql`n`)}, 'buyer' || n || '@school.test', 'Buyer ' || n, 'student', 'active', ${hash}, null, 1,
      ${now}, ${now}
    from ${seq(BUYERS)}`.execute(db);
  const status = sql`case when n % 100 < 85 then 'paid' when n % 100 < 90 then 'refunded'
    when n % 100 < 95 then 'partially_refunded' when n % 100 < 98 then 'failed' else 'pending' end`;
  const currency = sql`case when n % 4 = 0 then 'USD' else 'EUR' end`;
  const total = sql`(1900 + (n % 50) * 100)`;
  const refunded = sql`case when n % 100 between 85 and 89 then ${total} when n % 100 between 90 and 94 then ${total} / 2 else 0 end`;
  await sql`insert into orders (id, number, user_id, kind, status, currency, subtotal, discount, total, refunded_amount,
      coupon_id, coupon_code, provider, provider_ref, subscription_id, failure_reason, paid_at, created_at, updated_at)
    select 'ord_' || ${pad(sql`n`)}, 1000 + n, 'usr_' || ${pad(sql`1 + n % ${sql.lit(BUYERS)}`)}, 'purchase', ${status},
      ${currency}, ${total}, 0, ${total}, ${refunded}, null, null, 'test', 'chk_' || n, null, null,
      case when n % 100 < 95 then ${at(sql`n`, sql`60`)} end, ${at(sql`n`)}, ${at(sql`n`)}
    from ${seq(ORDERS)}`.execute(db);
  await sql`update counters set value = ${1000 + ORDERS} where name = 'order_number'`.execute(db);
  await sql`insert into order_items (id, order_id, item_type, item_id, price_id, title, unit_amount, discount, amount,
      currency)
    select 'oit_' || ${pad(sql`n`)}, 'ord_' || ${pad(sql`n`)}, 'course', c.id, null, 'Course', ${total}, 0, ${total},
      ${currency}
    from ${seq(ORDERS)} join bench_courses c on c.k = g.n % ${sql.lit(COURSES)}`.execute(db);
  await sql`insert into payments (id, order_id, kind, amount, currency, provider, provider_ref, created_at)
    select 'pay_' || ${pad(sql`2 * n`)}, 'ord_' || ${pad(sql`n`)}, 'charge', ${total}, ${currency}, 'test', 'pi_' || n,
      ${at(sql`n`, sql`60`)}
    from ${seq(ORDERS)} where n % 100 < 95`.execute(db);
  await sql`insert into payments (id, order_id, kind, amount, currency, provider, provider_ref, created_at)
    select 'pay_' || ${pad(sql`2 * n + 1`)}, 'ord_' || ${pad(sql`n`)}, 'refund', ${refunded}, ${currency}, 'test',
      're_' || n, ${at(sql`n`, sql`259200`)}
    from ${seq(ORDERS)} where n % 100 between 85 and 94`.execute(db);
  await sql`insert into revenue_slots (slot, currency, charged, refunded)
    select slot, currency, sum(case when kind = 'charge' then amount else 0 end),
      sum(case when kind = 'refund' then amount else 0 end)
    from (select currency, kind, amount, substr(created_at, 1, 14) || case
        when substr(created_at, 15, 2) < '15' then '00' when substr(created_at, 15, 2) < '30' then '15'
        when substr(created_at, 15, 2) < '45' then '30' else '45' end as slot
      from payments) p
    group by slot, currency
    order by slot, currency`.execute(db);

  const epoch = new Date(start * 1000).toISOString();
  await sql`insert into membership_plans (id, name, slug, description, benefits, visibility, status, archived_at,
      created_at, updated_at)
    values ('pln_bench', 'Studio', 'studio', '', '[]', 'public', 'active', null, ${epoch}, ${epoch})`.execute(db);
  await sql`insert into plan_prices (id, plan_id, amount, currency, interval, trial_days, status, provider_price_id,
      archived_at, created_at)
    values ('prc_month', 'pln_bench', 1500, 'EUR', 'month', 14, 'active', null, null, ${epoch}),
      ('prc_year', 'pln_bench', 15000, 'EUR', 'year', 14, 'active', null, null, ${epoch})`.execute(db);
  const subAt = (plus = sql`0`) =>
    iso(sql`${sql.lit(start)} + cast(n as bigint) * ${sql.lit(SPAN_S)} / ${sql.lit(SUBSCRIPTIONS)} + ${plus}`);
  await sql`insert into subscriptions (id, user_id, plan_id, price_id, status, trial_end, current_period_start,
      current_period_end, cancel_at_period_end, canceled_at, paused_at, next_price_id, provider, provider_ref,
      provider_synced_at, order_id, created_at, updated_at)
    select 'sub_' || ${pad(sql`n`)}, 'usr_' || ${pad(sql`1 + n % ${sql.lit(BUYERS)}`)}, 'pln_bench',
      case when n % 3 = 0 then 'prc_year' else 'prc_month' end,
      case when n % 10 = 0 then 'canceled' else 'active' end, ${subAt(sql`1209600`)}, ${subAt()}, null, 0,
      case when n % 10 = 0 then ${subAt(sql`7776000`)} end, null, null, 'test', 'tsub_' || n, null, null,
      ${subAt()}, ${subAt()}
    from ${seq(SUBSCRIPTIONS)}`.execute(db);
  await sql`drop table bench_courses`.execute(db);
  for (const table of ['users', 'orders', 'order_items', 'payments', 'revenue_slots', 'subscriptions'])
    await sql`analyze ${sql.table(table)}`.execute(db);
  return { course: courseIds[1] as string };
}
