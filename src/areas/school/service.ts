import type { Executor, SchoolTable } from '../../db/tables.ts';
import { ApiError, errors } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { CURRENCIES, normalizeEmail, TIMEZONES } from '../../identity/schema.ts';
import type { AreaDeps } from '../deps.ts';
import type { School, SchoolUpdate } from './schema.ts';
import type { SchoolStore } from './store.ts';

function toSchool(row: SchoolTable, signedIn: boolean): School {
  return {
    name: row.name,
    description: row.description,
    default_currency: row.default_currency,
    timezone: row.timezone,
    locale: row.locale,
    support_email: signedIn ? row.support_email : null,
    terms_url: row.terms_url,
    privacy_url: row.privacy_url,
    signup_enabled: Number(row.signup_enabled) === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The canonical form of a BCP 47 tag this runtime can format dates and numbers for, or undefined. */
function supportedLocale(tag: string): string | undefined {
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    return canonical && Intl.DateTimeFormat.supportedLocalesOf(canonical).length ? canonical : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The school's settings, a singleton created by first-run setup (404 before that). Everyone may read them; the
 * support address is hidden from anonymous callers because setup fills it with the owner's sign-in address, which
 * should not be published to the whole internet unless the owner chooses to put it on a page.
 */
export function schoolService(deps: AreaDeps & { store: SchoolStore }) {
  const { db, clock, store } = deps;
  const notFound = () =>
    new ApiError('not_found', 'The school is not set up yet; open the one-time setup link from the server log.');

  function check(input: SchoolUpdate): Partial<SchoolTable> {
    const changes: Partial<SchoolTable> = {};
    if (input.name !== undefined) {
      changes.name = input.name.trim();
      if (!changes.name)
        throw errors.invalidRequest('name must not be blank; give the school a name.', [
          { field: 'name', code: 'blank', message: 'Give the school a name.' },
        ]);
    }
    if (input.default_currency !== undefined) {
      if (!CURRENCIES.has(input.default_currency))
        throw errors.invalidRequest(`${input.default_currency} is not an ISO 4217 currency code.`, [
          { field: 'default_currency', code: 'enum', message: 'Use an ISO 4217 code such as EUR or USD.' },
        ]);
      changes.default_currency = input.default_currency;
    }
    if (input.timezone !== undefined) {
      if (!TIMEZONES.has(input.timezone))
        throw errors.invalidRequest(`${input.timezone} is not an IANA time zone.`, [
          { field: 'timezone', code: 'enum', message: 'Use an IANA time zone such as Europe/Berlin, or UTC.' },
        ]);
      changes.timezone = input.timezone;
    }
    if (input.locale !== undefined) {
      const locale = supportedLocale(input.locale);
      if (!locale)
        throw errors.invalidRequest(`${input.locale} is not a supported BCP 47 language tag.`, [
          { field: 'locale', code: 'enum', message: 'Use a BCP 47 language tag such as en, en-GB or de-CH.' },
        ]);
      changes.locale = locale;
    }
    if (input.description !== undefined) changes.description = input.description;
    if (input.support_email !== undefined)
      changes.support_email = input.support_email === null ? null : normalizeEmail(input.support_email);
    if (input.terms_url !== undefined) changes.terms_url = input.terms_url;
    if (input.privacy_url !== undefined) changes.privacy_url = input.privacy_url;
    if (input.signup_enabled !== undefined) changes.signup_enabled = input.signup_enabled ? 1 : 0;
    return changes;
  }

  return {
    /** What other areas speak in: name, currency, locale, time zone, support address (defaults before set-up). */
    async settings(ex: Executor = db) {
      const row = await store.get(ex);
      return {
        name: row?.name ?? 'Lyceum',
        default_currency: row?.default_currency ?? 'EUR',
        locale: row?.locale ?? 'en',
        timezone: row?.timezone ?? 'UTC',
        support_email: row?.support_email ?? null,
      };
    },

    async get(principal: Principal) {
      const row = await store.get(db);
      if (!row) throw notFound();
      return toSchool(row, principal.kind === 'user');
    },

    async update(input: SchoolUpdate) {
      const changes = { ...check(input), updated_at: clock.now().toISOString() };
      return db.transaction().execute(async (trx) => {
        const row = await store.get(trx);
        if (!row) throw notFound();
        await store.update(trx, changes);
        return toSchool({ ...row, ...changes }, true);
      });
    },
  };
}

export type SchoolService = ReturnType<typeof schoolService>;
