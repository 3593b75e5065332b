import type { CoursesTable, EnrollmentsTable, Executor, MembersTable } from '../../db/tables.ts';

/**
 * What subscriptions need of the areas around them. Each is called inside the subscription's transaction, so a
 * renewal's charge and the access a plan gives commit with the subscription's new state; the composition root
 * (areas/index.ts) hands in the owning areas' implementations.
 */

/** A renewal's charge, as the orders area records it in its ledger (orders/ledger.ts takes this type). */
export type RenewalCharge = {
  userId: string;
  subscriptionId: string;
  plan: { id: string; name: string };
  price: { id: string; amount: number; currency: string };
  provider: 'test' | 'stripe';
  /** The provider's reference of the charge (a Stripe invoice id), which makes recording it again a no-op. */
  paymentRef: string | null;
  at: string;
};

/** The orders area's ledger: a renewal becomes a paid order of kind "renewal" with its charge. */
export type RenewalLedger = { recordRenewal(trx: Executor, charge: RenewalCharge): Promise<unknown> };

/** The membership plans area's rule of which courses each plan gives now (listed, or every course by rule). */
export type PlanCoursesPort = {
  planCourses(ex: Executor, planIds: string[]): Promise<{ plan_id: string; course_id: string }[]>;
};

/** The courses area's courses, as an enrollment names them. */
export type CoursesPort = {
  findByIds(ex: Executor, ids: string[]): Promise<Pick<CoursesTable, 'id' | 'title' | 'slug' | 'status'>[]>;
};

/** The students area's enrollments, which plan access opens, moves and closes. */
export type EnrollmentPort = {
  /** A person's enrollments that a plan gave, or that are in one of `courseIds`. */
  ofPlanAccess(
    ex: Executor,
    userId: string,
    courseIds: string[],
  ): Promise<Pick<EnrollmentsTable, 'id' | 'course_id' | 'source' | 'status' | 'expires_at'>[]>;
  enroll(
    trx: Executor,
    user: { id: string; email: string; name: string },
    course: Pick<CoursesTable, 'id' | 'title' | 'slug' | 'status'>,
    input: { expiresAt: string | null; source: EnrollmentsTable['source']; confirm: boolean },
  ): Promise<unknown>;
  setExpiry(
    trx: Executor,
    userId: string,
    courseId: string,
    source: EnrollmentsTable['source'],
    expiresAt: string | null,
  ): Promise<boolean>;
  /** Whether an enrollment opens its course at `now` (the students area's rule). */
  givesAccess(row: Pick<EnrollmentsTable, 'status' | 'expires_at'>, now: string): boolean;
};

/** The members area's profiles: a subscriber is a member, so starting a subscription makes one if there is none. */
export type MemberPort = { ensure(trx: Executor, row: MembersTable): Promise<unknown> };

/** The members area's comps: a comp gives its plan until its date (none: until taken back). */
export type CompsPort = {
  /** The comps each of `userIds` holds at `now` (ISO). */
  held(
    ex: Executor,
    userIds: string[],
    now: string,
  ): Promise<{ userId: string; planId: string; until: string | null }[]>;
  /** The people `planId` is comped to (held now or not), a page at a time in id order. */
  holders(ex: Executor, planId: string, afterUserId: string, limit: number): Promise<string[]>;
};
