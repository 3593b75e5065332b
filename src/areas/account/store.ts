import type { Updateable } from 'kysely';
import type { Executor, UsersTable } from '../../db/tables.ts';

const ACCOUNT_COLUMNS = [
  'id',
  'name',
  'email',
  'email_verified',
  'locale',
  'role',
  'created_at',
  'updated_at',
] as const;

export function accountStore() {
  return {
    findById: (ex: Executor, id: string) =>
      ex.selectFrom('users').select(ACCOUNT_COLUMNS).where('id', '=', id).executeTakeFirst(),

    passwordHash: async (ex: Executor, id: string) =>
      (await ex.selectFrom('users').select('password_hash').where('id', '=', id).executeTakeFirst())?.password_hash,

    emailTakenByOther: async (ex: Executor, email: string, exceptId: string) =>
      (await ex
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .where('id', '!=', exceptId)
        .executeTakeFirst()) !== undefined,

    /** Whether the person signed in with their password before `before` (a first visit after sign-up has not). */
    signedInBefore: async (ex: Executor, userId: string, before: string) =>
      (await ex
        .selectFrom('sign_in_events')
        .select('id')
        .where('user_id', '=', userId)
        .where('outcome', '=', 'success')
        .where('at', '<', before)
        .limit(1)
        .executeTakeFirst()) !== undefined,

    update: async (ex: Executor, id: string, changes: Omit<Updateable<UsersTable>, 'id' | 'role'>) => {
      await ex.updateTable('users').set(changes).where('id', '=', id).execute();
    },
  };
}

export type AccountStore = ReturnType<typeof accountStore>;
