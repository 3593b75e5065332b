import Type, { type Static } from 'typebox';
import { Id, Page, Timestamp } from '../../http/schemas.ts';
import { Email, Password, PersonName } from '../../identity/schema.ts';
import { PASSWORD_MAX_LENGTH } from '../../security/passwords.ts';

const Role = Type.Union([Type.Literal('owner'), Type.Literal('staff'), Type.Literal('student')], {
  description: 'Read-only here',
});
const Locale = Type.String({
  minLength: 2,
  maxLength: 35,
  pattern: '^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$',
  description: 'A BCP 47 tag such as en or de-CH',
});

export const Account = Type.Object(
  {
    id: Id('usr'),
    name: Type.String(),
    email: Type.String({ description: 'Lower-case; sign-in is case-insensitive' }),
    email_verified: Type.Boolean({
      description: 'true once its mailed link was opened',
    }),
    pending_email: Type.Union([Type.String(), Type.Null()]),
    locale: Type.Union([Type.String(), Type.Null()], { description: 'null means the school default' }),
    role: Role,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Account' },
);
export type Account = Static<typeof Account>;

export const AccountUpdate = Type.Object(
  {
    name: Type.Optional(PersonName),
    email: Type.Optional(Email),
    locale: Type.Optional(Type.Union([Locale, Type.Null()])),
    current_password: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: PASSWORD_MAX_LENGTH,
        description: 'Required to change the email',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type AccountUpdate = Static<typeof AccountUpdate>;

export const PasswordChange = Type.Object(
  {
    current_password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
    new_password: Password,
  },
  { additionalProperties: false },
);
export type PasswordChange = Static<typeof PasswordChange>;

export const ConnectedApp = Type.Object(
  {
    client_id: Type.String(),
    client_name: Type.String(),
    scopes: Type.Array(Type.String(), { description: 'Every scope granted' }),
    granted_at: Timestamp,
  },
  { $id: 'ConnectedApp' },
);
export type ConnectedApp = Static<typeof ConnectedApp>;

/** The apps one user connected: a short list, returned whole (has_more is always false), newest grant first. */
export const ConnectedAppPage = Page(ConnectedApp);

export const ConnectedAppListQuery = Type.Object({}, { additionalProperties: false });

export const ClientIdParams = Type.Object(
  {
    client_id: Type.String({
      minLength: 1,
      maxLength: 2000,
      description: 'The app’s client_id, URL-encoded',
    }),
  },
  { additionalProperties: false },
);

export const AccountSession = Type.Object(
  {
    id: Type.String(),
    started_at: Timestamp,
    last_seen_at: Timestamp,
    current: Type.Boolean(),
  },
  { $id: 'AccountSession' },
);
export type AccountSession = Static<typeof AccountSession>;

/** The person's signed-in browsers: a short list, returned whole, newest first. */
export const AccountSessionPage = Page(AccountSession);

export const SessionIdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

export const AccountDeletion = Type.Object(
  {
    current_password: Type.String({
      minLength: 1,
      maxLength: PASSWORD_MAX_LENGTH,
    }),
  },
  { additionalProperties: false },
);
export type AccountDeletion = Static<typeof AccountDeletion>;
