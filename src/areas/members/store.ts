import { sql, type Updateable } from 'kysely';
import type { Executor, MembersTable } from '../../db/tables.ts';
import { containsText, literalLike } from '../../db/text-match.ts';
import { compHolds } from './comps.ts';

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

    /** Deletes the member profile; returns whether it went. */
    delete: async (ex: Executor, userId: string) =>
      Number((await ex.deleteFrom('members').where('user_id', '=', userId).executeTakeFirst()).numDeletedRows) === 1,

    /** The comps each of `userIds` holds at `now` (the membership rule's comps). */
    compsHeld: async (ex: Executor, userIds: string[], now: string) =>
      (
        await ex
          .selectFrom('members')
          .select(['user_id', 'comp_plan_id', 'comp_until'])
          .where('user_id', 'in', userIds)
          .where(compHolds(now))
          .execute()
      ).map((r) => ({ userId: r.user_id, planId: r.comp_plan_id as string, until: r.comp_until })),

    /** The people `planId` is comped to, held now or not, a page at a time in id order. */
    compHolders: async (ex: Executor, planId: string, afterUserId: string, limit: number) =>
      (
        await ex
          .selectFrom('members')
          .select('user_id')
          .where('comp_plan_id', '=', planId)
          .where('user_id', '>', afterUserId)
          .orderBy('user_id')
          .limit(limit)
          .execute()
      ).map((r) => r.user_id),

    /** Whether anyone is comped to `planId`, held now or not. */
    anyCompOf: async (ex: Executor, planId: string) =>
      (await ex.selectFrom('members').select('user_id').where('comp_plan_id', '=', planId).executeTakeFirst()) !==
      undefined,
  };
}

export type MembersStore = ReturnType<typeof membersStore>;
