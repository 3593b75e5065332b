import type { Clock } from '../db/clock.ts';
import type { Db } from '../db/tables.ts';

const DAY_MS = 86_400_000;

/**
 * Removes expired provider rows, and self-registered clients that were never used within a day of registering
 * (no grant was ever made for them; the adapter marks a client on its first grant). Runs at start and then hourly; returns a function that stops it.
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
    const counts = { expired_rows: Number(expired.numDeletedRows), unused_clients: Number(unused.numDeletedRows) };
    if (counts.expired_rows || counts.unused_clients) deps.log('oauth housekeeping', counts);
  };
  const timer = setInterval(() => void run().catch(() => undefined), 3_600_000);
  timer.unref();
  return { run, stop: () => clearInterval(timer) };
}
