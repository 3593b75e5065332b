import Type, { type Static } from 'typebox';
import { Id, Page, Timestamp } from '../../http/schemas.ts';
import { Email, PersonName } from '../../identity/schema.ts';

const StaffRole = Type.Union([Type.Literal('owner'), Type.Literal('staff')], {
  description: 'owner: the one person who changes roles and removes staff; staff: runs the school with them',
});

export const StaffMember = Type.Object(
  {
    id: Id('usr'),
    email: Type.String(),
    name: Type.String(),
    role: StaffRole,
    status: Type.Union([Type.Literal('active'), Type.Literal('suspended')]),
    invited: Type.Boolean({ description: 'True until the person has chosen a password through their invitation' }),
    created_at: Timestamp,
  },
  { $id: 'StaffMember' },
);
export type StaffMember = Static<typeof StaffMember>;

export const StaffListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size (1–100)' })),
    starting_after: Type.Optional(
      Type.String({ maxLength: 64, description: 'Cursor: the last id of the previous page' }),
    ),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Part of the name or e-mail' })),
    role: Type.Optional(StaffRole),
  },
  { additionalProperties: false },
);
export type StaffListQuery = Static<typeof StaffListQuery>;

export const StaffPage = Page(StaffMember);

export const StaffInvite = Type.Object(
  { email: Email, name: PersonName },
  {
    additionalProperties: false,
    description:
      'A new address gets an account and an invitation to choose a password; a student with this address becomes staff',
  },
);
export type StaffInvite = Static<typeof StaffInvite>;

export const StaffRoleChange = Type.Object(
  { role: StaffRole },
  {
    additionalProperties: false,
    description: 'owner: hands the school over (the present owner becomes staff); staff: only the owner is changed so',
  },
);
export type StaffRoleChange = Static<typeof StaffRoleChange>;

export const StaffIdParams = Type.Object({ id: Id('usr') }, { additionalProperties: false });
