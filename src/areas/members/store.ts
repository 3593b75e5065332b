import { type RawBuilder, sql, type Updateable } from 'kysely';
import type { Executor, MembersTable } from '../../db/tables.ts';
import { containsText, literalLike } from '../../db/text-match.ts';

const _USER_COLUMNS = ['id', 'email', 'name', 'role', 'created_at', 'updated_at'] as const;

const withPerson = (ex: Executor) =>
  ex
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .selectAll('members')
    .select(['users.id as id', 'users.email', 'users.name']);

export type MemberRow = Awaited<ReturnType<ReturnType<typeof withPerson>['executeTakeFirstOrThrow']>>;

export function membersStore() {
  return {
    /** Member profiles with their person's e-mail and name; `id` is the user id. */
    baseQuery: withPerson,

    /** The member's person holds a plan through a subscription (`holds`: the rule's condition on `subscriptions`). */
    subscribed: (holds: RawBuilder<boolean>, planId?: string) =>
      sql<boolean>`exists (select 1 from subscriptions where ${sql.ref('subscriptions.user_id')} = ${sql.ref('members.user_id')}${
        planId ? sql` and ${sql.ref('subscriptions.plan_id')} = ${planId}` : sql``
      } and ${holds})`,

    /** The member's comp is `planId` (any plan when absent). */
    compedTo: (planId?: string) =>
      planId ? sql<boolean>`${sql.ref('members.comp_plan_id')} = ${planId}` : sql<boolean>`1 = 1`,

    /** The member's JSON `labels` array holds exactly `label`. */
    hasLabel: (label: string) =>
      sql<boolean>`${sql.ref('members.labels')} like ${`%${literalLike(JSON.stringify(label))}%`} escape '\\'`,

    /** Name or email contains `text` (a scan: members are people, a small table beside the catalog). */
    nameOrEmail: (text: string) =>
      sql<boolean>`(${containsText('users.name', text)} or ${containsText('users.email', text)})`,

    find: (ex: Executor, userId: string) => withPerson(ex).where('members.user_id', '=', userId).executeTakeFirst(),

    /** Takes the member row's lock (a no-op update) so a change decided on it holds until the transaction ends. */
    lock: (ex: Executor, userId: string) =>
      ex
        .updateTable('members')
        .set((eb) => ({ updated_at: eb.ref('updated_at') }))
        .where('user_id', '=', userId)
        .returningAll()
        .executeTakeFirst(),

    renameUser: async (ex: Executor, id: string, name: string, at: string) => {
      await ex.updateTable('users').set({ name, updated_at: at }).where('id', '=', id).execute();
    },

    /** Inserts the member profile unless the person has one; returns whether it did. */
    insert: async (ex: Executor, row: MembersTable) => {
      const result = await ex
        .insertInto('members')
        .values(row)
        .onConflict((oc) => oc.column('user_id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    update: async (ex: Executor, userId: string, changes: Updateable<MembersTable>) => {
      await ex.updateTable('members').set(changes).where('user_id', '=', userId).execute();
    },

    /**
     * Deletes the member profile unless the person has a subscription that is not over (trialing, active, past due or
     * paused): decided by the DELETE itself, so a subscription started meanwhile keeps the profile. Returns whether
     * it went.
     */
    deleteUnlessSubscribed: async (ex: Executor, userId: string) => {
      const result = await ex
        .deleteFrom('members')
        .where('user_id', '=', userId)
        .where(({ exists, not, selectFrom }) =>
          not(
            exists(
              selectFrom('subscriptions')
                .select('subscriptions.id')
                .where('subscriptions.user_id', '=', userId)
                .where('subscriptions.status', 'in', ['trialing', 'active', 'past_due', 'paused']),
            ),
          ),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    findPlan: (ex: Executor, id: string) =>
      ex.selectFrom('membership_plans').select(['id', 'status']).where('id', '=', id).executeTakeFirst(),
  };
}

export type MembersStore = ReturnType<typeof membersStore>;
