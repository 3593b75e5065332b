import { errors } from '../../http/errors.ts';
import { isStaff, type Principal } from '../../http/principal.ts';
import type { AreaDeps } from '../deps.ts';
import type { SchoolSettings } from '../school-settings.ts';
import {
  addDays,
  addMonths,
  type Bucket,
  bucketCount,
  bucketStartOf,
  bucketsBetween,
  DEFAULT_SPAN,
  type Interval,
  localDateOf,
  MAX_BUCKETS,
  nextBucket,
} from './buckets.ts';
import type {
  CourseCatalog,
  EnrollmentFacts,
  EventFacts,
  LearningMetric,
  LedgerFacts,
  PriceTerms,
  RecurringFacts,
} from './ports.ts';
import { recurringChanges } from './recurring.ts';
import { revenueSlotOf } from './revenue-rollup.ts';
import {
  COUNT_METRICS,
  COURSE_METRICS,
  type CountMetric,
  type CourseStats,
  type CourseStatsListQuery,
  type CourseStatsSummary,
  type EventAttendance,
  type EventAttendanceListQuery,
  type Metric,
  type NetAmount,
  type Series,
  type SeriesPoint,
  type SeriesQuery,
} from './schema.ts';
import type { AnalyticsStore } from './store.ts';

const DAY_MS = 86_400_000;
/** The oldest day a series may start: every time zone's offset is a whole quarter-hour since long before. */
const EARLIEST_DAY = '2000-01-01';
const LATEST_DAY = '2999-12-31';
const INTERVAL_WORDS: Record<Interval, string> = { day: 'days', week: 'weeks', month: 'months' };

type Amounts = Map<string, number>;

/** The counts the students area answers; the rest are the subscriptions'. */
const LEARNING_METRICS: readonly CountMetric[] = ['enrollments', 'completions', 'active_students'];
const isLearning = (metric: CountMetric): metric is LearningMetric => LEARNING_METRICS.includes(metric);

