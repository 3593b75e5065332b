import { newId } from '../../db/ids.ts';
import { insertWith } from '../../db/request-writes.ts';
import type { Executor, PostsTable } from '../../db/tables.ts';
import { matchesText } from '../../db/text-search.ts';
import { errors } from '../../http/errors.ts';
import { isStaff, type Principal } from '../../http/principal.ts';
import type { AreaDeps } from '../deps.ts';
import { paginate } from '../pagination.ts';
import { withRowLock } from '../row-locks.ts';
import { slugRules } from '../slugs.ts';
import type { MembershipRule } from '../subscriptions/service.ts';

/** Deletes the comments on a target being deleted (they point at it by id, without a foreign key). */
export type CommentsCleanup = { removeFor(trx: Executor, targetType: 'post', targetId: string): Promise<void> };

import type { Post, PostCreate, PostListQuery, PostSchedule, PostUpdate } from './schema.ts';
import { type PostReader, type PostsStore, readablePosts } from './store.ts';

function toPost(row: PostsTable): Post {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    body: row.body,
    excerpt: row.excerpt,
    cover_url: row.cover_url,
    tags: JSON.parse(row.tags) as string[],
    visibility: row.visibility,
    plan_ids: JSON.parse(row.plan_ids) as string[],
    status: row.status,
    scheduled_at: row.scheduled_at,
    published_at: row.published_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const PUBLISH_DUE = 'posts.publish_due';

/**
 * Posts. Staff see every post; anyone else sees published posts whose visibility they may read; anything else is
 * 404, never 403. published_at is set while (and only while) a post is published; scheduled_at while it is
 * scheduled. Scheduling a post also queues a durable job due at its time, which runs publishDue (it publishes every
 * post that fell due, so a moved or cancelled schedule leaves a job that finds nothing to do); the server also runs
 * publishDue once at start.
 */
export function postsService(
  deps: AreaDeps & {
    store: PostsStore;
    onChange: () => void;
    /** Which plans a person holds now: "members" and "plans" posts follow real memberships. */
    memberships: Pick<MembershipRule, 'activePlanIds'>;
    /** The comments area: a deleted post's comments go with it, in its transaction. */
    comments: CommentsCleanup;
  },
) {
  const { db, clock, store, jobs } = deps;
  const now = () => clock.now().toISOString();
  const notFound = () => errors.notFound('post');

  /**
   * The caller as a reader of posts (store.ts `readablePosts` is the rule): staff read everything; a signed-in person
   * with the plans they hold now; anonymous callers with none. "members" posts are for anyone holding a plan, "plans"
   * posts for holders of one of their plan_ids: a free account reads neither (paid content fails closed).
   */
  async function readerOf(principal: Principal): Promise<PostReader> {
    if (isStaff(principal)) return { all: true };
    if (principal.kind !== 'user') return { all: false, planIds: [] };
    return { all: false, planIds: await deps.memberships.activePlanIds(db, principal.userId, now()) };
  }

  /** A published post the caller may read, by id or slug: what the school's public pages and comments go by. */
  const publishedFor = async (principal: Principal, key: string, by?: 'id') =>
    store.findReadable(db, key, await readerOf(principal), by);

  async function publishDue() {
    const published = await db.transaction().execute((tx) => store.publishDue(tx, now()));
    if (published > 0) deps.onChange();
    return published;
  }
  jobs.handle(PUBLISH_DUE, publishDue);

  const withPost = <T>(id: string, fn: (trx: Executor, row: PostsTable) => Promise<T>) =>
    withRowLock(db, 'posts', id, notFound, fn);

  /** The slug rules, checked on `ex`: inside a transaction they must run on it (SQLite has one connection). */
  const slugsOn = (ex: Executor) => slugRules('post', (slug, exceptId) => store.slugTaken(ex, slug, exceptId));
  const slugs = slugsOn(db);

  /** The audience after a write: "plans" needs plan ids, and plan ids mean nothing without "plans". */
  function audience(visibility: PostsTable['visibility'], planIds: string[] | undefined, previous: string[]) {
    const plans = planIds ?? (visibility === 'plans' ? previous : []);
    if (visibility === 'plans' && plans.length === 0) {
      throw errors.invalidRequest('Visibility "plans" needs at least one plan id in plan_ids.', [
        { field: 'plan_ids', code: 'required', message: 'List the plans whose members may read the post.' },
      ]);
    }
    if (visibility !== 'plans' && plans.length > 0) {
      throw errors.invalidRequest(
        'plan_ids apply only to visibility "plans"; set visibility to "plans" or drop them.',
        [{ field: 'plan_ids', code: 'not_allowed', message: 'Only for visibility "plans".' }],
      );
    }
    return JSON.stringify(plans);
  }

  async function setStatus(trx: Executor, row: PostsTable, changes: Partial<PostsTable>) {
    const next = { ...changes, updated_at: now() };
    await store.update(trx, row.id, next);
    return toPost({ ...row, ...next });
  }

  return {
    async list(principal: Principal, query: PostListQuery) {
      let q = store.baseQuery(db);
      if (query.status) q = q.where('status', '=', query.status);
      if (query.visibility) q = q.where('visibility', '=', query.visibility);
      if (query.tag) q = q.where(store.hasTag(query.tag));
      if (query.q) q = q.where(matchesText(deps.config.database.engine, 'posts', query.q));
      if (!isStaff(principal)) q = q.where(readablePosts(await readerOf(principal)));
      const page = await paginate(q, query, 'id', 'created_at');
      return { ...page, data: page.data.map(toPost) };
    },

    async get(principal: Principal, key: string) {
      const row = isStaff(principal) ? await store.findByIdOrSlug(db, key) : await publishedFor(principal, key);
      if (!row) throw notFound();
      return toPost(row);
    },

    /** A published post the caller may read, by id or slug (the school's public post pages; drafts are 404 there). */
    async getPublished(principal: Principal, key: string) {
      const row = await publishedFor(principal, key);
      if (!row) throw notFound();
      return toPost(row);
    },

    /** Whether a post is published and the caller may read it (comments are open only on such posts). */
    isPublishedFor: async (principal: Principal, id: string) => (await publishedFor(principal, id, 'id')) !== undefined,

    async create(input: PostCreate) {
      const title = input.title.trim();
      if (!title) throw errors.invalidRequest('A post needs a title; send a non-blank "title".');
      const visibility = input.visibility ?? 'public';
      const planIds = audience(visibility, input.plan_ids, []);
      const slug = await slugs.choose(input.slug, title);
      const at = now();
      const row: PostsTable = {
        id: newId('pst'),
        title,
        slug,
        body: input.body ?? '',
        excerpt: input.excerpt ?? '',
        cover_url: input.cover_url ?? null,
        tags: JSON.stringify(input.tags ?? []),
        visibility,
        plan_ids: planIds,
        status: 'draft',
        scheduled_at: null,
        published_at: null,
        created_at: at,
        updated_at: at,
      };
      return slugs.write(slug, () => insertWith(db, deps.writes, (ex) => store.insert(ex, row), toPost(row)));
    },

    async update(id: string, input: PostUpdate) {
      if (input.title !== undefined && !input.title.trim())
        throw errors.invalidRequest('A post needs a title; send a non-blank "title".');
      return withPost(id, async (trx, row) => {
        await slugsOn(trx).assertFree(input.slug, id);
        const changes: Partial<PostsTable> = { updated_at: now() };
        if (input.visibility !== undefined || input.plan_ids !== undefined) {
          const visibility = input.visibility ?? row.visibility;
          changes.visibility = visibility;
          changes.plan_ids = audience(visibility, input.plan_ids, JSON.parse(row.plan_ids) as string[]);
        }
        if (input.title !== undefined) changes.title = input.title.trim();
        if (input.slug !== undefined) changes.slug = input.slug;
        if (input.body !== undefined) changes.body = input.body;
        if (input.excerpt !== undefined) changes.excerpt = input.excerpt;
        if (input.cover_url !== undefined) changes.cover_url = input.cover_url;
        if (input.tags !== undefined) changes.tags = JSON.stringify(input.tags);
        await slugs.write(input.slug, () => store.update(trx, id, changes));
        return toPost({ ...row, ...changes });
      });
    },

    /** The status condition is part of the DELETE, so a publish racing it either wins (409 here) or finds no post. */
    async delete(id: string) {
      const deleted = await db.transaction().execute(async (trx) => {
        if (!(await store.deleteUnpublished(trx, id))) return false;
        await deps.comments.removeFor(trx, 'post', id);
        return true;
      });
      if (deleted) return;
      if (!(await store.findById(db, id))) throw notFound();
      throw errors.conflict(
        `A published post cannot be deleted; unpublish it first (POST /api/v1/posts/${id}/unpublish).`,
      );
    },

    /** Publishes now, from draft or scheduled (a schedule is dropped). */
    publish: (id: string) =>
      withPost(id, async (trx, row) => {
        if (row.status === 'published') return toPost(row);
        return setStatus(trx, row, { status: 'published', published_at: now(), scheduled_at: null });
      }),

    /** Schedules a draft (or moves a scheduled post's time); publishDue publishes it when the time comes. */
    async schedule(id: string, input: PostSchedule) {
      const at = new Date(input.publish_at);
      if (Number.isNaN(at.getTime()) || at.getTime() <= clock.now().getTime()) {
        throw errors.invalidRequest(
          'The time to publish must be in the future; or publish the post right away ' +
            `(POST /api/v1/posts/${id}/publish).`,
          [{ field: 'publish_at', code: 'past', message: 'Must be in the future.' }],
        );
      }
      return withPost(id, async (trx, row) => {
        if (row.status === 'published') {
          throw errors.conflict(
            `This post is already published; unpublish it first (POST /api/v1/posts/${id}/unpublish) to schedule it.`,
          );
        }
        await jobs.enqueue(trx, PUBLISH_DUE, null, { runAt: at });
        return setStatus(trx, row, { status: 'scheduled', scheduled_at: at.toISOString() });
      });
    },

    /** Back to draft, from published or scheduled (the schedule is cancelled). */
    unpublish: (id: string) =>
      withPost(id, async (trx, row) => {
        if (row.status === 'draft') return toPost(row);
        return setStatus(trx, row, { status: 'draft', published_at: null, scheduled_at: null });
      }),

    /** Publishes every scheduled post that is due, in one transaction; returns how many. */
    publishDue,

    /**
     * The ids of the posts the caller may read, as a subquery: comments on posts are listed by it, so the rule of who
     * reads which post stays here.
     */
    readableIds: async (principal: Principal) => store.readableIds(db, await readerOf(principal)),
  };
}

export type PostsService = ReturnType<typeof postsService>;
