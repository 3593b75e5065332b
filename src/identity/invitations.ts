import type { Insertable } from 'kysely';
import { newId } from '../db/ids.ts';
import type { Executor, UsersTable } from '../db/tables.ts';
import type { AccountMail } from '../mail/account-mail.ts';
import type { Clock } from '../time/clock.ts';
import type { UsersStore } from './users-store.ts';

/**
 * A person added by the school rather than signing up — a student staff add, a member of staff the owner invites:
 * an account with no password (no password matches an empty hash) and an e-mail inviting them to choose one, both in
 * the caller's transaction, so an invitation is never sent for an account that was not made.
 */
export function invitations(deps: { clock: Clock; users: UsersStore; mail: Pick<AccountMail, 'invite'> }) {
  return {
    async invite(trx: Executor, person: { email: string; name: string; role: 'staff' | 'student' }) {
      const at = deps.clock.now().toISOString();
      const row: Insertable<UsersTable> & { id: string } = {
        id: newId('usr'),
        email: person.email,
        name: person.name,
        role: person.role,
        status: 'active',
        password_hash: '',
        locale: null,
        created_at: at,
        updated_at: at,
      };
      await deps.users.insert(trx, row);
      await deps.mail.invite(trx, { id: row.id, email: person.email, name: person.name });
      return row;
    },
  };
}

export type Invitations = ReturnType<typeof invitations>;
