import type { Executor } from '../../db/tables.ts';

/** A leaving person's comments lose their words but keep their place, so the replies under them still read in order. */
export async function eraseCommentsOf(ex: Executor, userId: string, at: string) {
  await ex
    .updateTable('comments')
    .set({ body: '', status: 'deleted', updated_at: at })
    .where('user_id', '=', userId)
    .execute();
}
