import type { Db } from '../db/tables.ts';
import type { Clock } from '../time/clock.ts';

const DAY_MS = 86_400_000;
/** How long the school's sign-in attempts are kept. */
export const SIGN_IN_DAYS = 90;

/**
 * Removes expired provider rows, and self-registered clients that were never used within a day of registering
 * (no grant was ever made for them; the adapter marks a client on its first grant), and sign-in attempts older than
 * 90 days. Runs at start and then hourly; returns a function that stops it.
 */
export function startOauthHousekeeping(deps: { db: Db; clock: Clock; log: (msg: string, counts: object) => void }) {
  const run = async () => {
    const now = deps.clock.now();
    const expired = await deps.db
      .deleteFrom('oauth_models')
      .where('expires_at', '<=', now.toISOString())
      .executeTakeFirst();
    const unused = await deps.db
      .deleteFrom('oauth_models')
      .where('model', '=', 'Client')
      .where('consumed_at', 'is', null)
      .where('created_at', '<=', new Date(now.getTime() - DAY_MS).toISOString())
      .executeTakeFirst();
    // Sign-in attempts are kept 90 days: long enough to look back on an incident, not a record of everyone for ever.
    const signIns = await deps.db
      .deleteFrom('sign_in_events')
      .where('at', '<', new Date(now.getTime() - SIGN_IN_DAYS * DAY_MS).toISOString())
      .executeTakeFirst();
    const counts = {
      expired_rows: Number(expired.numDeletedRows),
      unused_clients: Number(unused.numDeletedRows),
      old_sign_ins: Number(signIns.numDeletedRows),
    };
    if (counts.expired_rows || counts.unused_clients || counts.old_sign_ins) deps.log('oauth housekeeping', counts);
  };
  const timer = setInterval(() => void run().catch(() => undefined), 3_600_000);
  timer.unref();
  return { run, stop: () => clearInterval(timer) };
}
