import Type, { type Static } from 'typebox';
import { Id, Page as ListPage, ListQueryBase, Slug, Timestamp } from '../../http/schemas.ts';

const Status = Type.Union([Type.Literal('draft'), Type.Literal('published')], {
  description: 'draft: not on the site; published: published_body is live',
});

export const Page = Type.Object(
  {
    id: Id('pag'),
    title: Type.String(),
    slug: Type.String(),
    draft_body: Type.Optional(
      Type.String({ description: 'The body being edited; only staff see it. Publishing copies it to published_body.' }),
    ),
    published_body: Type.Union([Type.String(), Type.Null()], {
      description: 'The live body (null while the page is not published)',
    }),
    seo_title: Type.Union([Type.String(), Type.Null()]),
    seo_description: Type.Union([Type.String(), Type.Null()]),
    status: Status,
    published_at: Type.Union([Timestamp, Type.Null()], { description: 'When the live body was last published' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Page' },
);
export type Page = Static<typeof Page>;

export const PageCreate = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200 }),
    slug: Type.Optional(Slug),
    draft_body: Type.Optional(Type.String({ maxLength: 200_000 })),
    seo_title: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
    seo_description: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
  },
  { additionalProperties: false },
);
export type PageCreate = Static<typeof PageCreate>;

export const PageUpdate = Type.Partial(PageCreate, { additionalProperties: false, minProperties: 1 });
export type PageUpdate = Static<typeof PageUpdate>;

export const PageListQuery = Type.Object(
  {
    ...ListQueryBase,
    status: Type.Optional(Status),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Text to find in the title' })),
  },
  { additionalProperties: false },
);
export type PageListQuery = Static<typeof PageListQuery>;

export const PageList = ListPage(Page);

export const PageKeyParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 120, description: 'A pag_… id or the page slug' }) },
  { additionalProperties: false },
);
export const PageIdParams = Type.Object({ id: Id('pag') }, { additionalProperties: false });
