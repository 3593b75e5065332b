import type { Executor, PlanPricesTable } from '../../db/tables.ts';
import type { Principal } from '../../http/principal.ts';
import type { ListPage, ListParams } from '../pagination.ts';
import type { CountMetric, CourseStatsListQuery } from './schema.ts';

/**
 * What analytics reads of the areas whose rows it counts. Each owner answers with its own tables (the composition
 * root, areas/index.ts, hands in their implementations); analytics keeps only its revenue rollup.
 */

/** Rows (or people) per bucket of time: bucket i of `edges` to its count, buckets with none absent. */
type PerBucket = Map<number, number>;

/** The courses area: a course by id, and its list as staff see it (every course, narrowed by status). */
export type CourseCatalog = {
  find(ex: Executor, id: string): Promise<{ id: string; title: string } | undefined>;
  list(principal: Principal, query: CourseStatsListQuery): Promise<ListPage<{ id: string; title: string }>>;
};

export type LearningMetric = Extract<CountMetric, 'enrollments' | 'completions' | 'active_students'>;

/** The students area's enrollments and lesson progress. */
export type EnrollmentFacts = {
  perBucket(ex: Executor, metric: LearningMetric, edges: string[], courseId?: string): Promise<PerBucket>;
  /** Enrollments and completions of each course of `ids`. */
  enrollmentTotals(ex: Executor, ids: string[]): Promise<Map<string, { enrollments: number; completions: number }>>;
  /** People who completed a lesson of each course of `ids` since `since`. */
  activeStudents(ex: Executor, ids: string[], since: string): Promise<Map<string, number>>;
};

export type MembershipMetric = Exclude<CountMetric, LearningMetric>;

/** The subscriptions area: who subscribed and canceled, and when subscriptions start and stop paying, per price. */
export type RecurringFacts = {
  perBucket(ex: Executor, metric: MembershipMetric, edges: string[]): Promise<PerBucket>;
  /** Paying at `first` per price (`at` null, `n` of them), then each start (+1) and stop (-1) to `last`, in order. */
  payingChanges(
    ex: Executor,
    first: string,
    last: string,
  ): Promise<{ at: string | null; price_id: string; n: number }[]>;
};

/** The membership plans area: what each price costs and how often. */
export type PriceTerms = (
  ex: Executor,
  ids: string[],
) => Promise<Pick<PlanPricesTable, 'id' | 'amount' | 'currency' | 'interval'>[]>;

/** The orders area's ledger as one course's share of it (negative for refunds). */
export type LedgerFacts = {
  rowsBetween(
    ex: Executor,
    courseId: string,
    from: string,
    to: string,
  ): Promise<{ at: string; currency: string; amount: number }[]>;
  totals(ex: Executor, courseId: string): Promise<{ currency: string; amount: number }[]>;
};

/** The events area: events that have started by `now` (not canceled), with their seat holders and who attended. */
export type EventFacts = (
  ex: Executor,
  now: string,
  params: ListParams,
) => Promise<ListPage<{ id: string; title: string; starts_at: string; registered: number; attended: number }>>;
