import Type, { type Static } from 'typebox';
import { Id, IdParams, ListQueryBase, Page, Timestamp } from '../../http/schemas.ts';

const TargetType = Type.Union([Type.Literal('post'), Type.Literal('lesson')]);
const Status = Type.Union([Type.Literal('visible'), Type.Literal('hidden'), Type.Literal('deleted')], {
  description: 'Only visible comments are shown to anyone but staff',
});

export const COMMENT_MAX_LENGTH = 5000;

export const Comment = Type.Object(
  {
    id: Id('cmt'),
    target_type: TargetType,
    target_id: Type.String({ description: 'The pst_… or les_… id the comment is on' }),
    user_id: Type.String({ description: 'The author' }),
    author_name: Type.String({ description: "The author's name, as shown on the school's pages" }),
    parent_id: Type.Union([Type.String(), Type.Null()], { description: 'The comment this one replies to' }),
    body: Type.String(),
    status: Status,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Comment' },
);
export type Comment = Static<typeof Comment>;

export const CommentListQuery = Type.Object(
  {
    ...ListQueryBase,
    target_type: Type.Optional(TargetType),
    target_id: Type.Optional(Type.String({ pattern: '^(pst|les)_[0-9a-z]{26}$', description: 'A pst_… or les_… id' })),
    user_id: Type.Optional(Id('usr')),
    status: Type.Optional(Status),
  },
  { additionalProperties: false },
);
export type CommentListQuery = Static<typeof CommentListQuery>;

export const CommentPage = Page(Comment);

export const CommentIdParams = IdParams('cmt');

/** The comment form on a post's public page. */
export const CommentForm = Type.Object(
  {
    _csrf: Type.String({ maxLength: 200 }),
    body: Type.String({ minLength: 1, maxLength: COMMENT_MAX_LENGTH }),
  },
  { additionalProperties: false },
);
export type CommentForm = Static<typeof CommentForm>;
