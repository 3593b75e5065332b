import type { Executor, UserTokensTable } from '../db/tables.ts';

type Purpose = UserTokensTable['purpose'];

/** Links sent by mail, by the hash of their secret. */
export function userTokensStore() {
  return {
    insert: async (ex: Executor, row: UserTokensTable) => {
      await ex.insertInto('user_tokens').values(row).execute();
    },

    /** A link of one of `purposes` that has not expired (used or not: the caller decides what use means). */
    findUnexpired: (ex: Executor, hash: string, purposes: Purpose[], now: string) =>
      ex
        .selectFrom('user_tokens')
        .selectAll()
        .where('token_hash', '=', hash)
        .where('purpose', 'in', purposes)
        .where('expires_at', '>', now)
        .executeTakeFirst(),

    /** Marks a live link used; false when another request used it first (the statement decides, not a read before it). */
    spend: async (ex: Executor, hash: string, now: string) => {
      const result = await ex
        .updateTable('user_tokens')
        .set({ used_at: now })
        .where('token_hash', '=', hash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Ends every unused link of a person for these purposes (a new password makes other reset links pointless). */
    spendAll: async (ex: Executor, userId: string, purposes: Purpose[], now: string) => {
      await ex
        .updateTable('user_tokens')
        .set({ used_at: now })
        .where('user_id', '=', userId)
        .where('purpose', 'in', purposes)
        .where('used_at', 'is', null)
        .execute();
    },

    /**
     * Deletes every link ever made for a person, used or not, and returns the addresses they were sent to (once per link) (the
     * person's addresses over time, a change of address's new one included): part of deleting the account.
     */
    eraseAll: async (ex: Executor, userId: string) => {
      const rows = await ex.deleteFrom('user_tokens').where('user_id', '=', userId).returning('email').execute();
      return rows.map((row) => row.email);
    },

    /** The address a live, unopened change-of-address link would move the person to (the newest such link). */
    pendingEmail: async (ex: Executor, userId: string, now: string) =>
      (
        await ex
          .selectFrom('user_tokens')
          .select('email')
          .where('user_id', '=', userId)
          .where('purpose', '=', 'email_change')
          .where('used_at', 'is', null)
          .where('expires_at', '>', now)
          .orderBy('created_at', 'desc')
          .limit(1)
          .executeTakeFirst()
      )?.email,

    /** When the two newest links of a purpose were made for a person (newest first), to pace re-sending. */
    lastTwoIssuedAt: async (ex: Executor, userId: string, purpose: Purpose) =>
      (
        await ex
          .selectFrom('user_tokens')
          .select('created_at')
          .where('user_id', '=', userId)
          .where('purpose', '=', purpose)
          .orderBy('created_at', 'desc')
          .limit(2)
          .execute()
      ).map((row) => row.created_at),
  };
}

export type UserTokensStore = ReturnType<typeof userTokensStore>;
