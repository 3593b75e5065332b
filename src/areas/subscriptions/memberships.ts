import { type Selectable, sql } from 'kysely';
import type { Executor, MembersTable, SubscriptionsTable } from '../../db/tables.ts';

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
 * - a comp, until its date (no date: until taken away).
 * Paused and canceled subscriptions hold nothing.
 *
 * Whether a row holds is decided in SQL (`subscriptionHolds`, `compHolds`), so lists filter by it; when the holding
 * ends (`until`, which course access is given until) is worked out from those same rows by `accessEnd`, by the same
 * terms: a row holds at `now` exactly when its end is null or after `now`.
 */
export function membershipRule(graceDays: number) {
  const graceCutoff = (now: string) => new Date(Date.parse(now) - graceDays * DAY_MS).toISOString();

  /** The `subscriptions` row of the query holds its plan at `now`. */
  const subscriptionHolds = (now: string) => {
    const cutoff = graceCutoff(now);
    const status = sql.ref('subscriptions.status');
    const end = sql.ref('subscriptions.current_period_end');
    const cancels = sql.ref('subscriptions.cancel_at_period_end');
    return sql<boolean>`((${status} in ('trialing', 'active') and (${end} is null or (${cancels} = 1 and ${end} > ${now}) or (${cancels} = 0 and ${end} > ${cutoff}))) or (${status} = 'past_due' and ${end} > ${cutoff}))`;
  };

  /** The `members` row of the query holds its comped plan at `now`. */
  const compHolds = (now: string) =>
    sql<boolean>`(${sql.ref('members.comp_plan_id')} is not null and (${sql.ref('members.comp_until')} is null or ${sql.ref('members.comp_until')} > ${now}))`;

  /** When a holding subscription stops holding: the terms of `subscriptionHolds`, as a time. */
  const accessEnd = (row: SubscriptionTerms): string | null => {
    if (row.current_period_end === null) return null;
    if (row.status !== 'past_due' && Number(row.cancel_at_period_end) === 1) return row.current_period_end;
    return new Date(Date.parse(row.current_period_end) + graceDays * DAY_MS).toISOString();
  };

  /** Every plan each of `userIds` holds at `now` (ISO), with what through and until when. */
  async function holdings(ex: Executor, userIds: string[], now: string): Promise<Holding[]> {
    if (userIds.length === 0) return [];
    const subscribed = await ex
      .selectFrom('subscriptions')
      .select(['user_id', 'plan_id', 'status', 'current_period_end', 'cancel_at_period_end'])
      .where('user_id', 'in', userIds)
      .where(subscriptionHolds(now))
      .execute();
    const comped = await ex
      .selectFrom('members')
      .select(['user_id', 'comp_plan_id', 'comp_until'])
      .where('user_id', 'in', userIds)
      .where(compHolds(now))
      .execute();
    return [
      ...subscribed.map(
        (r): Holding => ({ userId: r.user_id, planId: r.plan_id, via: 'subscription', until: accessEnd(r) }),
      ),
      ...comped.map(
        (r): Holding => ({
          userId: r.user_id,
          planId: r.comp_plan_id as NonNullable<MembersTable['comp_plan_id']>,
          via: 'comp',
          until: r.comp_until,
        }),
      ),
    ];
  }

  return {
    subscriptionHolds,
    compHolds,
    accessEnd,
    holdings,

    /** The plan ids `userId` holds at `now` (ISO). */
    async activePlanIds(ex: Executor, userId: string, now: string): Promise<string[]> {
      return [...new Set((await holdings(ex, [userId], now)).map((h) => h.planId))];
    },
  };
}

export type MembershipRule = ReturnType<typeof membershipRule>;
