import type { Executor } from '../db/tables.ts';

/**
 * Deletes a person's sign-in attempts from the school's log (theirs, and those made at their addresses): the log keeps
 * an address, an IP and a browser for 90 days, and a deleted account keeps none of them.
 */
export async function eraseSignInsOf(ex: Executor, userId: string, addresses: string[]) {
  await ex
    .deleteFrom('sign_in_events')
    .where((eb) => eb.or([eb('user_id', '=', userId), ...(addresses.length ? [eb('email', 'in', addresses)] : [])]))
    .execute();
}
