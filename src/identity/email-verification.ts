import type { Db } from '../db/tables.ts';
import { ApiError, errors } from '../http/errors.ts';
import type { AccountMail } from '../mail/account-mail.ts';
import { sha256 } from '../security/tokens.ts';
import type { Clock } from '../time/clock.ts';
import type { UserTokensStore } from './user-tokens-store.ts';
import type { UsersStore } from './users-store.ts';

/**
 * A new link at most once a minute per person, so an app or a page cannot flood someone's mailbox. The first one
 * asked for is always sent: the link mailed at sign-up may never arrive, and the person asking is not flooding.
 */
const RESEND_INTERVAL_MS = 60_000;

const EMAIL_TAKEN =
  'Another account started using this address after you asked for the change, so your account keeps its old address. Choose another address in your account.';

export const VERIFY_LINK_INVALID =
  'This confirmation link is not valid: it has expired, or your account now uses another address. Ask for a new link from your account.';

/**
 * E-mail verification. A link proves the address it was sent to, for as long as the account keeps that address; it
 * may be opened more than once (mail scanners open links before people do), and opening it is idempotent.
 */
export function emailVerificationService(deps: {
  db: Db;
  clock: Clock;
  users: UsersStore;
  tokens: UserTokensStore;
  mail: AccountMail;
}) {
  const { db, clock, users, tokens, mail } = deps;
  return {
    /** Marks the address verified; returns whose it is. */
    async verify(token: string): Promise<{ userId: string }> {
      const now = clock.now().toISOString();
      return db.transaction().execute(async (trx) => {
        const row = await tokens.findUnexpired(trx, sha256(token), ['verify', 'email_change'], now);
        const user = row && (await users.findById(trx, row.user_id));
        if (row && user && row.purpose === 'email_change' && !row.used_at) {
          // Opening the link sent to the new address is what moves the account there.
          if (user.email !== row.email && (await users.emailTaken(trx, row.email))) throw errors.conflict(EMAIL_TAKEN);
          await tokens.spendAll(trx, user.id, ['email_change', 'verify', 'reset'], now);
          await users.update(trx, user.id, { email: row.email, email_verified: 1, updated_at: now });
          return { userId: user.id };
        }
        if (!row || !user || user.email !== row.email) throw new ApiError('not_found', VERIFY_LINK_INVALID);
        if (!row.used_at) await tokens.spend(trx, row.token_hash, now);
        if (user.email_verified !== 1) await users.update(trx, user.id, { email_verified: 1, updated_at: now });
        return { userId: user.id };
      });
    },

    /** Sends a new link to the person's current address. */
    async resend(userId: string): Promise<void> {
      const user = await users.findById(db, userId);
      if (!user) throw errors.notFound('account');
      if (user.email_verified === 1) throw errors.conflict('Your e-mail address is already confirmed.');
      // Paced from the second link on: only a link sent because someone asked for it counts against the next.
      const [last, earlier] = await tokens.lastTwoIssuedAt(db, userId, 'verify');
      const wait = last && earlier ? Date.parse(last) + RESEND_INTERVAL_MS - clock.now().getTime() : 0;
      if (wait > 0) throw errors.rateLimited(Math.ceil(wait / 1000));
      await db.transaction().execute((trx) => mail.verifyEmail(trx, user));
    },
  };
}

export type EmailVerificationService = ReturnType<typeof emailVerificationService>;
