import type { Executor } from '../../db/tables.ts';

const DAY_MS = 86_400_000;

/**
 * The one rule of who holds a plan now, for course access, member status, plan-included products and posts:
 * - a subscription trialing or active, until its period end, plus the grace days unless it cancels at that end
 *   (a renewal reported late must not shut the door);
 * - a subscription past due, until its period end plus the grace days (the provider is retrying the payment);
 * - a one-time price's subscription (no period end) while it is active;
 * - a comp, until its date (no date: until taken away).
 * Paused and canceled subscriptions hold nothing.
 */
export function membershipRule(graceDays: number) {
  return {
    /** The plan ids `userId` holds at `now` (ISO). */
    async activePlanIds(ex: Executor, userId: string, now: string): Promise<string[]> {
      const graceCutoff = new Date(Date.parse(now) - graceDays * DAY_MS).toISOString();
      const subscribed = await ex
        .selectFrom('subscriptions')
        .select('plan_id')
        .where('user_id', '=', userId)
        .where((eb) =>
          eb.or([
            eb.and([
              eb('status', 'in', ['trialing', 'active']),
              eb.or([
                eb('current_period_end', 'is', null),
                eb.and([eb('cancel_at_period_end', '=', 1), eb('current_period_end', '>', now)]),
                eb.and([eb('cancel_at_period_end', '=', 0), eb('current_period_end', '>', graceCutoff)]),
              ]),
            ]),
            eb.and([eb('status', '=', 'past_due'), eb('current_period_end', '>', graceCutoff)]),
          ]),
        )
        .execute();
      const comped = await ex
        .selectFrom('members')
        .select('comp_plan_id')
        .where('user_id', '=', userId)
        .where('comp_plan_id', 'is not', null)
        .where((eb) => eb.or([eb('comp_until', 'is', null), eb('comp_until', '>', now)]))
        .execute();
      return [...new Set([...subscribed.map((r) => r.plan_id), ...comped.map((r) => r.comp_plan_id as string)])];
    },
  };
}

export type MembershipRule = ReturnType<typeof membershipRule>;
