import { sql } from 'kysely';
import type { Executor, PostsTable } from '../../db/tables.ts';
import { literalLike } from '../../db/text-match.ts';

export function postsStore() {
  return {
    baseQuery: (ex: Executor) => ex.selectFrom('posts').selectAll(),

    /** A condition for posts whose JSON `tags` array holds exactly `tag`. */
    hasTag: (tag: string) =>
      sql<boolean>`${sql.ref('tags')} like ${`%${literalLike(JSON.stringify(tag))}%`} escape '\\'`,

    findByIdOrSlug: (ex: Executor, key: string) =>
      ex
        .selectFrom('posts')
        .selectAll()
        .where((eb) => eb.or([eb('id', '=', key), eb('slug', '=', key)]))
        .executeTakeFirst(),

    findById: (ex: Executor, id: string) => ex.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirst(),

    slugTaken: async (ex: Executor, slug: string, exceptId?: string) => {
      let query = ex.selectFrom('posts').select('id').where('slug', '=', slug);
      if (exceptId) query = query.where('id', '!=', exceptId);
      return (await query.executeTakeFirst()) !== undefined;
    },

    insert: async (ex: Executor, row: PostsTable) => {
      await ex.insertInto('posts').values(row).execute();
    },

    update: async (ex: Executor, id: string, changes: Partial<PostsTable>) => {
      await ex.updateTable('posts').set(changes).where('id', '=', id).execute();
    },

    /**
     * Deletes the post unless it is published (decided in the DELETE itself) and then the comments on it (comments
     * point at their target by id, without a foreign key); returns whether the post went. Run it in a transaction.
     */
    deleteUnpublished: async (ex: Executor, id: string) => {
      const result = await ex
        .deleteFrom('posts')
        .where('id', '=', id)
        .where('status', '<>', 'published')
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return false;
      await ex.deleteFrom('comments').where('target_type', '=', 'post').where('target_id', '=', id).execute();
      return true;
    },

    /** Publishes every scheduled post whose time has come; returns how many. */
    publishDue: async (ex: Executor, now: string) => {
      const result = await ex
        .updateTable('posts')
        .set({ status: 'published', published_at: now, scheduled_at: null, updated_at: now })
        .where('status', '=', 'scheduled')
        .where('scheduled_at', '<=', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}

export type PostsStore = ReturnType<typeof postsStore>;
