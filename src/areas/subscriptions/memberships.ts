import { type Selectable, sql } from 'kysely';
import type { Executor, SubscriptionsTable } from '../../db/tables.ts';
import type { CompsPort } from './ports.ts';

const DAY_MS = 86_400_000;

/** What a person holds a plan through, and until when (null: until taken away, or for life). */
export type Holding = { userId: string; planId: string; via: 'subscription' | 'comp'; until: string | null };

type SubscriptionTerms = Pick<Selectable<SubscriptionsTable>, 'status' | 'current_period_end' | 'cancel_at_period_end'>;

/**
 * The one rule of who holds a plan now, for course access, member status, plan-included products and posts:
 * - a subscription trialing or active, until its period end, plus the grace days unless it cancels at that end
 *   (a renewal reported late must not shut the door);
 * - a subscription past due, until its period end plus the grace days (the provider is retrying the payment);
 * - a one-time price's subscription (no period end) while it is active;
 * - a comp, until its date (no date: until taken away): the members area's rows, asked through `comps`.
 * Paused and canceled subscriptions hold nothing.
 *
 * Whether a subscription holds is decided in SQL (`subscriptionHolds`, `subscribed`), so lists filter by it; when
 * the holding ends (`until`, which course access is given until) is worked out from those same rows by `accessEnd`,
 * by the same terms: a row holds at `now` exactly when its end is null or after `now`.
 */
export function membershipRule(graceDays: number, comps: Pick<CompsPort, 'held'>) {
  const graceCutoff = (now: string) => new Date(Date.parse(now) - graceDays * DAY_MS).toISOString();

  /** The `subscriptions` row of the query holds its plan at `now`. */
  const subscriptionHolds = (now: string) => {
    const cutoff = graceCutoff(now);
    const status = sql.ref('subscriptions.status');
    const end = sql.ref('subscriptions.current_period_end');
    const cancels = sql.ref('subscriptions.cancel_at_period_end');
    return sql<boolean>`((${status} in ('trialing', 'active') and (${end} is null or (${cancels} = 1 and ${end} > ${now}) or (${cancels} = 0 and ${end} > ${cutoff}))) or (${status} = 'past_due' and ${end} > ${cutoff}))`;
  };

  /**
   * The person whose id is the query's `userColumn` holds `planId` (any plan when absent) through a subscription at
   * `now`: a condition other areas' lists filter by (the members list by status and plan).
   */
  const subscribed = (userColumn: string, now: string, planId?: string) =>
    sql<boolean>`exists (select 1 from subscriptions where ${sql.ref('subscriptions.user_id')} = ${sql.ref(userColumn)}${
      planId ? sql` and ${sql.ref('subscriptions.plan_id')} = ${planId}` : sql``
    } and ${subscriptionHolds(now)})`;

  /** When a holding subscription stops holding: the terms of `subscriptionHolds`, as a time. */
  const accessEnd = (row: SubscriptionTerms): string | null => {
    if (row.current_period_end === null) return null;
    if (row.status !== 'past_due' && Number(row.cancel_at_period_end) === 1) return row.current_period_end;
    return new Date(Date.parse(row.current_period_end) + graceDays * DAY_MS).toISOString();
  };

  /** Every plan each of `userIds` holds at `now` (ISO), with what through and until when. */
  async function holdings(ex: Executor, userIds: string[], now: string): Promise<Holding[]> {
    if (userIds.length === 0) return [];
    const rows = await ex
      .selectFrom('subscriptions')
      .select(['user_id', 'plan_id', 'status', 'current_period_end', 'cancel_at_period_end'])
      .where('user_id', 'in', userIds)
      .where(subscriptionHolds(now))
      .execute();
    const comped = await comps.held(ex, userIds, now);
    return [
      ...rows.map((r): Holding => ({ userId: r.user_id, planId: r.plan_id, via: 'subscription', until: accessEnd(r) })),
      ...comped.map((c): Holding => ({ userId: c.userId, planId: c.planId, via: 'comp', until: c.until })),
    ];
  }

  return {
    subscriptionHolds,
    subscribed,
    accessEnd,
    holdings,

    /** The plan ids `userId` holds at `now` (ISO). */
    async activePlanIds(ex: Executor, userId: string, now: string): Promise<string[]> {
      return [...new Set((await holdings(ex, [userId], now)).map((h) => h.planId))];
    },
  };
}

export type MembershipRule = ReturnType<typeof membershipRule>;
