import { errors } from '../../http/errors.ts';
import { type Principal, userIdOf } from '../../http/principal.ts';
import type { EmailVerificationService } from '../../identity/email-verification.ts';
import { requireStrongPassword } from '../../identity/password-policy.ts';
import { requireName } from '../../identity/person-name.ts';
import { normalizeEmail } from '../../identity/schema.ts';
import { publicSessionId, type SessionService } from '../../identity/sessions.ts';
import type { UserTokensStore } from '../../identity/user-tokens-store.ts';
import type { AccountMail } from '../../mail/account-mail.ts';
import { hashPassword, verifyPassword } from '../../security/passwords.ts';
import type { AreaDeps } from '../deps.ts';
import type { ConnectedApps, OAuthPort } from '../oauth-port.ts';
import { accountDeletion } from './deletion.ts';
import { accountExport } from './export.ts';
import type { PersonalData, PersonalErasure } from './ports.ts';
import { toAccount } from './profile.ts';
import type { AccountUpdate, PasswordChange } from './schema.ts';
import type { AccountStore } from './store.ts';

type AccountRow = NonNullable<Awaited<ReturnType<AccountStore['findById']>>>;

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
    tokens: UserTokensStore;
    oauth: OAuthPort;
    personalData: PersonalData;
    erasure: PersonalErasure;
    onAccessChange: () => void;
  },
) {
  const { db, clock, store, sessions, connectedApps, tokens } = deps;

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

  const exporter = accountExport({
    db,
    clock,
    store,
    personalData: deps.personalData,
    pendingEmail: (id) => pendingEmail(id),
  });
  const deletion = accountDeletion({ ...deps });
  const pendingEmail = (userId: string) => tokens.pendingEmail(db, userId, clock.now().toISOString());
  const checkPassword = async (userId: string, password: string | undefined, field: string, what: string) => {
    const stored = await store.passwordHash(db, userId);
    if (!password || !stored || !(await verifyPassword(password, stored))) {
      const description = password
        ? 'The current password is incorrect: enter the password you sign in with now.'
        : `${what} needs your current password in "${field}".`;
      throw errors.invalidRequest(description, [
        { field, code: 'incorrect', message: 'This is not the password you sign in with.' },
      ]);
    }
  };

  const emailTaken = () => errors.conflict('Another account already uses this email address; choose another address.');

  return {
    async get(principal: Principal) {
      const userId = ownerOf(principal);
      const [row, pending] = await Promise.all([load(userId), pendingEmail(userId)]);
      return toAccount(row, pending);
    },

    async update(principal: Principal, input: AccountUpdate) {
      const userId = ownerOf(principal);
      const row = await load(userId);
      const changes: Partial<AccountRow> = {};
      if (input.name !== undefined) changes.name = requireName(input.name, 'name');
      if (input.locale !== undefined) {
        const locale = input.locale === null ? null : canonicalLocale(input.locale);
        if (locale === undefined) {
          throw errors.invalidRequest(`${input.locale} is not a BCP 47 language tag; send one such as en or de-CH.`, [
            { field: 'locale', code: 'format', message: 'Use a BCP 47 language tag such as en or de-CH.' },
          ]);
        }
        changes.locale = locale;
      }
      let newEmail: string | undefined;
      if (input.email !== undefined) {
        // The email is what signs in: an app holding account:write must not take the account over without the password.
        await checkPassword(userId, input.current_password, 'current_password', 'Changing the email');
        const email = normalizeEmail(input.email);
        if (email !== row.email) {
          if (await store.emailTakenByOther(db, email, userId)) throw emailTaken();
          newEmail = email;
        }
      }
      changes.updated_at = clock.now().toISOString();
      await db.transaction().execute(async (trx) => {
        await store.update(trx, userId, changes);
        // Asking again (another address, or back to the current one) ends the links sent before.
        if (input.email !== undefined) await tokens.spendAll(trx, userId, ['email_change'], changes.updated_at ?? '');
        // The account moves only when the link sent to the new address is opened; the old address is told now.
        if (newEmail)
          await deps.mail.emailChange(trx, { id: userId, email: row.email, name: changes.name ?? row.name }, newEmail);
      });
      return toAccount({ ...row, ...changes }, newEmail ?? (await pendingEmail(userId)));
    },

    /**
     * Checks the current password, stores the new one and ends every browser session of the user, so a browser
     * signed in by someone who knew the old password is signed out. Tokens of connected apps stay valid: they are
     * ended one by one under connected apps.
     */
    async changePassword(principal: Principal, input: PasswordChange) {
      const userId = ownerOf(principal);
      const row = await load(userId);
      await checkPassword(userId, input.current_password, 'current_password', 'Changing the password');
      requireStrongPassword(input.new_password, 'new_password', [row.name, row.email]);
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

    /**
     * The person's signed-in browsers. `currentSessionId` is the stored id of the browser session asking (pages);
     * an app's token has none.
     */
    async listSessions(principal: Principal, currentSessionId?: string) {
      const current = currentSessionId && publicSessionId(currentSessionId);
      const data = (await sessions.listForUser(ownerOf(principal))).map((s) => ({
        id: s.id,
        started_at: s.created_at,
        last_seen_at: s.last_seen_at,
        current: s.id === current,
      }));
      return { data, has_more: false, next_cursor: null };
    },

    async endSession(principal: Principal, id: string) {
      if (!(await sessions.destroyForUser(ownerOf(principal), id))) throw errors.notFound('session');
    },

    /** Signs every browser out but the one asking (an app's token has none, so every browser). */
    async endOtherSessions(principal: Principal, currentSessionId?: string) {
      await sessions.destroyAllForUser(ownerOf(principal), currentSessionId);
    },

    exportData: (principal: Principal) => exporter.exportData(ownerOf(principal)),

    async deleteAccount(principal: Principal, input: { current_password: string }) {
      const userId = ownerOf(principal);
      await checkPassword(userId, input.current_password, 'current_password', 'Deleting your account');
      await deletion.delete(userId);
    },

    /** Whether to greet the person as returning: they signed in with their password before this visit began. */
    signedInBefore: (userId: string, sessionStartedAt: string) =>
      store.signedInBefore(db, userId, new Date(Date.parse(sessionStartedAt) - 60_000).toISOString()),

    /** Ends the app's grants and with them its tokens at once (also the calling token, when it is that app's). */
    async revokeConnectedApp(principal: Principal, clientId: string) {
      if (!(await connectedApps.revoke(ownerOf(principal), clientId))) throw errors.notFound('connected app');
    },
  };
}

export type AccountService = ReturnType<typeof accountService>;
