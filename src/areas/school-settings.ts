import type { Executor } from '../db/tables.ts';

/**
 * The school's own settings other areas speak in: its name, currency, locale, time zone and support address. The
 * school area answers (school/service.ts `settings`); the composition root hands it to the areas that need it.
 */
export type SchoolSettings = {
  settings(ex: Executor): Promise<{
    name: string;
    default_currency: string;
    locale: string;
    timezone: string;
    support_email: string | null;
  }>;
};
