import type { Db } from '../db/tables.ts';
import type { Clock } from '../time/clock.ts';

/**
 * Secrets the server itself needs (cookie signing keys, later token signing keys) are generated on first use and kept
 * in the database, so restarts and every instance share them. Two instances racing to create one both end up with
 * the row that won the insert.
 */
export async function loadOrCreateSecret(db: Db, clock: Clock, name: string, generate: () => string): Promise<string> {
  await db
    .insertInto('server_secrets')
    .values({ name, value: generate(), created_at: clock.now().toISOString() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}
