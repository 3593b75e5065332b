import { sql } from 'kysely';
import type { Clock } from '../db/clock.ts';
import type { Db } from '../db/tables.ts';

const DAY_MS = 86_400_000;

/**
 * Removes expired provider rows, and self-registered clients that were never used within a day of registering
 * (no grant was ever made for them). Runs at start and then hourly; returns a function that stops it.
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
      .where('created_at', '<=', new Date(now.getTime() - DAY_MS).toISOString())
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('oauth_models as g')
              .select(sql`1`.as('one'))
              .where('g.model', '=', 'Grant')
              .whereRef('g.client_id', '=', 'oauth_models.id'),
          ),
        ),
      )
      .executeTakeFirst();
    const counts = { expired_rows: Number(expired.numDeletedRows), unused_clients: Number(unused.numDeletedRows) };
    if (counts.expired_rows || counts.unused_clients) deps.log('oauth housekeeping', counts);
  };
  const timer = setInterval(() => void run().catch(() => undefined), 3_600_000);
  timer.unref();
  return { run, stop: () => clearInterval(timer) };
}
