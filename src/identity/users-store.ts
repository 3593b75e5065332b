import type { Insertable, Updateable } from 'kysely';
import type { Executor, UsersTable } from '../db/tables.ts';
import type { User } from './schema.ts';

const PUBLIC_COLUMNS = [
  'id',
  'email',
  'name',
  'role',
  'status',
  'locale',
  'email_verified',
  'created_at',
  'updated_at',
] as const;

export function usersStore() {
  return {
    /** Which of `ids` are people of the school. */
    existingIds: async (ex: Executor, ids: string[]) =>
      (await ex.selectFrom('users').select('id').where('id', 'in', ids).execute()).map((r) => r.id),

    findById: (ex: Executor, id: string): Promise<User | undefined> =>
      ex.selectFrom('users').select(PUBLIC_COLUMNS).where('id', '=', id).executeTakeFirst(),

    findByEmail: (ex: Executor, email: string): Promise<User | undefined> =>
      ex.selectFrom('users').select(PUBLIC_COLUMNS).where('email', '=', email).executeTakeFirst(),

    findCredentialsByEmail: (ex: Executor, email: string) =>
      ex
        .selectFrom('users')
        .select([...PUBLIC_COLUMNS, 'password_hash'])
        .where('email', '=', email)
        .executeTakeFirst(),

    insert: async (ex: Executor, row: Insertable<UsersTable>): Promise<void> => {
      await ex.insertInto('users').values(row).execute();
    },

    update: async (ex: Executor, id: string, changes: Omit<Updateable<UsersTable>, 'id' | 'role'>) => {
      await ex.updateTable('users').set(changes).where('id', '=', id).execute();
    },

    emailTaken: async (ex: Executor, email: string) =>
      (await ex.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()) !== undefined,

    ownerExists: async (ex: Executor) =>
      (await ex.selectFrom('users').select('id').where('role', '=', 'owner').limit(1).executeTakeFirst()) !== undefined,
  };
}

export type UsersStore = ReturnType<typeof usersStore>;
