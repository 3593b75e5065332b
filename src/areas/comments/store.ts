import type { SelectQueryBuilder } from 'kysely';
import type { CommentsTable, Executor, Tables } from '../../db/tables.ts';

const withAuthor = (ex: Executor) =>
  ex
    .selectFrom('comments')
    .innerJoin('users', 'users.id', 'comments.user_id')
    .selectAll('comments')
    .select('users.name as author_name');

export type CommentQuery = ReturnType<typeof withAuthor>;

export function commentsStore() {
  return {
    /** Comments with their author's name. */
    baseQuery: withAuthor,

    /**
     * Only visible comments on the posts whose ids `readablePostIds` selects (the posts area decides), or on the given
     * lessons (whose visibility the curriculum area decided).
     */
    onlyReadable: (
      q: CommentQuery,
      readablePostIds: SelectQueryBuilder<Tables, keyof Tables, { id: string }>,
      lessonIds: string[],
    ) =>
      q
        .where('comments.status', '=', 'visible')
        .where((eb) =>
          eb.or([
            eb.and([eb('comments.target_type', '=', 'post'), eb('comments.target_id', 'in', readablePostIds)]),
            ...(lessonIds.length
              ? [eb.and([eb('comments.target_type', '=', 'lesson'), eb('comments.target_id', 'in', lessonIds)])]
              : []),
          ]),
        ),

    findById: (ex: Executor, id: string) => withAuthor(ex).where('comments.id', '=', id).executeTakeFirst(),

    /** The newest `limit` visible comments on one target, oldest first. */
    recentVisible: async (ex: Executor, targetType: CommentsTable['target_type'], targetId: string, limit: number) =>
      (
        await withAuthor(ex)
          .where('comments.target_type', '=', targetType)
          .where('comments.target_id', '=', targetId)
          .where('comments.status', '=', 'visible')
          .orderBy('comments.id', 'desc')
          .limit(limit)
          .execute()
      ).reverse(),

    /** Deletes the comments on a target that is being deleted (they point at it by id, without a foreign key). */
    deleteFor: async (ex: Executor, targetType: CommentsTable['target_type'], targetId: string) => {
      await ex.deleteFrom('comments').where('target_type', '=', targetType).where('target_id', '=', targetId).execute();
    },

    insert: async (ex: Executor, row: CommentsTable) => {
      await ex.insertInto('comments').values(row).execute();
    },

    /**
     * Moves a comment to `to` if it is in one of `from`, decided by the statement that writes (two moderators at once
     * cannot both act on the same state); deleting also erases the text. Returns whether it moved.
     */
    moveStatus: async (
      ex: Executor,
      id: string,
      from: CommentsTable['status'][],
      to: CommentsTable['status'],
      at: string,
    ) => {
      const result = await ex
        .updateTable('comments')
        .set({ status: to, updated_at: at, ...(to === 'deleted' ? { body: '' } : {}) })
        .where('id', '=', id)
        .where('status', 'in', from)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

export type CommentsStore = ReturnType<typeof commentsStore>;
