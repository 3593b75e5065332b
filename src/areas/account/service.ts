import { isUniqueViolation } from '../../db/unique-violation.ts';
import { errors } from '../../http/errors.ts';
import { type Principal, userIdOf } from '../../http/principal.ts';
import type { EmailVerificationService } from '../../identity/email-verification.ts';
import { normalizeEmail } from '../../identity/schema.ts';
import type { SessionService } from '../../identity/sessions.ts';
import type { AccountMail } from '../../mail/account-mail.ts';
import { hashPassword, verifyPassword } from '../../security/passwords.ts';
import type { AreaDeps } from '../deps.ts';
import type { ConnectedApps } from '../oauth-port.ts';
import type { Account, AccountUpdate, PasswordChange } from './schema.ts';
import type { AccountStore } from './store.ts';

type AccountRow = NonNullable<Awaited<ReturnType<AccountStore['findById']>>>;

export const toAccount = (row: AccountRow): Account => ({
  id: row.id,
  name: row.name,
  email: row.email,
  email_verified: row.email_verified === 1,
  locale: row.locale,
  role: row.role,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/** The canonical form of a BCP 47 tag (`en-gb` -> `en-GB`), or undefined when the tag is not well-formed. */
function canonicalLocale(tag: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}

/**
 * The signed-in user's own account: profile, password and the apps they connected. Every operation acts on the
 * token's user and nobody else, so staff and students are served alike; the role is shown but never changed here.
 */
export function accountService(
  deps: AreaDeps & { store: AccountStore } & {
    sessions: SessionService;
    connectedApps: ConnectedApps;
    mail: AccountMail;
    verification: EmailVerificationService;
  },
) {
  const { db, clock, store, sessions, connectedApps } = deps;

  // The guard admits no anonymous caller to these routes; this keeps the service safe when called directly.
  const ownerOf = (principal: Principal) => {
    const userId = userIdOf(principal);
    if (!userId) throw errors.notFound('account');
    return userId;
  };

  async function load(userId: string) {
    const row = await store.findById(db, userId);
    if (!row) throw errors.notFound('account');
    return row;
  }

  const emailTaken = () => errors.conflict('Another account already uses this email address; choose another address.');

  return {
    async get(principal: Principal) {
      return toAccount(await load(ownerOf(principal)));
    },

    async update(principal: Principal, input: AccountUpdate) {
      const userId = ownerOf(principal);
      const row = await load(userId);
      const changes: Partial<AccountRow> = {};
      if (input.name !== undefined) {
        const name = input.name.trim();
        if (!name) {
          throw errors.invalidRequest('name must not be blank; send your name.', [
            { field: 'name', code: 'blank', message: 'Send a name with at least one visible character.' },
          ]);
        }
        changes.name = name;
      }
      if (input.locale !== undefined) {
        const locale = input.locale === null ? null : canonicalLocale(input.locale);
        if (locale === undefined) {
          throw errors.invalidRequest(`${input.locale} is not a BCP 47 language tag; send one such as en or de-CH.`, [
            { field: 'locale', code: 'format', message: 'Use a BCP 47 language tag such as en or de-CH.' },
          ]);
        }
        changes.locale = locale;
      }
      if (input.email !== undefined) {
        // The email is what signs in: an app holding account:write must not take the account over without the password.
        const stored = await store.passwordHash(db, userId);
        if (!input.current_password || !stored || !(await verifyPassword(input.current_password, stored))) {
          throw errors.invalidRequest('Changing the email needs your current password in "current_password".', [
            {
              field: 'current_password',
              code: 'incorrect',
              message: 'Send your current password to change the email.',
            },
          ]);
        }
        const email = normalizeEmail(input.email);
        if (email !== row.email) {
          if (await store.emailTakenByOther(db, email, userId)) throw emailTaken();
          changes.email = email;
          changes.email_verified = 0;
        }
      }
      changes.updated_at = clock.now().toISOString();
      try {
        await db.transaction().execute(async (trx) => {
          await store.update(trx, userId, changes);
          // A new address is unproven until the person opens the link sent to it.
          if (changes.email)
            await deps.mail.verifyEmail(trx, { id: userId, email: changes.email, name: changes.name ?? row.name });
        });
      } catch (error) {
        throw isUniqueViolation(error) ? emailTaken() : error;
      }
      return toAccount({ ...row, ...changes });
    },

    /**
     * Checks the current password, stores the new one and ends every browser session of the user, so a browser
     * signed in by someone who knew the old password is signed out. Tokens of connected apps stay valid: they are
     * ended one by one under connected apps.
     */
    async changePassword(principal: Principal, input: PasswordChange) {
      const userId = ownerOf(principal);
      const stored = await store.passwordHash(db, userId);
      if (!stored) throw errors.notFound('account');
      if (!(await verifyPassword(input.current_password, stored))) {
        throw errors.invalidRequest('The current password is incorrect; send the password you sign in with now.', [
          { field: 'current_password', code: 'incorrect', message: 'This is not your current password.' },
        ]);
      }
      const passwordHash = await hashPassword(input.new_password);
      await store.update(db, userId, { password_hash: passwordHash, updated_at: clock.now().toISOString() });
      await sessions.destroyAllForUser(userId);
    },

    /** Mails a new confirmation link to the account's address (409 once confirmed, 429 within a minute of the last). */
    async sendVerificationEmail(principal: Principal) {
      await deps.verification.resend(ownerOf(principal));
    },

    async listConnectedApps(principal: Principal) {
      const data = await connectedApps.list(ownerOf(principal));
      return { data, has_more: false, next_cursor: null };
    },

    /** Ends the app's grants and with them its tokens at once (also the calling token, when it is that app's). */
    async revokeConnectedApp(principal: Principal, clientId: string) {
      if (!(await connectedApps.revoke(ownerOf(principal), clientId))) throw errors.notFound('connected app');
    },
  };
}

export type AccountService = ReturnType<typeof accountService>;
