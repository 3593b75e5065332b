import { sql } from 'kysely';
import type { Executor, PostsTable } from '../../db/tables.ts';
import { literalLike } from '../../db/text-match.ts';

/** Who is reading, for the posts rule: staff (`all`), or someone holding the plans `planIds` (none: anonymous, free). */
export type PostReader = { all: true } | { all: false; planIds: string[] };

/**
 * The one rule of which posts a reader may read, in SQL for every path (lists, single posts, the comments on them):
 * published posts, and unless the reader is staff only those public, "members" ones when they hold any plan, and
 * "plans" ones naming a plan they hold.
 */
export function readablePosts(reader: PostReader) {
  const published = sql<boolean>`${sql.ref('posts.status')} = 'published'`;
  if (reader.all) return published;
  const visibility = sql.ref('posts.visibility');
  const open = [sql<boolean>`${visibility} = 'public'`];
  if (reader.planIds.length) {
    open.push(sql<boolean>`${visibility} = 'members'`);
    const named = reader.planIds.map(
      (id) => sql<boolean>`${sql.ref('posts.plan_ids')} like ${`%${literalLike(JSON.stringify(id))}%`} escape '\\'`,
    );
    open.push(sql<boolean>`(${visibility} = 'plans' and (${sql.join(named, sql` or `)}))`);
  }
  return sql<boolean>`(${published} and (${sql.join(open, sql` or `)}))`;
}

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

    /** The ids of the posts `reader` may read, as a subquery another area's query can filter by. */
    readableIds: (ex: Executor, reader: PostReader) =>
      ex.selectFrom('posts').select('posts.id').where(readablePosts(reader)),

    /** The post `key` (id or slug) names if `reader` may read it. */
    /** A post the reader may read, by id or slug (`by: 'id'`: by id only). */
    findReadable: (ex: Executor, key: string, reader: PostReader, by: 'id' | 'id-or-slug' = 'id-or-slug') =>
      ex
        .selectFrom('posts')
        .selectAll()
        .where((eb) => (by === 'id' ? eb('id', '=', key) : eb.or([eb('id', '=', key), eb('slug', '=', key)])))
        .where(readablePosts(reader))
        .executeTakeFirst(),

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
     * Deletes the post unless it is published (decided in the DELETE itself); returns whether the post went.
     */
    deleteUnpublished: async (ex: Executor, id: string) => {
      const result = await ex
        .deleteFrom('posts')
        .where('id', '=', id)
        .where('status', '<>', 'published')
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
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
