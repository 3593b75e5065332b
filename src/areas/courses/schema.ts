import Type, { type Static } from 'typebox';
import { HttpUrl, Id, ListQueryBase, Money, Page, Slug, Timestamp } from '../../http/schemas.ts';

const Status = Type.Union([Type.Literal('draft'), Type.Literal('published'), Type.Literal('archived')]);
const Visibility = Type.Union([Type.Literal('public'), Type.Literal('unlisted'), Type.Literal('private')], {
  description: 'unlisted: by link; private: enrolled only',
});

export const Course = Type.Object(
  {
    id: Id('crs'),
    title: Type.String(),
    slug: Type.String(),
    subtitle: Type.String(),
    description: Type.String(),
    cover_url: Type.Union([Type.String(), Type.Null()], {
      description: "cover_asset_id's URL when set, else the URL given",
    }),
    cover_asset_id: Type.Union([Type.String(), Type.Null()], { description: 'An uploaded image (purpose image)' }),
    lecturer_ids: Type.Array(Type.String()),
    price: Type.Union([Money, Type.Null()], { description: 'null means free' }),
    status: Status,
    visibility: Visibility,
    enrollment_open: Type.Boolean(),
    outcomes: Type.Array(Type.String()),
    audience: Type.Array(Type.String()),
    requirements: Type.Array(Type.String()),
    trailer_url: Type.Union([Type.String(), Type.Null()]),
    published_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
    snippet: Type.Optional(Type.String({ description: 'With q: the words in context (HTML, <mark>)' })),
  },
  { $id: 'Course' },
);
export type Course = Static<typeof Course>;

const Title = Type.String({ maxLength: 200 });
/** A course page's list: a few short lines. */
const Lines = Type.Array(Type.String({ maxLength: 200 }), { maxItems: 12 });

/** Every field a caller may write, all optional; create requires a title on top. */
const Writable = Type.Partial(
  Type.Object({
    title: Title,
    slug: Slug,
    subtitle: Type.String({ maxLength: 300 }),
    description: Type.String({ maxLength: 50_000 }),
    cover_url: Type.Union([HttpUrl, Type.Null()]),
    cover_asset_id: Type.Union([Id('ast'), Type.Null()], {
      description: 'A ready image asset; shown instead of cover_url',
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
    enrollment_open: Type.Optional(Type.Boolean({ default: true, description: 'Open unless false' })),
  },
  { additionalProperties: false },
);
export type CourseCreate = Static<typeof CourseCreate>;

/** The course page's lists and trailer: written once the course exists, so that making one stays short. */
const PageFields = Type.Partial(
  Type.Object({
    outcomes: Lines,
    audience: Lines,
    requirements: Lines,
    trailer_url: Type.Union([HttpUrl, Type.Null()]),
  }),
);

export const CourseUpdate = Type.Object(
  { ...Writable.properties, ...PageFields.properties },
  { additionalProperties: false, minProperties: 1 },
);
export type CourseUpdate = Static<typeof CourseUpdate>;

export const CourseListQuery = Type.Object(
  {
    ...ListQueryBase,
    status: Type.Optional(Status),
    visibility: Type.Optional(Visibility),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Words to find; best first' })),
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
  { id: Type.String({ minLength: 1, maxLength: 120, description: 'crs_… id or slug' }) },
  { additionalProperties: false },
);
export const CourseIdParams = Type.Object({ id: Id('crs') }, { additionalProperties: false });
