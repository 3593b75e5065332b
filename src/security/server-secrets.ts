import type { Db } from '../db/tables.ts';
import type { Clock } from '../time/clock.ts';

/**
 * Secrets the server itself needs (cookie signing keys, later token signing keys) are generated on first use and kept
 * in the database, so restarts and every instance share them. Two instances racing to create one both end up with
 * the row that won the insert.
 */
export async function loadOrCreateSecret(db: Db, clock: Clock, name: string, generate: () => string): Promise<string> {
  const read = () => db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirst();
  // Generated only when missing: a restart (or another instance) finds it kept, and an RSA key costs ~100 ms of CPU.
  const kept = await read();
  if (kept) return kept.value;
  await db
    .insertInto('server_secrets')
    .values({ name, value: generate(), created_at: clock.now().toISOString() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await read();
  if (!row) throw new Error(`server secret ${name} was not stored`);
  return row.value;
}
