import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { addToRevenueRollup } from '../../src/areas/analytics/revenue-rollup.ts';
import { ordersStore } from '../../src/areas/orders/store.ts';
import { newId } from '../../src/db/ids.ts';
import type { Db } from '../../src/db/tables.ts';
import {
  apiClient,
  createUser,
  insufficientScopeChallenge,
  type Person,
  schoolWithPeople,
  tokenFor,
} from '../support/api.ts';
import { publishWithALesson } from '../support/course-content.ts';
import { engines } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { csrfOf, WebClient } from '../support/web-client.ts';

type Client = ReturnType<typeof apiClient>;
type Amount = { currency: string; amount: number };
type Point = { start: string; value?: number; values?: Amount[] };
type Series = { metric: string; interval: string; from: string; to: string; timezone: string; series: Point[] };
type Stats = {
  course_id: string;
  title: string;
  enrollments: number;
  completions: number;
  completion_rate: number;
  active_students_30d: number;
  revenue: Amount[];
};
type Interval = 'day' | 'week' | 'month';

const ok = <T>(response: { status: number; body: unknown }, status = 200) => {
  assert.equal(response.status, status, JSON.stringify(response.body));
  return response.body as T;
};

// ---- The test's own calendar: instants to the school's local dates through Intl, then to bucket keys. ----

const localDate = (instant: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(instant),
  );
const shiftDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
function keyOf(date: string, interval: Interval) {
  if (interval === 'day') return date;
  if (interval === 'month') return `${date.slice(0, 7)}-01`;
  return shiftDays(date, -((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7));
}
/** The bucket keys of from…to, in order. */
function keysBetween(from: string, to: string, interval: Interval) {
  const keys: string[] = [];
  for (let day = from; day <= to; day = shiftDays(day, 1)) {
    const key = keyOf(day, interval);
    if (keys.at(-1) !== key) keys.push(key);
  }
  return keys;
}
/** The last day of the bucket starting at `key`. */
function lastDayOf(key: string, interval: Interval) {
  if (interval === 'day') return key;
  if (interval === 'week') return shiftDays(key, 6);
  const [y, m] = key.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/** Counts per bucket: rows, or distinct people when `person` is given. */
function expectedCounts(
  rows: { at: string | null; person?: string }[],
  keys: string[],
  interval: Interval,
  timeZone: string,
): Point[] {
  const seen = new Map<string, Set<string>>(keys.map((k) => [k, new Set()]));
  rows.forEach((row, n) => {
    if (!row.at) return;
    seen.get(keyOf(localDate(row.at, timeZone), interval))?.add(row.person ?? String(n));
  });
  return keys.map((start) => ({ start, value: seen.get(start)?.size ?? 0 }));
}

/** Money per bucket and currency; the currencies with a non-zero figure somewhere, else the fallback. */
function moneySeries(keys: string[], amountOf: (key: string) => Map<string, number>, fallback = 'EUR'): Point[] {
  const perKey = keys.map((key) => amountOf(key));
  const currencies = [...new Set(perKey.flatMap((m) => [...m].filter(([, v]) => v !== 0).map(([c]) => c)))].sort();
  if (!currencies.length) currencies.push(fallback);
  return keys.map((start, i) => ({
    start,
    values: currencies.map((currency) => ({ currency, amount: perKey[i]?.get(currency) ?? 0 })),
  }));
}

// ---- Commerce rows, written the way the checkout writes them: through the orders store, in a transaction. ----

type MadePayment = { orderId: string; kind: 'charge' | 'refund'; amount: number; currency: string; at: string };
type MadeOrder = { id: string; currency: string; total: number; items: { courseId: string; amount: number }[] };

async function paidOrder(
  db: Db,
  userId: string,
  currency: string,
  items: { courseId: string; amount: number }[],
  at: string,
): Promise<MadeOrder> {
  const store = ordersStore({ revenue: { add: addToRevenueRollup } });
  const id = newId('ord');
  const total = items.reduce((sum, item) => sum + item.amount, 0);
  await db.transaction().execute(async (trx) => {
    await store.insertOrder(trx, {
      id,
      number: await store.nextNumber(trx),
      user_id: userId,
      kind: 'purchase',
      status: 'paid',
      currency,
      subtotal: total,
      discount: 0,
      total,
      refunded_amount: 0,
      coupon_id: null,
      coupon_code: null,
      provider: 'test',
      provider_ref: `chk_${id}`,
      subscription_id: null,
      failure_reason: null,
      paid_at: at,
      created_at: at,
      updated_at: at,
    });
    await store.insertItems(
      trx,
      items.map((item) => ({
        id: newId('oit'),
        order_id: id,
        item_type: 'course' as const,
        item_id: item.courseId,
        price_id: null,
        title: 'A course',
        unit_amount: item.amount,
        discount: 0,
        amount: item.amount,
        currency,
      })),
    );
  });
  return { id, currency, total, items };
}

/** A ledger row; `inTransaction: false` passes the database itself, as a caller outside a transaction would. */
async function ledger(db: Db, payment: MadePayment, inTransaction = true) {
  const row = {
    id: newId('pay'),
    order_id: payment.orderId,
    kind: payment.kind,
    amount: payment.amount,
    currency: payment.currency,
    provider: 'test' as const,
    provider_ref: newId('ref'),
    created_at: payment.at,
  };
  if (inTransaction)
    await db
      .transaction()
      .execute((trx) => ordersStore({ revenue: { add: addToRevenueRollup } }).insertPayment(trx, row));
  else await ordersStore({ revenue: { add: addToRevenueRollup } }).insertPayment(db, row);
}

type Sub = {
  user: string;
  price: 'month_eur' | 'year_eur' | 'month_usd' | 'once_eur';
  created: string;
  trialEnd?: string;
  canceled?: string;
  paused?: string;
};
const PRICES = {
  month_eur: { amount: 1000, currency: 'EUR', interval: 'month' },
  year_eur: { amount: 10_000, currency: 'EUR', interval: 'year' },
  month_usd: { amount: 1500, currency: 'USD', interval: 'month' },
  once_eur: { amount: 5000, currency: 'EUR', interval: 'one_time' },
} as const;

async function plansAndSubscriptions(db: Db, subs: Sub[]) {
  const at = '2025-01-01T00:00:00.000Z';
  const planId = newId('pln');
  await db
    .insertInto('membership_plans')
    .values({
      id: planId,
      name: 'Studio',
      slug: `studio-${planId.slice(-6)}`,
      description: '',
      benefits: '[]',
      visibility: 'public',
      status: 'active',
      archived_at: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  const priceIds = {} as Record<Sub['price'], string>;
  for (const [name, price] of Object.entries(PRICES) as [Sub['price'], (typeof PRICES)[Sub['price']]][]) {
    priceIds[name] = newId('prc');
    await db
      .insertInto('plan_prices')
      .values({
        id: priceIds[name],
        plan_id: planId,
        ...price,
        trial_days: 0,
        status: 'active',
        provider_price_id: null,
        archived_at: null,
        created_at: at,
      })
      .execute();
  }
  for (const sub of subs) {
    await db
      .insertInto('subscriptions')
      .values({
        id: newId('sub'),
        user_id: sub.user,
        plan_id: planId,
        price_id: priceIds[sub.price],
        status: sub.canceled ? 'canceled' : sub.paused ? 'paused' : 'active',
        trial_end: sub.trialEnd ?? null,
        current_period_start: sub.created,
        current_period_end: PRICES[sub.price].interval === 'one_time' ? null : '2026-12-31T00:00:00.000Z',
        cancel_at_period_end: 0,
        canceled_at: sub.canceled ?? null,
        paused_at: sub.paused ?? null,
        next_price_id: null,
        provider: 'test',
        provider_ref: newId('tsub'),
        provider_synced_at: null,
        order_id: null,
        created_at: sub.created,
        updated_at: sub.created,
      })
      .execute();
  }
}

for (const engine of engines) {
  describe(`analytics API (${engine})`, () => {
    let server: TestServer;
    let skew = 0;
    let staff: Client;
    let staffPerson: Person;
    let student: Person;
    const TZ = 'Europe/Berlin';
    /** The server's "now" while the figures are read. */
    const NOW = '2025-12-10T12:00:00.000Z';
    const setNow = (instant: string) => {
      skew = Date.parse(instant) - Date.now();
    };

    const made = {
      courses: [] as { id: string; lessons: string[] }[],
      orders: [] as MadeOrder[],
      payments: [] as MadePayment[],
      subs: [] as Sub[],
    };

    /** The raw rows the API made, read back from the database. */
    const enrollmentRows = () =>
      server.database.db
        .selectFrom('enrollments')
        .select(['course_id', 'user_id', 'enrolled_at', 'completed_at'])
        .execute();
    const progressRows = () =>
      server.database.db.selectFrom('lesson_progress').select(['course_id', 'user_id', 'completed_at']).execute();

    before(async () => {
      // The server's clock runs `skew` ahead of (or behind) the test's: set by hand before each dated write.
      server = await startTestServer(engine, {}, { clock: { now: () => new Date(Date.now() + skew) } });
      const people = await schoolWithPeople(server);
      staffPerson = people.staff;
      student = people.student;
      staff = apiClient(
        server.url,
        await tokenFor(
          server,
          staffPerson,
          'analytics:read students:read students:write courses:read courses:write curriculum:read curriculum:write school:write',
        ),
      );
      const db = server.database.db;

      // Two courses: A with two lessons, B with one.
      for (const lessons of [2, 1]) {
        const course = ok<{ id: string }>(await staff.post('/api/v1/courses', { title: `Course of ${lessons}` }), 201);
        const section = ok<{ id: string }>(
          await staff.post(`/api/v1/courses/${course.id}/sections`, { title: 'Part' }),
          201,
        );
        ok(await staff.post(`/api/v1/sections/${section.id}/publish`));
        const ids: string[] = [];
        for (let i = 0; i < lessons; i++) {
          const lesson = ok<{ id: string }>(
            await staff.post(`/api/v1/sections/${section.id}/lessons`, { title: `Lesson ${i}`, body: 'Text' }),
            201,
          );
          ok(await staff.post(`/api/v1/lessons/${lesson.id}/publish`));
          ids.push(lesson.id);
        }
        ok(await staff.post(`/api/v1/courses/${course.id}/publish`));
        made.courses.push({ id: course.id, lessons: ids });
      }
      const [a, b] = made.courses as [{ id: string; lessons: string[] }, { id: string; lessons: string[] }];

      // Students, enrolled and completing lessons at chosen instants: around Berlin's midnights, its two
      // daylight-saving changes of 2025 and a month's end that is already the next month in Berlin.
      const students: string[] = [];
      for (let i = 0; i < 6; i++) {
        students.push(
          ok<{ id: string }>(await staff.post('/api/v1/students', { email: `s${i}@school.test`, name: `S ${i}` }), 201)
            .id,
        );
      }
      const at = async <T>(instant: string, work: () => Promise<T>) => {
        setNow(instant);
        return work();
      };
      const enroll = (s: number, course: string, instant: string) =>
        at(instant, async () =>
          ok(await staff.post(`/api/v1/students/${students[s]}/enrollments`, { course_id: course }), 201),
        );
      const complete = (s: number, lesson: string, instant: string) =>
        at(instant, async () => ok(await staff.post(`/api/v1/students/${students[s]}/lessons/${lesson}/complete`)));
      await enroll(0, a.id, '2025-03-29T22:30:00.000Z');
      await enroll(1, a.id, '2025-03-29T23:30:00.000Z');
      await enroll(2, a.id, '2025-03-30T21:59:00.000Z');
      await enroll(3, a.id, '2025-03-30T22:01:00.000Z');
      await enroll(0, b.id, '2025-10-26T22:30:00.000Z');
      await enroll(1, b.id, '2025-10-31T23:10:00.000Z');
      await enroll(4, b.id, '2025-11-20T10:00:00.000Z');
      await enroll(5, a.id, '2025-12-01T10:00:00.000Z');
      await complete(0, a.lessons[0] as string, '2025-04-02T08:00:00.000Z');
      await complete(1, a.lessons[0] as string, '2025-04-02T09:00:00.000Z');
      await complete(0, a.lessons[1] as string, '2025-04-06T21:30:00.000Z');
      await complete(0, b.lessons[0] as string, '2025-10-31T23:30:00.000Z');
      await complete(1, b.lessons[0] as string, '2025-11-25T12:00:00.000Z');
      await complete(4, b.lessons[0] as string, '2025-11-25T13:00:00.000Z');
      await complete(5, a.lessons[0] as string, '2025-12-02T07:00:00.000Z');
      setNow(NOW);

      // Orders and the ledger: two currencies, a two-course order, partial and full refunds, a payment exactly at
      // Berlin's midnight of 1 November, and one recorded outside a transaction.
      const order = async (
        s: number,
        currency: string,
        items: { courseId: string; amount: number }[],
        when: string,
      ) => {
        const o = await paidOrder(db, students[s] as string, currency, items, when);
        made.orders.push(o);
        return o;
      };
      const pay = async (payment: MadePayment, inTransaction = true) => {
        await ledger(db, payment, inTransaction);
        made.payments.push(payment);
      };
      const o1 = await order(0, 'EUR', [{ courseId: a.id, amount: 4900 }], '2025-03-29T22:30:00.000Z');
      await pay({ orderId: o1.id, kind: 'charge', amount: 4900, currency: 'EUR', at: '2025-03-29T22:30:00.000Z' });
      const o2 = await order(
        1,
        'EUR',
        [
          { courseId: a.id, amount: 3000 },
          { courseId: b.id, amount: 1999 },
        ],
        '2025-03-29T23:30:00.000Z',
      );
      await pay({ orderId: o2.id, kind: 'charge', amount: 4999, currency: 'EUR', at: '2025-03-29T23:30:00.000Z' });
      await pay({ orderId: o2.id, kind: 'refund', amount: 1001, currency: 'EUR', at: '2025-05-03T10:00:00.000Z' });
      const o3 = await order(2, 'USD', [{ courseId: a.id, amount: 5500 }], '2025-03-30T21:59:00.000Z');
      await pay({ orderId: o3.id, kind: 'charge', amount: 5500, currency: 'USD', at: '2025-03-30T21:59:00.000Z' });
      await pay({ orderId: o3.id, kind: 'refund', amount: 5500, currency: 'USD', at: '2025-04-10T22:15:00.000Z' });
      const o4 = await order(1, 'EUR', [{ courseId: b.id, amount: 2500 }], '2025-10-31T23:00:00.000Z');
      await pay({ orderId: o4.id, kind: 'charge', amount: 2500, currency: 'EUR', at: '2025-10-31T23:00:00.000Z' });
      const o5 = await order(4, 'EUR', [{ courseId: b.id, amount: 2500 }], '2025-10-31T22:59:59.999Z');
      await pay(
        { orderId: o5.id, kind: 'charge', amount: 2500, currency: 'EUR', at: '2025-10-31T22:59:59.999Z' },
        false,
      );
      const o6 = await order(5, 'USD', [{ courseId: a.id, amount: 7000 }], '2025-12-01T10:00:00.000Z');
      await pay({ orderId: o6.id, kind: 'charge', amount: 7000, currency: 'USD', at: '2025-12-01T10:00:00.000Z' });
      // A charge before the ranges asked for, which only all-time figures see.
      const o7 = await order(3, 'EUR', [{ courseId: a.id, amount: 800 }], '2024-06-01T10:00:00.000Z');
      await pay({ orderId: o7.id, kind: 'charge', amount: 800, currency: 'EUR', at: '2024-06-01T10:00:00.000Z' });

      // Memberships: monthly and yearly prices, a trial, a cancellation during a trial, a pause, a one-time price, and
      // one person subscribing twice in a month.
      made.subs.push(
        { user: students[0] as string, price: 'month_eur', created: '2025-02-10T09:00:00.000Z' },
        {
          user: students[1] as string,
          price: 'year_eur',
          created: '2025-03-05T09:00:00.000Z',
          trialEnd: '2025-03-19T09:00:00.000Z',
          canceled: '2025-09-20T18:00:00.000Z',
        },
        {
          user: students[2] as string,
          price: 'month_usd',
          created: '2025-05-01T09:00:00.000Z',
          paused: '2025-07-01T09:00:00.000Z',
        },
        { user: students[3] as string, price: 'once_eur', created: '2025-04-01T09:00:00.000Z' },
        {
          user: students[4] as string,
          price: 'month_eur',
          created: '2025-06-10T09:00:00.000Z',
          trialEnd: '2025-06-24T09:00:00.000Z',
          canceled: '2025-06-20T09:00:00.000Z',
        },
        { user: students[5] as string, price: 'year_eur', created: '2025-10-31T23:30:00.000Z' },
        { user: students[0] as string, price: 'month_usd', created: '2025-02-11T09:00:00.000Z' },
        { user: students[3] as string, price: 'year_eur', created: '2025-12-20T09:00:00.000Z' },
      );
      await plansAndSubscriptions(db, made.subs);
    });
    after(() => server.close());

    const series = async (query: string, client = staff) =>
      ok<Series>(await client.get(`/api/v1/analytics/series?${query}`));

    /** What each metric should be over `keys`, computed here from the raw rows. */
    async function expected(metric: string, keys: string[], interval: Interval, timeZone: string, courseId?: string) {
      const enrollments = (await enrollmentRows()).filter((r) => !courseId || r.course_id === courseId);
      const progress = (await progressRows()).filter((r) => !courseId || r.course_id === courseId);
      const keyed = (instant: string) => keyOf(localDate(instant, timeZone), interval);
      switch (metric) {
        case 'enrollments':
          return expectedCounts(
            enrollments.map((r) => ({ at: r.enrolled_at })),
            keys,
            interval,
            timeZone,
          );
        case 'completions':
          return expectedCounts(
            enrollments.map((r) => ({ at: r.completed_at })),
            keys,
            interval,
            timeZone,
          );
        case 'active_students':
          return expectedCounts(
            progress.map((r) => ({ at: r.completed_at, person: r.user_id })),
            keys,
            interval,
            timeZone,
          );
        case 'new_members':
          return expectedCounts(
            made.subs.map((s) => ({ at: s.created, person: s.user })),
            keys,
            interval,
            timeZone,
          );
        case 'churned_members':
          return expectedCounts(
            made.subs.map((s) => ({ at: s.canceled ?? null, person: s.user })),
            keys,
            interval,
            timeZone,
          );
        case 'revenue':
          return moneySeries(keys, (key) => {
            const sums = new Map<string, number>();
            for (const p of made.payments.filter((p) => keyed(p.at) === key)) {
              const order = made.orders.find((o) => o.id === p.orderId) as MadeOrder;
              const amount = courseId
                ? order.items
                    .filter((item) => item.courseId === courseId)
                    .reduce((sum, item) => sum + Math.trunc((p.amount * item.amount) / order.total), 0)
                : p.amount;
              if (courseId && !order.items.some((item) => item.courseId === courseId)) continue;
              sums.set(p.currency, (sums.get(p.currency) ?? 0) + (p.kind === 'refund' ? -amount : amount));
            }
            return sums;
          });
        case 'mrr':
          return moneySeries(keys, (key) => {
            // Held at the bucket's last instant: started paying on or before its last day, and not stopped by then
            // (for the bucket holding now: started by now and not stopped by now).
            const sums = new Map<string, number>();
            const lastDay = lastDayOf(key, interval);
            const nowDay = localDate(NOW, timeZone);
            if (key > nowDay) return sums;
            const held = (instant: string) =>
              lastDay >= nowDay ? instant <= NOW : localDate(instant, timeZone) <= lastDay;
            for (const s of made.subs) {
              const price = PRICES[s.price];
              if (price.interval === 'one_time') continue;
              const start = s.trialEnd && s.trialEnd > s.created ? s.trialEnd : s.created;
              const end = s.canceled ?? s.paused;
              if (end && end <= start) continue;
              if (!held(start) || (end && held(end))) continue;
              const monthly = price.interval === 'year' ? price.amount / 12 : price.amount;
              sums.set(price.currency, (sums.get(price.currency) ?? 0) + monthly);
            }
            for (const [currency, amount] of sums) sums.set(currency, Math.round(amount));
            return sums;
          });
        default:
          throw new Error(metric);
      }
    }

    const METRICS = [
      'enrollments',
      'completions',
      'active_students',
      'revenue',
      'new_members',
      'churned_members',
      'mrr',
    ] as const;
    const RANGES: [Interval, string, string][] = [
      ['day', '2025-03-01', '2025-12-31'],
      ['week', '2025-03-05', '2025-12-31'],
      ['month', '2025-01-15', '2025-12-31'],
    ];

    test('every operation: anonymous, a token without analytics:read and a student are refused with 403', async () => {
      const course = made.courses[0]?.id as string;
      const operations = [
        '/api/v1/analytics/series?metric=enrollments',
        '/api/v1/analytics/courses',
        `/api/v1/analytics/courses/${course}`,
      ];
      const staffWithout = apiClient(server.url, await tokenFor(server, staffPerson, 'courses:read'));
      // A student may not be granted analytics:read: it is dropped from the grant.
      const studentAsking = apiClient(server.url, await tokenFor(server, student, 'courses:read analytics:read'));
      for (const path of operations) {
        for (const [who, client] of [
          ['anonymous', apiClient(server.url)],
          ['staff without the scope', staffWithout],
          ['student asking for the scope', studentAsking],
        ] as const) {
          const response = await client.get(path);
          assert.equal(response.status, 403, `${path} as ${who}`);
          assert.equal((response.body as { error: string }).error, 'insufficient_scope');
          assert.match(response.headers.get('www-authenticate') ?? '', insufficientScopeChallenge('analytics:read'));
        }
      }
      const owner = await createUser(server, 'owner', 'Olga Owner');
      const asOwner = apiClient(server.url, await tokenFor(server, owner, 'analytics:read'));
      ok(await asOwner.get(operations[0] as string));
    });

    test('every metric, by day, week and month, equals the sums of the raw rows in Berlin time', async () => {
      for (const [interval, from, to] of RANGES) {
        const keys = keysBetween(from, to, interval);
        for (const metric of METRICS) {
          const got = await series(`metric=${metric}&interval=${interval}&from=${from}&to=${to}`);
          const label = `${metric} by ${interval}`;
          assert.equal(got.timezone, TZ, label);
          assert.equal(got.from, keys[0], label);
          assert.equal(got.to, lastDayOf(keys.at(-1) as string, interval), label);
          assert.deepEqual(got.series, await expected(metric, keys, interval, TZ), label);
        }
      }
      // The figures are not all zeros: the data reach every metric.
      const byMonth = async (metric: string) =>
        (await series(`metric=${metric}&interval=month&from=2025-01-01&to=2025-12-31`)).series;
      assert.deepEqual(
        (await byMonth('enrollments')).map((p) => p.value),
        [0, 0, 4, 0, 0, 0, 0, 0, 0, 1, 2, 1],
        "Berlin's March 30th and November 1st start before UTC's",
      );
      const revenue = await byMonth('revenue');
      assert.deepEqual(revenue[10]?.values, [
        { currency: 'EUR', amount: 2500 },
        { currency: 'USD', amount: 0 },
      ]);
      assert.deepEqual(revenue[9]?.values, [
        { currency: 'EUR', amount: 2500 },
        { currency: 'USD', amount: 0 },
      ]);
      assert.deepEqual(revenue[3]?.values, [
        { currency: 'EUR', amount: 0 },
        { currency: 'USD', amount: -5500 },
      ]);
      const mrr = await byMonth('mrr');
      assert.deepEqual(mrr[7]?.values, [
        { currency: 'EUR', amount: 1833 },
        { currency: 'USD', amount: 1500 },
      ]);
    });

    test('a course narrows enrollments, completions, active students and its share of revenue', async () => {
      for (const course of made.courses) {
        for (const [interval, from, to] of RANGES) {
          const keys = keysBetween(from, to, interval);
          for (const metric of ['enrollments', 'completions', 'active_students', 'revenue']) {
            const got = await series(
              `metric=${metric}&interval=${interval}&from=${from}&to=${to}&course_id=${course.id}`,
            );
            assert.deepEqual(
              got.series,
              await expected(metric, keys, interval, TZ, course.id),
              `${metric} by ${interval}, ${course.id}`,
            );
          }
        }
      }
      const [, b] = made.courses as [unknown, { id: string }];
      const march = (await series(`metric=revenue&interval=month&from=2025-03-01&to=2025-03-31&course_id=${b.id}`))
        .series[0];
      // 1999 of a 4999 order: its share of the charge; its share of the later refund (1001 × 1999 / 4999) is May's.
      assert.deepEqual(march?.values, [{ currency: 'EUR', amount: 1999 }]);
    });

    test('defaults, zeros and the limits of a range', async () => {
      const recent = await series('metric=enrollments');
      assert.equal(recent.interval, 'day');
      assert.equal(recent.series.length, 30);
      assert.equal(recent.to, localDate(NOW, TZ));
      assert.equal(recent.from, shiftDays(localDate(NOW, TZ), -29));
      assert.equal(recent.series.at(-10)?.start, '2025-12-01');
      assert.equal(recent.series.at(-10)?.value, 1);
      assert.equal(
        recent.series.reduce((sum, p) => sum + (p.value ?? 0), 0),
        2,
      );
      const weeks = await series('metric=completions&interval=week');
      assert.equal(weeks.series.length, 12);
      assert.equal(weeks.series.at(-1)?.start, '2025-12-08', 'weeks start on Monday');
      const months = await series('metric=mrr&interval=month');
      assert.equal(months.series.length, 12);
      assert.equal(months.from, '2025-01-01');
      assert.equal(months.to, '2025-12-31');
      // Nothing sold in the range: the school's currency, with zeros.
      const empty = await series('metric=revenue&interval=week&from=2020-01-01&to=2020-02-29');
      assert.equal(empty.series.length, 9);
      assert.ok(empty.series.every((p) => p.values?.length === 1 && p.values[0]?.amount === 0));
      assert.equal(empty.series[0]?.values?.[0]?.currency, 'EUR');
      // Buckets still to come count nothing, MRR included.
      const ahead = await series('metric=mrr&interval=month&from=2025-11-01&to=2026-02-28');
      assert.deepEqual(
        ahead.series.map((p) => p.values?.reduce((sum, v) => sum + v.amount, 0)),
        [1833 + 1500, 1833 + 1500, 0, 0],
      );

      for (const [query, field, pattern] of [
        ['metric=enrollments&from=2024-01-01&to=2025-02-04', 'to', /at most 400 days; this range has 401/],
        ['metric=enrollments&interval=week&from=2020-01-06&to=2025-01-05', 'to', /at most 260 weeks/],
        ['metric=revenue&interval=month&from=2015-01-01&to=2025-01-01', 'to', /at most 120 months; this range has 121/],
        ['metric=enrollments&from=2025-05-02&to=2025-05-01', 'from', /after/],
        ['metric=enrollments&from=1999-12-31&to=2000-01-02', 'from', /2000-01-01/],
        ['metric=enrollments&from=2999-12-30&to=3000-01-01', 'to', /2999-12-31/],
        [`metric=mrr&course_id=${made.courses[0]?.id}`, 'course_id', /narrows only/],
      ] as const) {
        const refused = await staff.get<{ error: string; error_description: string; errors: { field: string }[] }>(
          `/api/v1/analytics/series?${query}`,
        );
        assert.equal(refused.status, 400, query);
        assert.equal(refused.body.error, 'invalid_request', query);
        assert.match(refused.body.error_description, pattern, query);
        assert.equal(refused.body.errors[0]?.field, field, query);
      }
      ok(await staff.get('/api/v1/analytics/series?metric=enrollments&from=2024-01-01&to=2025-02-03'));
      ok(await staff.get('/api/v1/analytics/series?metric=revenue&interval=month&from=2015-01-01&to=2024-12-31'));
      for (const bad of [
        'metric=visits',
        'metric=revenue&interval=year',
        'metric=revenue&from=2025-02-30',
        'metric=revenue&x=1',
        'interval=day',
      ]) {
        const refused = await staff.get(`/api/v1/analytics/series?${bad}`);
        assert.equal(refused.status, 400, bad);
      }
      const unknown = await staff.get(`/api/v1/analytics/series?metric=revenue&course_id=${newId('crs')}`);
      assert.equal(unknown.status, 404);
    });

    test("a course's figures and the list of every course's, equal to the raw rows", async () => {
      const since = Date.parse(NOW) - 30 * 86_400_000;
      const enrollments = await enrollmentRows();
      const progress = await progressRows();
      const wanted = (courseId: string) => {
        const mine = enrollments.filter((r) => r.course_id === courseId);
        const completions = mine.filter((r) => r.completed_at).length;
        const revenue = new Map<string, number>();
        for (const p of made.payments) {
          const order = made.orders.find((o) => o.id === p.orderId) as MadeOrder;
          for (const item of order.items.filter((i) => i.courseId === courseId)) {
            const share = Math.trunc((p.amount * item.amount) / order.total);
            revenue.set(p.currency, (revenue.get(p.currency) ?? 0) + (p.kind === 'refund' ? -share : share));
          }
        }
        return {
          enrollments: mine.length,
          completions,
          completion_rate: Math.round((completions / mine.length) * 10_000) / 10_000,
          active_students_30d: new Set(
            progress
              .filter((r) => r.course_id === courseId && Date.parse(r.completed_at) >= since)
              .map((r) => r.user_id),
          ).size,
          revenue: [...revenue]
            .map(([currency, amount]) => ({ currency, amount }))
            .sort((x, y) => x.currency.localeCompare(y.currency)),
        };
      };
      for (const course of made.courses) {
        const { course_id, title, ...figures } = ok<Stats>(await staff.get(`/api/v1/analytics/courses/${course.id}`));
        assert.equal(course_id, course.id);
        assert.match(title, /^Course of/);
        assert.deepEqual(figures, wanted(course.id));
      }
      const [a, b] = made.courses as [{ id: string; lessons: string[] }, { id: string; lessons: string[] }];
      const aStats = ok<Stats>(await staff.get(`/api/v1/analytics/courses/${a.id}`));
      assert.equal(aStats.completion_rate, 0.2);
      const bStats = ok<Stats>(await staff.get(`/api/v1/analytics/courses/${b.id}`));
      assert.equal(bStats.completion_rate, 1);
      assert.equal(bStats.active_students_30d, 2);

      const first = ok<{ data: Stats[]; has_more: boolean; next_cursor: string }>(
        await staff.get('/api/v1/analytics/courses?limit=1'),
      );
      assert.deepEqual(
        first.data.map((s) => s.course_id),
        [b.id],
      );
      assert.equal(first.has_more, true);
      const second = ok<{ data: Stats[]; has_more: boolean }>(
        await staff.get(`/api/v1/analytics/courses?limit=1&starting_after=${first.next_cursor}`),
      );
      assert.deepEqual(
        second.data.map((s) => s.course_id),
        [a.id],
      );
      assert.equal(second.has_more, false);
      // The list leaves revenue out (it would read every order of every course of the page); the rest is the same.
      const { revenue: _, ...summary } = ok<Stats>(await staff.get(`/api/v1/analytics/courses/${a.id}`));
      assert.deepEqual(second.data[0], summary);
      const drafts = ok<{ data: Stats[] }>(await staff.get('/api/v1/analytics/courses?status=draft'));
      assert.deepEqual(drafts.data, []);
      assert.equal((await staff.get(`/api/v1/analytics/courses/${newId('crs')}`)).status, 404);
      assert.equal((await staff.get('/api/v1/analytics/courses?limit=101')).status, 400);
    });

    test('the revenue rollup holds exactly the ledger, whether the payment came in a transaction or not', async () => {
      const db = server.database.db;
      const slots = await db.selectFrom('revenue_slots').selectAll().execute();
      const ledgerRows = await db.selectFrom('payments').selectAll().execute();
      const sums = (rows: { currency: string; charged: number; refunded: number }[]) => {
        const out = new Map<string, { charged: number; refunded: number }>();
        for (const r of rows) {
          const s = out.get(r.currency) ?? { charged: 0, refunded: 0 };
          out.set(r.currency, { charged: s.charged + Number(r.charged), refunded: s.refunded + Number(r.refunded) });
        }
        return out;
      };
      assert.deepEqual(
        sums(slots),
        sums(
          ledgerRows.map((p) => ({
            currency: p.currency,
            charged: p.kind === 'charge' ? p.amount : 0,
            refunded: p.kind === 'refund' ? p.amount : 0,
          })),
        ),
      );
      // Berlin's midnight of 1 November is slot 23:00 UTC; a millisecond earlier is the slot before.
      const november = slots.find((s) => s.slot === '2025-10-31T23:00');
      assert.equal(Number(november?.charged), 2500);
      assert.equal(Number(slots.find((s) => s.slot === '2025-10-31T22:45')?.charged), 2500);
      assert.ok(slots.every((s) => /^\d{4}-\d{2}-\d{2}T\d{2}:(00|15|30|45)$/.test(s.slot)));
    });

    test("the buckets follow the school's time zone when it changes", async () => {
      ok(await staff.patch('/api/v1/school', { timezone: 'America/Los_Angeles' }));
      try {
        for (const metric of ['revenue', 'enrollments', 'active_students'] as const) {
          const keys = keysBetween('2025-01-01', '2025-12-31', 'month');
          const got = await series(`metric=${metric}&interval=month&from=2025-01-01&to=2025-12-31`);
          assert.equal(got.timezone, 'America/Los_Angeles');
          assert.deepEqual(got.series, await expected(metric, keys, 'month', 'America/Los_Angeles'), metric);
        }
        const days = keysBetween('2025-10-20', '2025-11-10', 'day');
        const got = await series('metric=revenue&interval=day&from=2025-10-20&to=2025-11-10');
        assert.deepEqual(got.series, await expected('revenue', days, 'day', 'America/Los_Angeles'));
      } finally {
        ok(await staff.patch('/api/v1/school', { timezone: TZ }));
      }
    });
  });
}

for (const engine of engines) {
  describe(`analytics of real checkouts (${engine})`, () => {
    let server: TestServer;

    before(async () => {
      server = await startTestServer(engine, { PAYMENTS_PROVIDER: 'test' });
    });
    after(() => server.close());

    test("courses bought, paid on the test provider's page and partly refunded add up in the series and the course's figures", async () => {
      const people = await schoolWithPeople(server);
      const staff = apiClient(
        server.url,
        await tokenFor(server, people.staff, 'analytics:read orders:read courses:write courses:read curriculum:write'),
      );
      const buyers = [people.student, await createUser(server, 'student', 'Bea Buyer')];
      const course = ok<{ id: string; slug: string }>(
        await staff.post('/api/v1/courses', { title: 'Ink wash', price: { amount: 3000, currency: 'EUR' } }),
        201,
      );
      ok(await publishWithALesson(staff, course.id));
      const signedIn = async (person: Person) => {
        const web = new WebClient(server.url);
        const response = await web.submit('/signin', '/signin', { email: person.email, password: person.password });
        assert.equal(response.status, 303);
        return web;
      };
      const orderIds: string[] = [];
      for (const buyer of buyers) {
        const api = apiClient(server.url, await tokenFor(server, buyer, 'account:write'));
        const started = ok<{ order: { id: string }; payment_url: string }>(
          await api.post('/api/v1/account/orders', { item: { type: 'course', key: course.slug } }),
          201,
        );
        const path = new URL(started.payment_url).pathname;
        const web = await signedIn(buyer);
        const page = await web.get(path);
        assert.equal((await web.postForm(path, { _csrf: csrfOf(page.text), outcome: 'pay' })).status, 303);
        orderIds.push(started.order.id);
      }
      const staffWeb = await signedIn(people.staff);
      const orderPage = await staffWeb.get(`/orders/${orderIds[0]}`);
      const refund = await staffWeb.postForm(`/orders/${orderIds[0]}/refund`, {
        _csrf: csrfOf(orderPage.text),
        amount: '1200',
      });
      assert.equal(refund.status, 303);

      // What the orders say: paid totals less what was refunded.
      type Order = { status: string; total: Amount; refunded_amount: Amount };
      const orders = await Promise.all(orderIds.map(async (id) => ok<Order>(await staff.get(`/api/v1/orders/${id}`))));
      const net = orders.reduce((sum, o) => sum + o.total.amount - o.refunded_amount.amount, 0);
      assert.equal(net, 2 * 3000 - 1200);
      const sum = (series: Series) =>
        series.series.reduce((total, p) => total + (p.values?.find((v) => v.currency === 'EUR')?.amount ?? 0), 0);
      assert.equal(sum(ok<Series>(await staff.get('/api/v1/analytics/series?metric=revenue'))), net);
      assert.equal(
        sum(ok<Series>(await staff.get(`/api/v1/analytics/series?metric=revenue&course_id=${course.id}`))),
        net,
      );
      const enrollments = ok<Series>(
        await staff.get(`/api/v1/analytics/series?metric=enrollments&course_id=${course.id}`),
      );
      assert.equal(
        enrollments.series.reduce((total, p) => total + (p.value ?? 0), 0),
        2,
      );
      const stats = ok<Stats>(await staff.get(`/api/v1/analytics/courses/${course.id}`));
      assert.deepEqual(stats.revenue, [{ currency: 'EUR', amount: net }]);
      assert.equal(stats.enrollments, 2);
    });
  });
}
