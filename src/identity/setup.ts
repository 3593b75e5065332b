import { newId } from '../db/ids.ts';
import type { Db, Executor, SchoolTable } from '../db/tables.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { ApiError, errors } from '../http/errors.ts';
import type { AccountMail } from '../mail/account-mail.ts';
import { hashPassword } from '../security/passwords.ts';
import { randomToken, sha256 } from '../security/tokens.ts';
import type { Clock } from '../time/clock.ts';
import { requireStrongPassword } from './password-policy.ts';
import { requireName } from './person-name.ts';
import { CURRENCIES, normalizeEmail, type SetupForm, TIMEZONES } from './schema.ts';
import type { UsersStore } from './users-store.ts';

const TOKEN_TTL_MS = 24 * 3_600_000;

/**
 * First-run setup. While no owner exists, each start issues a random single-use token; only its hash is stored, and
 * the link is logged once. Completing setup creates the school and its owner in one transaction and spends the token;
 * after that every token is dead because an owner exists.
 */
export function setupService(deps: {
  db: Db;
  clock: Clock;
  users: UsersStore;
  /** Writes the school's row (the school area's store, passed in by the composition root). */
  school: { insert(ex: Executor, row: Omit<SchoolTable, 'id'>): Promise<void> };
  /** The owner's address is unproven until they open the link mailed at setup, like every other new address. */
  mail: AccountMail;
}) {
  const { db, clock, users, school } = deps;

  const tokenIsLive = async (token: string) => {
    const row = await db
      .selectFrom('setup_tokens')
      .select(['expires_at', 'used_at'])
      .where('token_hash', '=', sha256(token))
      .executeTakeFirst();
    return Boolean(row && !row.used_at && row.expires_at > clock.now().toISOString());
  };

  return {
    needed: async () => !(await users.ownerExists(db)),

    /** Returns a fresh token when the school has no owner yet, otherwise undefined. */
    async issueToken(): Promise<string | undefined> {
      if (await users.ownerExists(db)) return undefined;
      const token = randomToken();
      const now = clock.now();
      await db
        .insertInto('setup_tokens')
        .values({
          token_hash: sha256(token),
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + TOKEN_TTL_MS).toISOString(),
          used_at: null,
        })
        .execute();
      return token;
    },

    async checkToken(token: string): Promise<void> {
      if ((await users.ownerExists(db)) || !(await tokenIsLive(token))) {
        throw new ApiError('not_found', 'This setup link is not valid: it was already used, or it has expired.');
      }
    },

    async complete(form: SetupForm): Promise<{ ownerId: string }> {
      if (!CURRENCIES.has(form.default_currency)) {
        throw errors.invalidRequest(`${form.default_currency} is not an ISO 4217 currency code.`, [
          { field: 'default_currency', code: 'enum', message: 'Use an ISO 4217 code such as EUR or USD.' },
        ]);
      }
      if (!TIMEZONES.has(form.timezone)) {
        throw errors.invalidRequest(`${form.timezone} is not an IANA time zone.`, [
          { field: 'timezone', code: 'enum', message: 'Use an IANA time zone such as Europe/Berlin.' },
        ]);
      }
      const ownerName = requireName(form.owner_name, 'owner_name');
      requireStrongPassword(form.owner_password, 'owner_password', [ownerName, form.owner_email, form.school_name]);
      const passwordHash = await hashPassword(form.owner_password);
      const now = clock.now().toISOString();
      const spentLink = () =>
        new ApiError('not_found', 'This setup link is not valid: it was already used, or it has expired.');
      try {
        return await this.completeInTransaction(form, passwordHash, now);
      } catch (error) {
        // Two setups racing on two live links: the loser hits the school's or the owner's unique key.
        if (isUniqueViolation(error)) throw spentLink();
        throw error;
      }
    },

    async completeInTransaction(form: SetupForm, passwordHash: string, now: string): Promise<{ ownerId: string }> {
      return db.transaction().execute(async (trx) => {
        const spent = await trx
          .updateTable('setup_tokens')
          .set({ used_at: now })
          .where('token_hash', '=', sha256(form.token))
          .where('used_at', 'is', null)
          .where('expires_at', '>', now)
          .executeTakeFirst();
        if (Number(spent.numUpdatedRows) !== 1 || (await users.ownerExists(trx))) {
          throw new ApiError('not_found', 'This setup link is not valid: it was already used, or it has expired.');
        }
        await school.insert(trx, {
          name: form.school_name.trim(),
          description: '',
          default_currency: form.default_currency,
          timezone: form.timezone,
          locale: 'en',
          support_email: normalizeEmail(form.owner_email),
          terms_url: null,
          privacy_url: null,
          signup_enabled: 1,
          created_at: now,
          updated_at: now,
        });
        const owner = { id: newId('usr'), email: normalizeEmail(form.owner_email), name: form.owner_name.trim() };
        await users.insert(trx, {
          ...owner,
          role: 'owner',
          status: 'active',
          password_hash: passwordHash,
          locale: null,
          created_at: now,
          updated_at: now,
        });
        await deps.mail.verifyEmail(trx, owner);
        // Every other outstanding link dies with this one.
        await trx.updateTable('setup_tokens').set({ used_at: now }).where('used_at', 'is', null).execute();
        return { ownerId: owner.id };
      });
    },
  };
}

export type SetupService = ReturnType<typeof setupService>;
