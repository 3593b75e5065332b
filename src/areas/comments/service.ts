import { newId } from '../../db/ids.ts';
import type { CommentsTable } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import { isStaff, type Principal } from '../../http/principal.ts';
import type { CurriculumService } from '../curriculum/service.ts';
import type { AreaDeps } from '../deps.ts';
import { paginate } from '../pagination.ts';
import type { PostsService } from '../posts/service.ts';
import { COMMENT_MAX_LENGTH, type Comment, type CommentListQuery } from './schema.ts';
import type { CommentsStore } from './store.ts';

type CommentRow = CommentsTable & { author_name: string };

const MODERATION = {
  hide: { from: ['visible'], to: 'hidden', refusal: 'only a visible comment can be hidden.' },
  restore: { from: ['hidden'], to: 'visible', refusal: 'only a hidden comment can be restored.' },
  delete: { from: ['visible', 'hidden'], to: 'deleted', refusal: 'it was already deleted.' },
} as const satisfies Record<string, { from: CommentsTable['status'][]; to: CommentsTable['status']; refusal: string }>;

export function toComment(row: CommentRow): Comment {
  return {
    id: row.id,
    target_type: row.target_type,
    target_id: row.target_id,
    user_id: row.user_id,
    author_name: row.author_name,
    parent_id: row.parent_id,
    body: row.body,
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** How many comments a post's page shows (the newest ones); the API lists them all. */
export const COMMENTS_ON_PAGE = 200;

/**
 * Comments on posts and lessons. Signed-in users write them from the school's own pages; through the API staff read
 * and moderate them.
 * Staff see every comment, hidden and deleted ones too; anyone else sees visible comments on what they may read:
 * published posts of a visibility open to them, and lessons the curriculum area says they may see. Because lesson
 * access is decided per lesson, a non-staff list includes lesson comments only when it asks for one lesson
 * (target_id=les_…); otherwise it holds post comments.
 */
export function commentsService(
  deps: AreaDeps & { store: CommentsStore } & { posts: PostsService; curriculum: CurriculumService },
) {
  const { db, clock, store, posts, curriculum } = deps;
  const now = () => clock.now().toISOString();
  const notFound = () => errors.notFound('comment');

  /** A lesson's comments are readable where its content is; the curriculum area decides (previews, enrollments). */
  const lessonVisible = (principal: Principal, lessonId: string) => curriculum.lessonVisibleTo(principal, lessonId);

  async function targetVisible(principal: Principal, type: CommentsTable['target_type'], id: string) {
    return type === 'post' ? posts.isPublishedFor(principal, id) : lessonVisible(principal, id);
  }

  return {
    async list(principal: Principal, query: CommentListQuery) {
      let q = store.baseQuery(db);
      if (query.target_type) q = q.where('comments.target_type', '=', query.target_type);
      if (query.target_id) q = q.where('comments.target_id', '=', query.target_id);
      if (query.user_id) q = q.where('comments.user_id', '=', query.user_id);
      if (query.status) q = q.where('comments.status', '=', query.status);
      if (!isStaff(principal)) {
        const lessonId = query.target_id?.startsWith('les_') ? query.target_id : undefined;
        const lessons = lessonId && (await lessonVisible(principal, lessonId)) ? [lessonId] : [];
        q = store.onlyReadable(q, await posts.readableIds(principal), lessons);
      }
      const page = await paginate(q, query, 'comments.id', 'comments.created_at');
      return { ...page, data: page.data.map(toComment) };
    },

    async get(principal: Principal, id: string) {
      const row = await store.findById(db, id);
      if (!row) throw notFound();
      if (!isStaff(principal)) {
        if (row.status !== 'visible' || !(await targetVisible(principal, row.target_type, row.target_id)))
          throw notFound();
      }
      return toComment(row);
    },

    /** A signed-in user's comment on a published post or a lesson they may see. */
    async create(
      principal: Principal,
      input: {
        target_type: CommentsTable['target_type'];
        target_id: string;
        body: string;
        /** Answers this comment, which must be a visible one on the same target. */
        parent_id?: string | null;
      },
    ) {
      if (principal.kind !== 'user') throw errors.accessDenied('Sign in to comment.');
      if (!(await targetVisible(principal, input.target_type, input.target_id)))
        throw errors.notFound(input.target_type);
      if (input.parent_id) {
        const parent = await store.findById(db, input.parent_id);
        if (
          parent?.status !== 'visible' ||
          parent.target_type !== input.target_type ||
          parent.target_id !== input.target_id
        )
          throw errors.notFound('comment');
      }
      const body = input.body.trim();
      if (!body || body.length > COMMENT_MAX_LENGTH) {
        throw errors.invalidRequest(`A comment needs 1 to ${COMMENT_MAX_LENGTH} characters.`, [
          { field: 'body', code: 'length', message: `Write 1 to ${COMMENT_MAX_LENGTH} characters.` },
        ]);
      }
      const at = now();
      const row: CommentsTable = {
        id: newId('cmt'),
        target_type: input.target_type,
        target_id: input.target_id,
        user_id: principal.userId,
        parent_id: input.parent_id ?? null,
        body,
        status: 'visible',
        created_at: at,
        updated_at: at,
      };
      await store.insert(db, row);
      const created = await store.findById(db, row.id);
      if (!created) throw errors.serverError();
      return toComment(created);
    },

    /**
     * Staff moderation: hide a visible comment (kept for review, shown to nobody else), restore a hidden one, or
     * delete any that is not deleted yet (its text is erased for good). A comment someone may not moderate is a 404.
     */
    async moderate(principal: Principal, id: string, action: 'hide' | 'restore' | 'delete') {
      if (!isStaff(principal)) throw notFound();
      const row = await store.findById(db, id);
      if (!row) throw notFound();
      const move = MODERATION[action];
      if (!(await store.moveStatus(db, id, move.from, move.to, now())))
        throw errors.conflict(`This comment is ${row.status}; ${move.refusal}`);
      return toComment((await store.findById(db, id)) as CommentRow);
    },

    /** The newest visible comments on a post, oldest first, for its public page (the caller checked the post). */
    recentOnPost: async (postId: string) =>
      (await store.recentVisible(db, 'post', postId, COMMENTS_ON_PAGE)).map(toComment),
  };
}

export type CommentsService = ReturnType<typeof commentsService>;
