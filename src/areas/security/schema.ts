import Type, { type Static } from 'typebox';
import { Id, Page, Timestamp } from '../../http/schemas.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const OAuthClient = Type.Object(
  {
    id: Type.String({ description: 'The client_id' }),
    client_name: Nullable(Type.String()),
    redirect_uris: Type.Array(Type.String()),
    registered_at: Timestamp,
    grants: Type.Integer({ description: 'Live grants: people who connected the app and have not disconnected it' }),
    last_used_at: Nullable(Timestamp),
    blocked_at: Nullable(Timestamp),
  },
  {
    $id: 'OAuthClient',
    description:
      'last_used_at: when the app last got a token, as far as the stored tokens tell (expired tokens are cleared hourly)',
  },
);
export type OAuthClient = Static<typeof OAuthClient>;

export const OAuthGrant = Type.Object({
  id: Type.String(),
  user: Nullable(Type.Object({ id: Type.String(), email: Type.String(), name: Type.String() })),
  scopes: Type.Array(Type.String()),
  created_at: Timestamp,
});

export const OAuthClientDetail = Type.Object(
  { ...OAuthClient.properties, grant_list: Type.Array(OAuthGrant) },
  { $id: 'OAuthClientDetail' },
);
export type OAuthClientDetail = Static<typeof OAuthClientDetail>;

export const OAuthClientListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size (1–100)' })),
    starting_after: Type.Optional(
      Type.String({ maxLength: 64, description: 'Cursor: the last id of the previous page' }),
    ),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "Part of the app's name or addresses" })),
    blocked: Type.Optional(Type.Boolean({ description: 'true: only blocked apps; false: only the others' })),
  },
  { additionalProperties: false },
);
export type OAuthClientListQuery = Static<typeof OAuthClientListQuery>;

export const OAuthClientPage = Page(OAuthClient);

export const OAuthClientIdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 200, description: 'The client_id' }) },
  { additionalProperties: false },
);

const Outcome = Type.Union(
  [
    Type.Literal('success'),
    Type.Literal('wrong_password'),
    Type.Literal('unknown_email'),
    Type.Literal('suspended'),
    Type.Literal('rate_limited'),
  ],
  { description: 'What came of the attempt' },
);

export const SignInEvent = Type.Object(
  {
    id: Id('sie'),
    at: Timestamp,
    user_id: Nullable(Type.String()),
    email: Type.String({ description: 'The address as typed (lower-cased)' }),
    outcome: Outcome,
    ip: Nullable(Type.String()),
    user_agent: Nullable(Type.String()),
  },
  { $id: 'SignInEvent' },
);

export const SignInListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size (1–100)' })),
    starting_after: Type.Optional(
      Type.String({ maxLength: 64, description: 'Cursor: the last id of the previous page' }),
    ),
    user_id: Type.Optional(Type.String({ maxLength: 64 })),
    outcome: Type.Optional(Outcome),
    since: Type.Optional(Timestamp),
    until: Type.Optional(Timestamp),
  },
  { additionalProperties: false },
);
export type SignInListQuery = Static<typeof SignInListQuery>;

export const SignInPage = Page(SignInEvent);
