import type { Insertable } from 'kysely';
import type { Executor, UsersTable } from '../../db/tables.ts';
import { containsText } from '../../db/text-match.ts';

const STAFF_ROLES = ['owner', 'staff'] as const;

/** People who run the school (owner and staff) in the users table. */
export function staffStore() {
  const base = (ex: Executor) => ex.selectFrom('users').selectAll().where('role', 'in', STAFF_ROLES);
  return {
    baseQuery: base,
    find: (ex: Executor, id: string) => base(ex).where('id', '=', id).executeTakeFirst(),
    findAnyByEmail: (ex: Executor, email: string) =>
      ex.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst(),
    owner: (ex: Executor) => ex.selectFrom('users').selectAll().where('role', '=', 'owner').executeTakeFirst(),
    matching: (q: ReturnType<typeof base>, text: string) =>
      q.where((eb) => eb.or([containsText('name', text), containsText('email', text)])),
    insert: async (ex: Executor, row: Insertable<UsersTable>) => {
      await ex.insertInto('users').values(row).execute();
    },
    /** Sets the role of `id` if it is now `from`; whether it changed (two owners acting at once cannot both win). */
    changeRole: async (ex: Executor, id: string, from: UsersTable['role'], to: UsersTable['role'], at: string) => {
      const result = await ex
        .updateTable('users')
        .set({ role: to, updated_at: at })
        .where('id', '=', id)
        .where('role', '=', from)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    endSessions: async (ex: Executor, userId: string) => {
      await ex.deleteFrom('sessions').where('user_id', '=', userId).execute();
    },
  };
}

export type StaffStore = ReturnType<typeof staffStore>;
