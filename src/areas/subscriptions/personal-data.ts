import type { Executor } from '../../db/tables.ts';

/**
 * Whether the person has a membership that will charge them again (not canceled, not set to end, not one-time): it
 * is canceled first, so no payment is taken from someone the school no longer knows.
 */
export async function hasRenewingSubscription(ex: Executor, userId: string) {
  const row = await ex
    .selectFrom('subscriptions')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', '!=', 'canceled')
    .where('cancel_at_period_end', '=', 0)
    .where('current_period_end', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
