import Type, { type Static } from 'typebox';
import { HttpUrl, Id, ListQueryBase, Money, Page, Slug, Timestamp } from '../../http/schemas.ts';

const Status = Type.Union([Type.Literal('draft'), Type.Literal('published'), Type.Literal('archived')]);
const Visibility = Type.Union([Type.Literal('public'), Type.Literal('unlisted'), Type.Literal('private')], {
  description: 'public: listed; unlisted: reachable by id or slug; private: staff and enrolled students only',
});

export const Course = Type.Object(
  {
    id: Id('crs'),
    title: Type.String(),
    slug: Type.String(),
    subtitle: Type.String(),
    description: Type.String(),
    cover_url: Type.Union([Type.String(), Type.Null()], {
      description: 'The cover image: the URL of cover_asset_id when that is set, else the URL given',
    }),
    cover_asset_id: Type.Union([Type.String(), Type.Null()], { description: 'An uploaded image (purpose image)' }),
    lecturer_ids: Type.Array(Type.String()),
    price: Type.Union([Money, Type.Null()], { description: 'null means free' }),
    status: Status,
    visibility: Visibility,
    enrollment_open: Type.Boolean(),
    published_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Course' },
);
export type Course = Static<typeof Course>;

const Title = Type.String({ maxLength: 200 });

/** Every field a caller may write, all optional; create requires a title on top. */
const Writable = Type.Partial(
  Type.Object({
    title: Title,
    slug: Slug,
    subtitle: Type.String({ maxLength: 300 }),
    description: Type.String({ maxLength: 50_000 }),
    cover_url: Type.Union([HttpUrl, Type.Null()]),
    cover_asset_id: Type.Union([Id('ast'), Type.Null()], {
      description: 'A ready image asset (see createAsset); shown in place of cover_url',
    }),
    lecturer_ids: Type.Array(Id('lec'), { maxItems: 20, uniqueItems: true }),
    price: Type.Union([Money, Type.Null()]),
    visibility: Visibility,
    enrollment_open: Type.Boolean(),
  }),
);

export const CourseCreate = Type.Object(
  {
    ...Writable.properties,
    title: Title,
    enrollment_open: Type.Optional(Type.Boolean({ default: true, description: 'Open for enrollment unless false' })),
  },
  { additionalProperties: false },
);
export type CourseCreate = Static<typeof CourseCreate>;

export const CourseUpdate = Type.Object(Writable.properties, { additionalProperties: false, minProperties: 1 });
export type CourseUpdate = Static<typeof CourseUpdate>;

export const CourseListQuery = Type.Object(
  {
    ...ListQueryBase,
    status: Type.Optional(Status),
    visibility: Type.Optional(Visibility),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Text to find in the title' })),
    lecturer_id: Type.Optional(Id('lec')),
    price: Type.Optional(
      Type.Union([Type.Literal('free'), Type.Literal('paid')], { description: 'free: no price; paid: has a price' }),
    ),
  },
  { additionalProperties: false },
);
export type CourseListQuery = Static<typeof CourseListQuery>;

export const CoursePage = Page(Course);

export const CourseKeyParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 120, description: 'A crs_… id or the course slug' }) },
  { additionalProperties: false },
);
export const CourseIdParams = Type.Object({ id: Id('crs') }, { additionalProperties: false });
