import Type, { type Static } from 'typebox';
import { Id, ListQueryBase, Page, Timestamp } from '../../http/schemas.ts';
import { Email, PersonName } from '../../identity/schema.ts';

const Status = Type.Union([Type.Literal('free'), Type.Literal('paid'), Type.Literal('comped')], {
  description:
    'Derived: paid — holds a plan through a subscription; comped — holds one through a comp only; free — holds none',
});

const Label = Type.String({ minLength: 1, maxLength: 40 });
const Labels = Type.Array(Label, {
  maxItems: 20,
  uniqueItems: true,
  description: 'At most 20 labels of 40 characters',
});

export const Comp = Type.Object(
  {
    plan_id: Id('pln'),
    until: Type.Union([Timestamp, Type.Null()], { description: 'null: until taken back' }),
  },
  { description: 'A plan given without payment' },
);

export const Member = Type.Object(
  {
    id: Id('usr'),
    email: Type.String(),
    name: Type.String(),
    status: Status,
    labels: Type.Array(Type.String()),
    newsletter_opt_in: Type.Boolean(),
    note: Type.String({ description: 'Staff’s note, never shown to the member' }),
    plan_ids: Type.Array(Id('pln'), { description: 'The plans held now (subscriptions and comp)' }),
    comp: Type.Union([Comp, Type.Null()], { description: 'The comp given, even once its date has passed' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Member' },
);
export type Member = Static<typeof Member>;

const Note = Type.String({ maxLength: 5000 });

export const MemberCreate = Type.Object(
  {
    email: Email,
    name: PersonName,
    labels: Type.Optional(Labels),
    newsletter_opt_in: Type.Optional(Type.Boolean()),
    note: Type.Optional(Note),
  },
  {
    additionalProperties: false,
    description:
      'Upsert by e-mail: a new person is added as a student without a password (and invited to choose one); a person with this e-mail becomes a member, or, a member already, gets the fields given',
  },
);
export type MemberCreate = Static<typeof MemberCreate>;

export const MemberUpdate = Type.Object(
  Type.Partial(Type.Object({ name: PersonName, labels: Labels, newsletter_opt_in: Type.Boolean(), note: Note }))
    .properties,
  { additionalProperties: false, minProperties: 1 },
);
export type MemberUpdate = Static<typeof MemberUpdate>;

export const MemberComp = Type.Object(
  {
    plan_id: Id('pln'),
    until: Type.Union([Timestamp, Type.Null()], {
      description: 'When it ends (in the future); null: until taken back',
    }),
  },
  { additionalProperties: false, description: 'Replaces any comp the member had' },
);
export type MemberComp = Static<typeof MemberComp>;

export const MemberListQuery = Type.Object(
  {
    ...ListQueryBase,
    status: Type.Optional(Status),
    label: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'Members carrying this label' })),
    plan_id: Type.Optional(Id('pln')),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Text to find in the name or email' })),
  },
  { additionalProperties: false },
);
export type MemberListQuery = Static<typeof MemberListQuery>;

export const MemberPage = Page(Member);

export const MemberIdParams = Type.Object({ id: Id('usr') }, { additionalProperties: false });
