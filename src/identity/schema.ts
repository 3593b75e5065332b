import Type, { type Static } from 'typebox';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../security/passwords.ts';
import type { Role } from '../security/roles.ts';

export const Email = Type.String({ minLength: 3, maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$' });
export const PersonName = Type.String({ minLength: 1, maxLength: 120 });
export const Password = Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH });
const Csrf = Type.String({ maxLength: 200 });

export const SignInForm = Type.Object(
  {
    _csrf: Csrf,
    email: Type.String({ maxLength: 254 }),
    password: Type.String({ maxLength: PASSWORD_MAX_LENGTH }),
    return_to: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);
export type SignInForm = Static<typeof SignInForm>;

export const SignUpForm = Type.Object(
  {
    _csrf: Csrf,
    name: PersonName,
    email: Email,
    password: Password,
    return_to: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);
export type SignUpForm = Static<typeof SignUpForm>;

export const SetupForm = Type.Object(
  {
    _csrf: Csrf,
    token: Type.String({ minLength: 1, maxLength: 200 }),
    school_name: Type.String({ minLength: 1, maxLength: 120 }),
    default_currency: Type.String({ pattern: '^[A-Z]{3}$' }),
    timezone: Type.String({ minLength: 1, maxLength: 64 }),
    owner_name: PersonName,
    owner_email: Email,
    owner_password: Password,
  },
  { additionalProperties: false },
);
export type SetupForm = Static<typeof SetupForm>;

export const ForgotPasswordForm = Type.Object({ _csrf: Csrf, email: Email }, { additionalProperties: false });
export type ForgotPasswordForm = Static<typeof ForgotPasswordForm>;

export const ResetPasswordForm = Type.Object(
  { _csrf: Csrf, token: Type.String({ minLength: 1, maxLength: 200 }), password: Password },
  { additionalProperties: false },
);
export type ResetPasswordForm = Static<typeof ResetPasswordForm>;

export type User = {
  id: string;
  email: string;
  name: string;
  role: Role;
  status: 'active' | 'suspended';
  locale: string | null;
  /** 1 once the person opened a link sent to their current address. */
  email_verified: 0 | 1;
  created_at: string;
  updated_at: string;
};

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));
export const TIMEZONES = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);
