import type { Selectable } from 'kysely';
import type { Config } from '../config.ts';
import { newId } from '../db/ids.ts';
import type { Db, Executor, SchoolTable, SignInEventsTable } from '../db/tables.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { ApiError, errors } from '../http/errors.ts';
import type { AccountMail } from '../mail/account-mail.ts';
import { decoyPasswordHash, hashPassword, verifyPassword } from '../security/passwords.ts';
import type { RateLimiter } from '../security/rate-limiter.ts';
import type { Clock } from '../time/clock.ts';
import { requireStrongPassword } from './password-policy.ts';
import { requireName } from './person-name.ts';
import { normalizeEmail, type User } from './schema.ts';
import type { UsersStore } from './users-store.ts';

export const SIGNIN_FAILED = 'The email or password is incorrect.';

/**
 * Sign-in and self-service sign-up. Failures are counted per account and per address; once either count reaches its
 * limit, sign-in answers 429 with Retry-After before any password is checked. Every sign-up attempt is counted per
 * address (each costs a password hash and may create an account), and past its limit one is refused the same way.
 */
export function signInService(deps: {
  db: Db;
  clock: Clock;
  users: UsersStore;
  /** Whether the school takes sign-ups (the school area's store, passed in by the composition root). */
  school: { get(ex: Executor): Promise<Pick<Selectable<SchoolTable>, 'signup_enabled'> | undefined> };
  limiter: RateLimiter;
  /**
   * Failed sign-ins allowed per account in the window (four times as many per address), and sign-ups allowed from one
   * address in theirs: the school's configuration.
   */
  limits: Pick<
    Config,
    'SIGNIN_MAX_FAILURES' | 'SIGNIN_WINDOW_SECONDS' | 'SIGNUP_MAX_PER_ADDRESS' | 'SIGNUP_WINDOW_SECONDS'
  >;
  /** Sign-up sends the new student a link that confirms their address. */
  mail: AccountMail;
}) {
  const { db, clock, users, school, limiter } = deps;
  const accountKey = (email: string) => `signin:email:${email}`;
  const addressKey = (ip: string) => `signin:ip:${ip}`;

  return {
    async signIn(input: { email: string; password: string; ip: string; userAgent?: string }): Promise<User> {
      const email = normalizeEmail(input.email);
      const record = (outcome: SignInEventsTable['outcome'], userId: string | null) =>
        db
          .insertInto('sign_in_events')
          .values({
            id: newId('sie'),
            at: clock.now().toISOString(),
            user_id: userId,
            email: email.slice(0, 254),
            outcome,
            ip: input.ip,
            user_agent: input.userAgent?.slice(0, 300) ?? null,
          })
          .execute();
      const keys = [accountKey(email), addressKey(input.ip)];
      // Every attempt reserves a slot first (an atomic increment), so concurrent guesses are counted too; an attempt
      // that is refused or succeeds gives its slot back, so only failures add up.
      const [account, address] = await Promise.all(
        keys.map((key) => limiter.hit(key, deps.limits.SIGNIN_WINDOW_SECONDS)),
      );
      if (
        (account?.count ?? 0) > deps.limits.SIGNIN_MAX_FAILURES ||
        (address?.count ?? 0) > deps.limits.SIGNIN_MAX_FAILURES * 4
      ) {
        await Promise.all(keys.map((key) => limiter.release(key)));
        const blocked = (account?.count ?? 0) > deps.limits.SIGNIN_MAX_FAILURES ? account : address;
        await record('rate_limited', null);
        throw errors.rateLimited(blocked?.retryAfterSeconds ?? deps.limits.SIGNIN_WINDOW_SECONDS);
      }

      const found = await users.findCredentialsByEmail(db, email);
      const ok = await verifyPassword(input.password, found?.password_hash ?? decoyPasswordHash);
      if (!found || !ok || found.status !== 'active') {
        await record(!found ? 'unknown_email' : !ok ? 'wrong_password' : 'suspended', found?.id ?? null);
        throw new ApiError('access_denied', SIGNIN_FAILED);
      }
      await record('success', found.id);
      await Promise.all([limiter.reset(accountKey(email)), limiter.release(addressKey(input.ip))]);
      const { password_hash: _, ...user } = found;
      return user;
    },

    async signupEnabled(): Promise<boolean> {
      const row = await school.get(db);
      return row?.signup_enabled === 1;
    },

    async signUp(input: { name: string; email: string; password: string; ip: string }): Promise<User> {
      if (!(await this.signupEnabled())) {
        throw errors.accessDenied('This school does not accept new accounts right now.');
      }
      // Counted before the password is hashed, taken or not: an address that creates accounts in bulk, or probes
      // which emails have one, spends its allowance either way.
      const address = await limiter.hit(`signup:ip:${input.ip}`, deps.limits.SIGNUP_WINDOW_SECONDS);
      if (address.count > deps.limits.SIGNUP_MAX_PER_ADDRESS) throw errors.tooManySignUps(address.retryAfterSeconds);
      const email = normalizeEmail(input.email);
      const name = requireName(input.name, 'name');
      requireStrongPassword(input.password, 'password', [name, email]);
      const passwordHash = await hashPassword(input.password);
      const now = clock.now().toISOString();
      const user: User = {
        id: newId('usr'),
        email,
        name,
        role: 'student',
        status: 'active',
        locale: null,
        email_verified: 0,
        created_at: now,
        updated_at: now,
      };
      const taken = () => errors.conflict('An account with this email already exists; sign in instead.');
      if (await users.emailTaken(db, email)) throw taken();
      try {
        await db.transaction().execute(async (trx) => {
          await users.insert(trx, { ...user, password_hash: passwordHash });
          await deps.mail.verifyEmail(trx, user);
        });
      } catch (error) {
        throw isUniqueViolation(error) ? taken() : error;
      }
      return user;
    },
  };
}

export type SignInService = ReturnType<typeof signInService>;
