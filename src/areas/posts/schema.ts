import Type, { type Static } from 'typebox';
import { HttpUrl, Id, ListQueryBase, Page, Slug, Timestamp } from '../../http/schemas.ts';

const Status = Type.Union([Type.Literal('draft'), Type.Literal('scheduled'), Type.Literal('published')], {
  description: 'draft → scheduled (publishes itself at scheduled_at) → published',
});
const Visibility = Type.Union([Type.Literal('public'), Type.Literal('members'), Type.Literal('plans')], {
  description:
    'public: everyone; members: people holding any membership plan (a subscription or a comp); plans: people ' +
    'holding one of plan_ids',
});
const Tag = Type.String({ minLength: 1, maxLength: 40 });
const PlanId = Type.String({ minLength: 1, maxLength: 64 });

export const Post = Type.Object(
  {
    id: Id('pst'),
    title: Type.String(),
    slug: Type.String(),
    body: Type.String(),
    excerpt: Type.String(),
    cover_url: Type.Union([Type.String(), Type.Null()]),
    tags: Type.Array(Type.String()),
    visibility: Visibility,
    plan_ids: Type.Array(Type.String()),
    status: Status,
    scheduled_at: Type.Union([Timestamp, Type.Null()], { description: 'When a scheduled post publishes itself' }),
    published_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Post' },
);
export type Post = Static<typeof Post>;

export const PostCreate = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200 }),
    slug: Type.Optional(Slug),
    body: Type.Optional(Type.String({ maxLength: 200_000 })),
    excerpt: Type.Optional(Type.String({ maxLength: 1000 })),
    cover_url: Type.Optional(Type.Union([HttpUrl, Type.Null()])),
    tags: Type.Optional(
      Type.Array(Tag, { maxItems: 20, uniqueItems: true, description: 'At most 20 tags of at most 40 characters' }),
    ),
    visibility: Type.Optional(Visibility),
    plan_ids: Type.Optional(
      Type.Array(PlanId, {
        maxItems: 50,
        uniqueItems: true,
        description: 'The plans whose members may read the post (visibility "plans" only)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type PostCreate = Static<typeof PostCreate>;

export const PostUpdate = Type.Partial(PostCreate, { additionalProperties: false, minProperties: 1 });
export type PostUpdate = Static<typeof PostUpdate>;

export const PostSchedule = Type.Object(
  { publish_at: Type.String({ format: 'date-time', description: 'When to publish; must be in the future' }) },
  { additionalProperties: false },
);
export type PostSchedule = Static<typeof PostSchedule>;

export const PostListQuery = Type.Object(
  {
    ...ListQueryBase,
    status: Type.Optional(Status),
    visibility: Type.Optional(Visibility),
    tag: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'Posts carrying this tag' })),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Text to find in the title' })),
  },
  { additionalProperties: false },
);
export type PostListQuery = Static<typeof PostListQuery>;

export const PostPage = Page(Post);

export const PostKeyParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 120, description: 'A pst_… id or the post slug' }) },
  { additionalProperties: false },
);
export const PostIdParams = Type.Object({ id: Id('pst') }, { additionalProperties: false });
