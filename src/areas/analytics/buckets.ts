/**
 * The calendar of the series: buckets are the school's own days, weeks (Monday to Sunday) and months, in its time
 * zone. Dates are `YYYY-MM-DD` text; each bucket's edges are turned into UTC instants once here, so the queries
 * compare stored UTC timestamps with them the same way on both engines, and daylight-saving days simply have 23 or
 * 25 hours.
 */
import { instantOfWall, wallClock } from '../../time/zones.ts';

export const INTERVALS = ['day', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];

/** The most buckets a series may have: 400 days, 260 weeks (5 years), 120 months (10 years). */
export const MAX_BUCKETS: Record<Interval, number> = { day: 400, week: 260, month: 120 };

/** How far back a series reaches when `from` is not given: 30 days, 12 weeks or 12 months, ending with `to`. */
export const DEFAULT_SPAN: Record<Interval, number> = { day: 30, week: 12, month: 12 };

const DAY_MS = 86_400_000;
const STEP_MS = 15 * 60_000;

/** A calendar date's parts; months are 1-12. */
const partsOf = (date: string) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return { y, m, d };
};
const dateOfUtc = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const utcOf = (date: string) => {
  const { y, m, d } = partsOf(date);
  return Date.UTC(y, m - 1, d);
};

export const addDays = (date: string, days: number) => dateOfUtc(utcOf(date) + days * DAY_MS);

export function addMonths(date: string, months: number) {
  const { y, m, d } = partsOf(date);
  return dateOfUtc(Date.UTC(y, m - 1 + months, d));
}

/** The first day of the bucket `date` falls in. */
export function bucketStartOf(date: string, interval: Interval): string {
  if (interval === 'day') return date;
  if (interval === 'month') return `${date.slice(0, 8)}01`;
  const weekday = (new Date(utcOf(date)).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return addDays(date, -weekday);
}

export const nextBucket = (start: string, interval: Interval) =>
  interval === 'day' ? addDays(start, 1) : interval === 'week' ? addDays(start, 7) : addMonths(start, 1);

/** The calendar date at instant `ms` in `timeZone`. */
export const localDateOf = (ms: number, timeZone: string) => dateOfUtc(wallClock(ms, timeZone));

/** Days already worked out: a day's first instant never changes, and a year by day would cost ~15 ms each time. */
const dayStarts = new Map<string, number>();

/**
 * The first instant of `date` in `timeZone`: its midnight, or the end of the daylight-saving gap on the rare days
 * that have no midnight. Every offset in use is a multiple of 15 minutes, so stepping by 15 minutes lands on it.
 */
export function startOfDay(date: string, timeZone: string): number {
  const key = `${timeZone} ${date}`;
  let start = dayStarts.get(key);
  if (start === undefined) {
    start = computeStartOfDay(date, timeZone);
    if (dayStarts.size >= 20_000) dayStarts.clear();
    dayStarts.set(key, start);
  }
  return start;
}

function computeStartOfDay(date: string, timeZone: string): number {
  let at = instantOfWall(utcOf(date), timeZone);
  while (localDateOf(at, timeZone) < date) at += STEP_MS;
  while (localDateOf(at - STEP_MS, timeZone) === date) at -= STEP_MS;
  return at;
}

export type Bucket = {
  /** The bucket's first day. */
  start: string;
  /** Its first instant and the first instant of the next bucket, ISO (UTC). */
  startAt: string;
  endAt: string;
};

/** The buckets covering `from`…`to` (inclusive days), whole: the first starts on or before `from`. */
export function bucketsBetween(from: string, to: string, interval: Interval, timeZone: string): Bucket[] {
  const starts: string[] = [];
  for (let start = bucketStartOf(from, interval); start <= to; start = nextBucket(start, interval)) starts.push(start);
  const edges = [...starts, nextBucket(starts.at(-1) ?? from, interval)].map((date) =>
    new Date(startOfDay(date, timeZone)).toISOString(),
  );
  return starts.map((start, i) => ({ start, startAt: edges[i] as string, endAt: edges[i + 1] as string }));
}

/** How many buckets `from`…`to` makes, without building them (for the range limit). */
export function bucketCount(from: string, to: string, interval: Interval): number {
  const first = bucketStartOf(from, interval);
  const last = bucketStartOf(to, interval);
  if (interval === 'month') {
    const a = partsOf(first);
    const b = partsOf(last);
    return (b.y - a.y) * 12 + (b.m - a.m) + 1;
  }
  return Math.round((utcOf(last) - utcOf(first)) / DAY_MS / (interval === 'week' ? 7 : 1)) + 1;
}
