import type { Db, Executor } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import type { Clock } from '../../time/clock.ts';
import type { MembershipRule } from './memberships.ts';
import type { CompsPort, CoursesPort, EnrollmentPort, PlanCoursesPort } from './ports.ts';
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
  courses: CoursesPort;
  comps: Pick<CompsPort, 'holders'>;
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
        until.set(
          course.course_id,
          until.has(course.course_id) ? later(until.get(course.course_id) ?? null, holding.until) : holding.until,
        );
    const current = new Map(
      (await enrollments.ofPlanAccess(trx, userId, [...until.keys()])).map((e) => [e.course_id, e]),
    );
    const opens = (courseId: string) => {
      const row = current.get(courseId);
      return row?.source !== 'subscription' && !(row && enrollments.givesAccess(row, now));
    };
    // The courses to enroll in are read once, all together (none, on the common resync).
    const opening = [...until.keys()].filter(opens);
    const titled = new Map((opening.length ? await deps.courses.findByIds(trx, opening) : []).map((c) => [c.id, c]));

    let person: { id: string; email: string; name: string } | undefined;
    for (const [courseId, end] of until) {
      const row = current.get(courseId);
      if (row?.source === 'subscription') {
        // Unchanged (the common case on a resync): no row lock, no write.
        if (row.expires_at !== end || row.status === 'revoked')
          await enrollments.setExpiry(trx, userId, courseId, 'subscription', end);
        continue;
      }
      if (!opens(courseId)) continue;
      person ??= await store.findPerson(trx, userId);
      const course = titled.get(courseId);
      if (!person || !course) throw errors.serverError();
      await enrollments.enroll(trx, person, course, { expiresAt: end, source: 'subscription', confirm: false });
    }
    for (const row of current.values())
      if (row.source === 'subscription' && !until.has(row.course_id) && enrollments.givesAccess(row, now))
        await enrollments.setExpiry(trx, userId, row.course_id, 'subscription', now);
  }

  /**
   * The next batch of people a plan may give access, after `afterUserId` in id order: those with a subscription to
   * it not canceled, and those it is comped to. The first batch of each side holds the first batch of both.
   */
  async function planHolders(planId: string, afterUserId: string): Promise<string[]> {
    const [subscribers, comped] = await Promise.all([
      store.planSubscribers(deps.db, planId, afterUserId, RESYNC_BATCH),
      deps.comps.holders(deps.db, planId, afterUserId, RESYNC_BATCH),
    ]);
    return [...new Set([...subscribers, ...comped])].sort().slice(0, RESYNC_BATCH);
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
        const batch = await planHolders(planId, after);
        if (batch.length === 0) return done;
        await deps.db.transaction().execute(async (trx) => {
          for (const userId of batch) await syncPlanAccess(trx, userId);
        });
        done += batch.length;
        after = batch.at(-1) ?? after;
      }
    },
  };
}

export type PlanAccess = ReturnType<typeof planAccess>;
