import Type, { type Static } from 'typebox';
import { HttpUrl, Id, ListQueryBase, Page, Timestamp } from '../../http/schemas.ts';
import { Email } from '../../identity/schema.ts';

const Status = Type.Union([Type.Literal('active'), Type.Literal('archived')], {
  description: 'archived lecturers are hidden from everyone but staff',
});

export const Lecturer = Type.Object(
  {
    id: Id('lec'),
    name: Type.String(),
    title: Type.String(),
    bio: Type.String(),
    avatar_url: Type.Union([Type.String(), Type.Null()], {
      description: 'The portrait: the URL of avatar_asset_id when that is set, else the URL given',
    }),
    avatar_asset_id: Type.Union([Type.String(), Type.Null()], { description: 'An uploaded image (purpose image)' }),
    email: Type.Union([Type.String(), Type.Null()], { description: 'Shown to staff only; null for everyone else' }),
    user_id: Type.Union([Type.String(), Type.Null()], {
      description: 'The linked user account; shown to staff only, null for everyone else',
    }),
    status: Status,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Lecturer' },
);
export type Lecturer = Static<typeof Lecturer>;

export const LecturerCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 120 }),
    title: Type.Optional(
      Type.String({ maxLength: 120, description: 'A short line under the name, e.g. "Painter and teacher"' }),
    ),
    bio: Type.Optional(Type.String({ maxLength: 10_000 })),
    avatar_url: Type.Optional(Type.Union([HttpUrl, Type.Null()])),
    avatar_asset_id: Type.Optional(
      Type.Union([Id('ast'), Type.Null()], {
        description: 'A ready image asset (see createAsset); shown in place of avatar_url',
      }),
    ),
    email: Type.Optional(Type.Union([Email, Type.Null()])),
    user_id: Type.Optional(
      Type.Union([Id('usr'), Type.Null()], {
        description: 'Link to an existing user (at most one lecturer each)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type LecturerCreate = Static<typeof LecturerCreate>;

export const LecturerUpdate = Type.Partial(LecturerCreate, { additionalProperties: false, minProperties: 1 });
export type LecturerUpdate = Static<typeof LecturerUpdate>;

export const LecturerListQuery = Type.Object(
  {
    ...ListQueryBase,
    status: Type.Optional(Status),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Text to find in the name' })),
  },
  { additionalProperties: false },
);
export type LecturerListQuery = Static<typeof LecturerListQuery>;

export const LecturerPage = Page(Lecturer);

export const LecturerIdParams = Type.Object({ id: Id('lec') }, { additionalProperties: false });
