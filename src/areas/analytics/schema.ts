import Type, { type Static, type TLiteral, type TUnion } from 'typebox';
import { Currency, Id, ListQueryBase, Page, Timestamp } from '../../http/schemas.ts';
import { INTERVALS } from './buckets.ts';

export const COUNT_METRICS = [
  'enrollments',
  'completions',
  'active_students',
  'new_members',
  'churned_members',
] as const;
export const MONEY_METRICS = ['revenue', 'mrr'] as const;
export const METRICS = [...COUNT_METRICS, ...MONEY_METRICS] as const;
export type CountMetric = (typeof COUNT_METRICS)[number];
export type Metric = (typeof METRICS)[number];
/** The metrics a course_id narrows; the membership metrics belong to plans, not courses. */
export const COURSE_METRICS = ['enrollments', 'completions', 'active_students', 'revenue'] as const;

/** One of `values`, as the union of their literals (how every other schema writes a choice). */
const oneOf = <T extends readonly string[]>(values: T, options: { description: string; default?: string }) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  ) as unknown as TUnion<{ -readonly [K in keyof T]: TLiteral<T[K]> }>;

const Day = (description: string) => Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description });

const MetricName = oneOf(METRICS, {
  description:
    'enrollments: enrollments made (enrolled_at); completions: enrollments completed (completed_at); ' +
    'active_students: people who completed at least one lesson; revenue: charges minus refunds of the payment ' +
    'ledger, per currency; new_members: people whose subscription started; churned_members: people whose ' +
    'subscription was canceled; mrr: monthly recurring revenue per currency at the end of each bucket',
});
const intervalName = (options: { default?: string } = {}) =>
  oneOf(INTERVALS, { description: "Buckets in the school's time zone; weeks start on Monday", ...options });

export const SeriesQuery = Type.Object(
  {
    metric: MetricName,
    interval: Type.Optional(intervalName({ default: 'day' })),
    from: Type.Optional(
      Day('First day (default: 30 days, 12 weeks or 12 months back, ending with `to`); its whole bucket is included'),
    ),
    to: Type.Optional(Day("Last day, inclusive (default: today in the school's time zone)")),
    course_id: Type.Optional(
      Type.String({
        pattern: '^crs_[0-9a-z]{26}$',
        description: 'Only this course (enrollments, completions, active_students and revenue)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type SeriesQuery = Static<typeof SeriesQuery>;

/** Money that may be negative: a bucket's refunds can exceed its charges. */
export const NetAmount = Type.Object(
  {
    currency: Currency,
    amount: Type.Integer({ description: 'Integer minor units (cents); negative when refunds exceed charges' }),
  },
  { additionalProperties: false },
);
export type NetAmount = Static<typeof NetAmount>;

const CountPoint = Type.Object(
  { start: Day("The bucket's first day"), value: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
);
const MoneyPoint = Type.Object(
  {
    start: Day("The bucket's first day"),
    values: Type.Array(NetAmount, { description: 'One amount per currency of the series (zeros included)' }),
  },
  { additionalProperties: false },
);
export type SeriesPoint = Static<typeof CountPoint> | Static<typeof MoneyPoint>;

export const Series = Type.Object(
  {
    metric: oneOf(METRICS, { description: 'The metric asked for (see the query)' }),
    interval: intervalName(),
    from: Day("The first bucket's first day"),
    to: Day("The last bucket's last day"),
    timezone: Type.String({ description: "The school's time zone the buckets follow" }),
    course_id: Type.Union([Id('crs'), Type.Null()]),
    series: Type.Array(Type.Union([CountPoint, MoneyPoint]), {
      description: 'Every bucket, in order, zeros included: `value` for counts, `values` per currency for money',
    }),
  },
  { $id: 'AnalyticsSeries' },
);
export type Series = Static<typeof Series>;

const courseFigures = {
  course_id: Id('crs'),
  title: Type.String(),
  enrollments: Type.Integer({ description: 'Enrollments ever made, whatever their state now' }),
  completions: Type.Integer({ description: 'Enrollments completed' }),
  completion_rate: Type.Number({ minimum: 0, maximum: 1, description: 'completions ÷ enrollments (0 without any)' }),
  active_students_30d: Type.Integer({ description: 'People who completed a lesson of it in the last 30 days' }),
};

/** A course's figures in the list: revenue is left out, as it reads every order of the course (getCourseStats has it). */
export const CourseStatsSummary = Type.Object(courseFigures, { $id: 'CourseStatsSummary' });
export type CourseStatsSummary = Static<typeof CourseStatsSummary>;

export const CourseStats = Type.Object(
  {
    ...courseFigures,
    revenue: Type.Array(NetAmount, {
      description: "Charges minus refunds of the orders' items of this course, per currency, all time",
    }),
  },
  { $id: 'CourseStats' },
);
export type CourseStats = Static<typeof CourseStats>;

export const CourseStatsListQuery = Type.Object(
  {
    ...ListQueryBase,
    status: Type.Optional(
      Type.Union([Type.Literal('draft'), Type.Literal('published'), Type.Literal('archived')], {
        description: "The courses' status",
      }),
    ),
  },
  { additionalProperties: false },
);
export type CourseStatsListQuery = Static<typeof CourseStatsListQuery>;

export const CourseStatsPage = Page(CourseStatsSummary);

export const CourseIdParams = Type.Object({ id: Id('crs') }, { additionalProperties: false });

export const EventAttendance = Type.Object(
  {
    event_id: Id('evt'),
    title: Type.String(),
    starts_at: Timestamp,
    registered: Type.Integer({ description: 'People holding a seat (waitlisted and canceled ones are not counted)' }),
    attended: Type.Integer({ description: 'Seat holders staff recorded as attending' }),
    no_show: Type.Integer({ description: 'Seat holders not recorded as attending' }),
    attendance_rate: Type.Number({ minimum: 0, maximum: 1, description: 'attended ÷ registered (0 without any)' }),
  },
  { $id: 'EventAttendance' },
);
export type EventAttendance = Static<typeof EventAttendance>;

export const EventAttendanceListQuery = Type.Object(ListQueryBase, { additionalProperties: false });
export type EventAttendanceListQuery = Static<typeof EventAttendanceListQuery>;

export const EventAttendancePage = Page(EventAttendance);
