import type { Executor } from '../../db/tables.ts';

/** Ends a person's private calendar feed (its address names their registrations). */
export async function endCalendarFeedOf(ex: Executor, userId: string) {
  await ex.deleteFrom('calendar_feeds').where('user_id', '=', userId).execute();
}
