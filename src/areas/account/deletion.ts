import type { Db } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import { deletedEmail } from '../../identity/deleted-account.ts';
import type { SessionService } from '../../identity/sessions.ts';
import type { UserTokensStore } from '../../identity/user-tokens-store.ts';
import type { AccountMail } from '../../mail/account-mail.ts';
import type { Clock } from '../../time/clock.ts';
import type { OAuthPort } from '../oauth-port.ts';
import type { PersonalErasure } from './ports.ts';
import type { AccountStore } from './store.ts';

/** The name a deleted person is shown under wherever a record of them is kept (orders, the students list). */
export const DELETED_NAME = 'Deleted account';
/** Not a scrypt hash: no password verifies against it, so nobody can sign in to what is left. */
const NO_PASSWORD = '!deleted';

/**
 * Deleting one's own account, in one transaction: the person's name and address are replaced by an anonymous
 * placeholder, their password, browser sessions, mailed links and connected apps end, their comments lose their
 * words, their certificates are revoked under the placeholder, the forms they sent, the messages kept to their
 * addresses and their sign-in attempts are deleted, their seats at upcoming events go to the next in line, and the
 * audit trail names them by the placeholder. Orders, the enrollments and progress they made and past event
 * registrations stay, pointing at the anonymous person: the books must keep every sale, and the school's counts stay
 * true without saying whose they were.
 */
export function accountDeletion(deps: {
  db: Db;
  clock: Clock;
  store: AccountStore;
  sessions: SessionService;
  tokens: UserTokensStore;
  oauth: OAuthPort;
  mail: AccountMail;
  erasure: PersonalErasure;
  onAccessChange: () => void;
}) {
  const { db, clock, store, erasure } = deps;
  return {
    async delete(userId: string): Promise<void> {
      const at = clock.now().toISOString();
      await db.transaction().execute(async (trx) => {
        const person = await store.findById(trx, userId);
        if (!person) throw errors.notFound('account');
        if (person.role === 'owner')
          throw errors.conflict('The owner’s account cannot be deleted: make someone else the owner first.');
        if (await erasure.hasRenewingSubscription(trx, userId))
          throw errors.conflict(
            'Your membership still renews: cancel it first (it may charge you again), then delete your account.',
          );
        // Every address the school has mailed a link for this person: the one in use, earlier ones, a pending one.
        const addresses = [...new Set([person.email, ...(await deps.tokens.eraseAll(trx, userId))])];
        await deps.mail.accountDeleted(trx, person, addresses);
        await store.update(trx, userId, {
          name: DELETED_NAME,
          email: deletedEmail(userId),
          email_verified: 0,
          password_hash: NO_PASSWORD,
          locale: null,
          status: 'suspended',
          updated_at: at,
        });
        await deps.sessions.destroyAllIn(trx, userId);
        await deps.oauth.revokeGrantsOf(trx, userId);
        await erasure.eraseComments(trx, userId, at);
        await erasure.anonymiseCertificates(trx, userId, DELETED_NAME, at);
        await erasure.eraseFormSubmissions(trx, userId, person.email);
        await erasure.endCalendarFeed(trx, userId);
        await erasure.releaseEventSeats(trx, userId);
        await erasure.anonymiseAuditActor(trx, userId, deletedEmail(userId));
        await erasure.eraseSignIns(trx, userId, addresses);
      });
      // Tokens validated a moment ago are cached: they end now, not in a few seconds.
      deps.onAccessChange();
    },
  };
}
