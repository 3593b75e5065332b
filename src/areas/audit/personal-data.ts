import type { Executor } from '../../db/tables.ts';

/**
 * A deleted person's entries in the audit trail keep what was done, when and from where, under their id; the address
 * copied there when each was written becomes the account's anonymous one.
 */
export async function anonymiseAuditActor(ex: Executor, userId: string, email: string) {
  await ex.updateTable('audit_log').set({ actor_email: email }).where('actor_id', '=', userId).execute();
}
