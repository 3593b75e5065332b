import type { Db } from '../db/tables.ts';
import { ApiError, errors } from '../http/errors.ts';
import type { AccountMail } from '../mail/account-mail.ts';
import { hashPassword } from '../security/passwords.ts';
import type { RateLimiter } from '../security/rate-limiter.ts';
import { sha256 } from '../security/tokens.ts';
import type { Clock } from '../time/clock.ts';
import { requireStrongPassword } from './password-policy.ts';
import { normalizeEmail } from './schema.ts';
import type { SessionService } from './sessions.ts';
import type { UserTokensStore } from './user-tokens-store.ts';
import type { UsersStore } from './users-store.ts';

const WINDOW_SECONDS = 3600;
/** Requests per address (a person behind a school's shared address may forget too) and per e-mail, each hour. */
const PER_ADDRESS = 20;
const PER_EMAIL = 3;

export const LINK_INVALID =
  'This link is not valid: it was already used, or it has expired. Ask for a new one below, or sign in.';

/**
 * "Forgot your password?": a request never tells whether the address has an account (the answer and the work done
 * in the request are the same; only the message differs, and it goes out later). The link it mails (and an
 * invitation's link) is spent by setting a password, which also ends every browser session of the person and every
 * other reset or invitation link, and proves the address.
 */
export function passwordResetService(deps: {
  db: Db;
  clock: Clock;
  users: UsersStore;
  tokens: UserTokensStore;
  mail: AccountMail;
  sessions: SessionService;
  limiter: RateLimiter;
}) {
  const { db, clock, users, tokens, mail, limiter } = deps;
  const invalid = () => new ApiError('not_found', LINK_INVALID);
  const live = async (token: string) => {
    const row = await tokens.findUnexpired(db, sha256(token), ['reset', 'invite'], clock.now().toISOString());
    return row && !row.used_at ? row : undefined;
  };

  return {
    /** Queues a reset link when an active account uses `email`; throws only when the address asks too often. */
    async request(input: { email: string; ip: string }): Promise<void> {
      const email = normalizeEmail(input.email);
      const address = await limiter.hit(`reset:ip:${input.ip}`, WINDOW_SECONDS);
      if (address.count > PER_ADDRESS) throw errors.rateLimited(address.retryAfterSeconds);
      // Past the per-e-mail limit the answer stays the same and nothing is sent: no mail bombing, no tell.
      const perEmail = await limiter.hit(`reset:email:${email}`, WINDOW_SECONDS);
      if (perEmail.count > PER_EMAIL) return;
      const user = await users.findByEmail(db, email);
      if (user?.status !== 'active') return;
      await db.transaction().execute((trx) => mail.passwordReset(trx, user));
    },

    /** What the link is for (a reset, or an invitation's first password); not_found when it cannot be used. */
    async check(token: string): Promise<'reset' | 'invite'> {
      const row = await live(token);
      if (!row) throw invalid();
      return row.purpose === 'invite' ? 'invite' : 'reset';
    },

    /** Sets the password and spends the link; returns whose password it was. */
    async complete(input: { token: string; password: string }): Promise<{ userId: string }> {
      const row = await live(input.token);
      if (!row) throw invalid();
      const person = await users.findById(db, row.user_id);
      requireStrongPassword(input.password, 'password', [row.email, person?.name ?? '']);
      const passwordHash = await hashPassword(input.password);
      const userId = await db.transaction().execute(async (trx) => {
        const now = clock.now().toISOString();
        if (!(await tokens.spend(trx, row.token_hash, now))) throw invalid();
        const user = await users.findById(trx, row.user_id);
        if (user?.status !== 'active') throw invalid();
        await users.update(trx, user.id, {
          password_hash: passwordHash,
          // The link reached this address, so the address is the person's.
          ...(user.email === row.email ? { email_verified: 1 } : {}),
          updated_at: now,
        });
        await tokens.spendAll(trx, user.id, ['reset', 'invite'], now);
        return user.id;
      });
      // Whoever signed in with the old password is signed out.
      await deps.sessions.destroyAllForUser(userId);
      return { userId };
    },
  };
}

export type PasswordResetService = ReturnType<typeof passwordResetService>;