/** The index of the bucket holding instant `ms` (edges ascending, n + 1 of them), or -1 outside them all. */
function bucketIndex(edges: number[], ms: number): number {
  let lo = 0;
  let hi = edges.length - 1;
  if (ms < (edges[0] ?? 0) || ms >= (edges[hi] ?? 0)) return -1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (ms >= (edges[mid] ?? 0)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * Analytics for staff: time series of the school's figures in its own calendar, and per-course figures. Read only;
 * every figure comes from the rows themselves (and revenue from the ledger's rollup), so it is never out of date.
 */
export function analyticsService(
  deps: AreaDeps & {
    store: AnalyticsStore;
    school: SchoolSettings;
    courses: CourseCatalog;
    enrollments: EnrollmentFacts;
    subscriptions: RecurringFacts;
    prices: PriceTerms;
    ledger: LedgerFacts;
    events: EventFacts;
  },
) {
  const { db, clock, store } = deps;

  function requireStaff(principal: Principal) {
    if (!isStaff(principal)) throw errors.notFound('analytics');
  }

  async function schoolCalendar() {
    const school = await deps.school.settings(db);
    return { timeZone: school?.timezone ?? 'UTC', currency: school?.default_currency ?? 'EUR' };
  }

  const rangeError = (field: string, message: string) =>
    errors.invalidRequest(message, [{ field, code: 'range', message }]);

  /** The days asked for, with the defaults filled and the limits checked. */
  function rangeOf(query: SeriesQuery, interval: Interval, timeZone: string) {
    const to = query.to ?? localDateOf(clock.now().getTime(), timeZone);
    const span = DEFAULT_SPAN[interval] - 1;
    const start = bucketStartOf(to, interval);
    const from =
      query.from ??
      (interval === 'month' ? addMonths(start, -span) : addDays(start, -span * (interval === 'week' ? 7 : 1)));
    if (from > to) throw rangeError('from', `from (${from}) is after to (${to}).`);
    if (from < EARLIEST_DAY) throw rangeError('from', `Series start on ${EARLIEST_DAY} at the earliest.`);
    if (to > LATEST_DAY) throw rangeError('to', `Series end on ${LATEST_DAY} at the latest.`);
    const count = bucketCount(from, to, interval);
    const max = MAX_BUCKETS[interval];
    if (count > max) {
      const longer =
        interval === 'day' ? ' or a longer interval (week or month)' : interval === 'week' ? ' or interval=month' : '';
      throw rangeError(
        'to',
        `A series by ${interval} covers at most ${max} ${INTERVAL_WORDS[interval]}; this range has ${count}. Ask for a shorter range${longer}.`,
      );
    }
    return { from, to };
  }

  /**
   * Every currency with a figure in the series, in every bucket (zeros filled); the school's own when there is none.
   */
  function moneyPoints(buckets: Bucket[], perBucket: Amounts[], fallback: string): SeriesPoint[] {
    const currencies = [
      ...new Set(perBucket.flatMap((amounts) => [...amounts].filter(([, v]) => v !== 0).map(([c]) => c))),
    ].sort();
    if (!currencies.length) currencies.push(fallback);
    return buckets.map((bucket, i) => ({
      start: bucket.start,
      values: currencies.map((currency): NetAmount => ({ currency, amount: perBucket[i]?.get(currency) ?? 0 })),
    }));
  }

  const add = (amounts: Amounts, currency: string, amount: number) =>
    amounts.set(currency, (amounts.get(currency) ?? 0) + amount);

  async function revenue(buckets: Bucket[], edges: string[], courseId: string | undefined): Promise<Amounts[]> {
    const perBucket = buckets.map((): Amounts => new Map());
    if (courseId) {
      const edgeMs = edges.map(Date.parse);
      for (const row of await deps.ledger.rowsBetween(db, courseId, edges[0] as string, edges.at(-1) as string)) {
        const i = bucketIndex(edgeMs, Date.parse(row.at));
        if (i >= 0) add(perBucket[i] as Amounts, row.currency, row.amount);
      }
    } else {
      for (const row of await store.revenuePerBucket(db, edges.map(revenueSlotOf))) {
        add(perBucket[row.i] as Amounts, row.currency, row.amount);
      }
    }
    return perBucket;
  }

  /**
   * Monthly recurring revenue at each bucket's last instant (now, for the bucket in progress; nothing for buckets
   * still to come): what the subscriptions to month and year prices paying then cost per month, a year price counted
   * as a twelfth (rounded to the minor unit once per figure). Trials, one-time prices and paused or canceled
   * subscriptions count nothing.
   */
  async function mrr(buckets: Bucket[]): Promise<Amounts[]> {
    const now = clock.now().getTime();
    const instants = buckets.map((b) => Math.min(Date.parse(b.endAt) - 1, now));
    const iso = (ms: number) => new Date(ms).toISOString();
    const changes = await recurringChanges(db, deps, iso(instants[0] as number), iso(Math.max(...instants)));
    // Sweep from what was paying at the first instant: each change after it adds or takes back its amount.
    const events = changes.flatMap((c) =>
      c.at ? [{ at: Date.parse(c.at), key: `${c.currency} ${c.interval}`, amount: c.amount }] : [],
    );
    const running = new Map<string, number>(
      changes.flatMap((c) => (c.at ? [] : [[`${c.currency} ${c.interval}`, c.amount] as [string, number]])),
    );
    let next = 0;
    return buckets.map((bucket, i) => {
      const amounts: Amounts = new Map();
      if (Date.parse(bucket.startAt) > now) return amounts;
      const at = instants[i] as number;
      for (; next < events.length && (events[next]?.at ?? 0) <= at; next++) {
        const event = events[next] as (typeof events)[number];
        running.set(event.key, (running.get(event.key) ?? 0) + event.amount);
      }
      for (const [key, total] of running) {
        const [currency, interval] = key.split(' ') as [string, string];
        add(amounts, currency, interval === 'year' ? total / 12 : total);
      }
      for (const [currency, amount] of amounts) amounts.set(currency, Math.round(amount));
      return amounts;
    });
  }

  async function summariesOf(courses: { id: string; title: string }[]): Promise<CourseStatsSummary[]> {
    const ids = courses.map((c) => c.id);
    if (!ids.length) return [];
    const since = new Date(clock.now().getTime() - 30 * DAY_MS).toISOString();
    const [totals, active] = await Promise.all([
      deps.enrollments.enrollmentTotals(db, ids),
      deps.enrollments.activeStudents(db, ids, since),
    ]);
    return courses.map((course) => {
      const { enrollments = 0, completions = 0 } = totals.get(course.id) ?? {};
      return {
        course_id: course.id,
        title: course.title,
        enrollments,
        completions,
        completion_rate: enrollments ? Math.round((completions / enrollments) * 10_000) / 10_000 : 0,
        active_students_30d: active.get(course.id) ?? 0,
      };
    });
  }

  return {
    /** The school's date today and its time zone (where the dashboard's ranges end). */
    async calendar(principal: Principal) {
      requireStaff(principal);
      const { timeZone, currency } = await schoolCalendar();
      return { today: localDateOf(clock.now().getTime(), timeZone), timezone: timeZone, currency };
    },

    /**
     * One metric's series over whole buckets of the school's calendar, every bucket present. `known`: the calendar
     * the caller read already (the dashboard draws many series from one), so the school is not read again for each.
     */
    async series(
      principal: Principal,
      query: SeriesQuery,
      known?: { timezone: string; currency: string },
    ): Promise<Series> {
      requireStaff(principal);
      const metric: Metric = query.metric;
      const interval = query.interval ?? 'day';
      const courseId = query.course_id;
      if (courseId && !(COURSE_METRICS as readonly string[]).includes(metric)) {
        throw errors.invalidRequest(`course_id narrows only ${COURSE_METRICS.join(', ')}; ${metric} is the school's.`, [
          { field: 'course_id', code: 'not_applicable', message: `Leave course_id out for ${metric}.` },
        ]);
      }
      if (courseId && !(await deps.courses.find(db, courseId))) throw errors.notFound('course');
      const { timeZone, currency } = known
        ? { timeZone: known.timezone, currency: known.currency }
        : await schoolCalendar();
      const { from, to } = rangeOf(query, interval, timeZone);
      const buckets = bucketsBetween(from, to, interval, timeZone);
      const edges = [...buckets.map((b) => b.startAt), buckets.at(-1)?.endAt as string];
      const last = buckets.at(-1) as Bucket;
      const head = {
        metric,
        interval,
        from: buckets[0]?.start ?? from,
        to: addDays(nextBucket(last.start, interval), -1),
        timezone: timeZone,
        course_id: courseId ?? null,
      };
      if ((COUNT_METRICS as readonly string[]).includes(metric)) {
        const counted = metric as CountMetric;
        const counts = isLearning(counted)
          ? await deps.enrollments.perBucket(db, counted, edges, courseId)
          : await deps.subscriptions.perBucket(db, counted, edges);
        return { ...head, series: buckets.map((bucket, i) => ({ start: bucket.start, value: counts.get(i) ?? 0 })) };
      }
      const perBucket = metric === 'mrr' ? await mrr(buckets) : await revenue(buckets, edges, courseId);
      return { ...head, series: moneyPoints(buckets, perBucket, currency) };
    },

    async courseStats(principal: Principal, courseId: string): Promise<CourseStats> {
      requireStaff(principal);
      const course = await deps.courses.find(db, courseId);
      if (!course) throw errors.notFound('course');
      const [[summary], revenue] = await Promise.all([summariesOf([course]), deps.ledger.totals(db, courseId)]);
      return { ...(summary as CourseStatsSummary), revenue };
    },

    /** Every course's figures, newest course first, a page at a time. */
    async listCourseStats(principal: Principal, query: CourseStatsListQuery) {
      requireStaff(principal);
      const page = await deps.courses.list(principal, query);
      return { ...page, data: await summariesOf(page.data) };
    },

    /** Attendance per event that has started (not canceled), newest created first. */
    async listEventAttendance(principal: Principal, query: EventAttendanceListQuery) {
      requireStaff(principal);
      const page = await deps.events(db, clock.now().toISOString(), query);
      return {
        ...page,
        data: page.data.map(
          ({ id, title, starts_at, registered, attended }): EventAttendance => ({
            event_id: id,
            title,
            starts_at,
            registered,
            attended,
            no_show: registered - attended,
            attendance_rate: registered === 0 ? 0 : attended / registered,
          }),
        ),
      };
    },
  };
}

export type AnalyticsService = ReturnType<typeof analyticsService>;
