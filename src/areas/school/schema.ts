import Type, { type Static } from 'typebox';
import { Currency, HttpUrl, Timestamp } from '../../http/schemas.ts';
import { Email } from '../../identity/schema.ts';

export const School = Type.Object(
  {
    name: Type.String(),
    description: Type.String(),
    default_currency: Type.String({ description: 'ISO 4217 code' }),
    timezone: Type.String({ description: 'IANA time zone' }),
    locale: Type.String({ description: 'BCP 47 language tag' }),
    support_email: Type.Union([Type.String(), Type.Null()], {
      description: 'Shown to signed-in callers only (it starts as the owner’s sign-in address); null for anonymous',
    }),
    terms_url: Type.Union([Type.String(), Type.Null()]),
    privacy_url: Type.Union([Type.String(), Type.Null()]),
    signup_enabled: Type.Boolean({ description: 'Whether the sign-up page accepts new student accounts' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'School' },
);
export type School = Static<typeof School>;

export const SchoolUpdate = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
    description: Type.Optional(Type.String({ maxLength: 5_000 })),
    default_currency: Type.Optional(Currency),
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone or UTC' })),
    locale: Type.Optional(Type.String({ minLength: 2, maxLength: 35, description: 'BCP 47 language tag, e.g. en-GB' })),
    support_email: Type.Optional(Type.Union([Email, Type.Null()])),
    terms_url: Type.Optional(Type.Union([HttpUrl, Type.Null()])),
    privacy_url: Type.Optional(Type.Union([HttpUrl, Type.Null()])),
    signup_enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type SchoolUpdate = Static<typeof SchoolUpdate>;
