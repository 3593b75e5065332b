import type { Db, Executor } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import type { Clock } from '../../time/clock.ts';
import type { MembershipRule } from './memberships.ts';
import type { EnrollmentPort, PlanCoursesPort } from './ports.ts';
import type { SubscriptionsStore } from './store.ts';

/** How many people one transaction of a plan's resync goes through. */
const RESYNC_BATCH = 100;

/** The later of two access ends; null (no end) outlasts any time. */
const later = (a: string | null, b: string | null) => (a === null || b === null ? null : a > b ? a : b);

/**
 * Course access from plans. A plan's courses open to the people who hold it as enrollments of source
 * `subscription`, through the students area's enrollment rules, each ending when the last plan that includes the
 * course stops being held (membershipRule: the period end, plus the grace days unless it cancels then; a comp's
 * date; never, for a membership for life). Because the end is written on the enrollment, access closes by itself at
 * that time — the enrollment's own expiry, which every access check already compares — and only changes of state
 * need a resync.
 *
 * An enrollment of another source (manual, order, import) that gives access is never touched, shortened or taken
 * over; one that gives no access any more (revoked, expired) is reopened as the plan's. A subscription's enrollment
 * that staff revoked while the plan is held is reopened at the next resync: plan access follows the membership.
 */
export function planAccess(deps: {
  db: Db;
  clock: Clock;
  rule: MembershipRule;
  store: SubscriptionsStore;
  enrollments: EnrollmentPort;
  plans: PlanCoursesPort;
}) {
  const { clock, rule, store, enrollments } = deps;

  /** Recomputes, in `trx`, the plan-given enrollments of `userId` from the plans they hold now. */
  async function syncPlanAccess(trx: Executor, userId: string): Promise<void> {
    const now = clock.now().toISOString();
    const holdings = await rule.holdings(trx, [userId], now);
    const courses = await deps.plans.planCourses(trx, [...new Set(holdings.map((h) => h.planId))]);
    const until = new Map<string, string | null>();
    for (const course of courses)
      for (const holding of holdings.filter((h) => h.planId === course.plan_id))
        until.set(course.id, until.has(course.id) ? later(until.get(course.id) ?? null, holding.until) : holding.until);
    const current = new Map((await store.enrollmentsFor(trx, userId, [...until.keys()])).map((e) => [e.course_id, e]));

    let person: { id: string; email: string; name: string } | undefined;
    for (const [courseId, end] of until) {
      const row = current.get(courseId);
      if (row?.source === 'subscription') {
        // Unchanged (the common case on a resync): no row lock, no write.
        if (row.expires_at !== end || row.status === 'revoked')
          await enrollments.setExpiry(trx, userId, courseId, 'subscription', end);
        continue;
      }
      if (row && enrollments.givesAccess(row, now)) continue;
      person ??= await store.findPerson(trx, userId);
      const course = courses.find((c) => c.id === courseId);
      if (!person || !course) throw errors.serverError();
      await enrollments.enroll(trx, person, course, { expiresAt: end, source: 'subscription', confirm: false });
    }
    for (const row of current.values())
      if (row.source === 'subscription' && !until.has(row.course_id) && enrollments.givesAccess(row, now))
        await enrollments.setExpiry(trx, userId, row.course_id, 'subscription', now);
  }

  return {
    syncPlanAccess,

    /**
     * Resyncs everyone a plan may give access (its course list changed): a batch of people per transaction, so a
     * plan with many holders neither holds one long transaction nor starts over when run again.
     */
    async syncPlanHolders(planId: string): Promise<number> {
      let after = '';
      let done = 0;
      for (;;) {
        const batch = await store.planHolders(deps.db, planId, after, RESYNC_BATCH);
        if (batch.length === 0) return done;
        await deps.db.transaction().execute(async (trx) => {
          for (const { user_id } of batch) await syncPlanAccess(trx, user_id);
        });
        done += batch.length;
        after = batch.at(-1)?.user_id ?? after;
      }
    },
  };
}

export type PlanAccess = ReturnType<typeof planAccess>;
