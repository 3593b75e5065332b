import type { Executor } from '../../db/tables.ts';

/** Where a person stopped in each video or audio lesson, for the export of their own data (account area). */
export const playbackOfPerson = (ex: Executor, userId: string) =>
  ex
    .selectFrom('playback_positions')
    .select(['lesson_id', 'position_s', 'duration_s', 'updated_at'])
    .where('user_id', '=', userId)
    .orderBy('updated_at')
    .execute();
