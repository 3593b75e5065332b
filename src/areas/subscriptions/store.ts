import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Executor, SubscriptionsTable } from '../../db/tables.ts';

export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type SubscriptionChanges = Updateable<SubscriptionsTable>;

export function subscriptionsStore() {
  return {
    baseQuery: (ex: Executor) => ex.selectFrom('subscriptions').selectAll(),

    find: (ex: Executor, id: string) =>
      ex.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst(),

    /**
     * Takes the subscription's row lock (a no-op update; SQLite runs one writer at a time) and returns the row: every
     * change of state is decided on the row so read and holds until the transaction ends.
     */
    lock: (ex: Executor, id: string) =>
      ex
        .updateTable('subscriptions')
        .set((eb) => ({ updated_at: eb.ref('updated_at') }))
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),

    /** The subscription the provider runs as `reference`, locked. */
    lockByProviderRef: (ex: Executor, provider: SubscriptionsTable['provider'], reference: string) =>
      ex
        .updateTable('subscriptions')
        .set((eb) => ({ updated_at: eb.ref('updated_at') }))
        .where('provider', '=', provider)
        .where('provider_ref', '=', reference)
        .returningAll()
        .executeTakeFirst(),

    /** The subscriptions an order started, locked. */
    lockByOrder: (ex: Executor, orderId: string) =>
      ex
        .updateTable('subscriptions')
        .set((eb) => ({ updated_at: eb.ref('updated_at') }))
        .where('order_id', '=', orderId)
        .returningAll()
        .execute(),

    insert: async (ex: Executor, row: Insertable<SubscriptionsTable>) => {
      await ex.insertInto('subscriptions').values(row).execute();
    },

    update: async (ex: Executor, id: string, changes: SubscriptionChanges) => {
      await ex.updateTable('subscriptions').set(changes).where('id', '=', id).execute();
    },

    /** Whether `userId` has a subscription to `planId` that is not over (a paused one too: it resumes). */
    subscribesTo: async (ex: Executor, userId: string, planId: string) =>
      (await ex
        .selectFrom('subscriptions')
        .select('id')
        .where('user_id', '=', userId)
        .where('plan_id', '=', planId)
        .where('status', 'in', ['trialing', 'active', 'past_due', 'paused'])
        .executeTakeFirst()) !== undefined,

    findPerson: (ex: Executor, userId: string) =>
      ex.selectFrom('users').select(['id', 'email', 'name']).where('id', '=', userId).executeTakeFirst(),

    /** Whether `userId` has a subscription under way: trialing, active, past due or paused (it resumes). */
    underWay: async (ex: Executor, userId: string) =>
      (await ex
        .selectFrom('subscriptions')
        .select('id')
        .where('user_id', '=', userId)
        .where('status', 'in', ['trialing', 'active', 'past_due', 'paused'])
        .executeTakeFirst()) !== undefined,

    /** Whether any subscription, over or not, is to `planId`. */
    anyToPlan: async (ex: Executor, planId: string) =>
      (await ex.selectFrom('subscriptions').select('id').where('plan_id', '=', planId).executeTakeFirst()) !==
      undefined,

    /** The people with a subscription to `planId` not canceled, a page at a time in id order. */
    planSubscribers: async (ex: Executor, planId: string, afterUserId: string, limit: number) =>
      (
        await ex
          .selectFrom('subscriptions')
          .select('user_id')
          .distinct()
          .where('plan_id', '=', planId)
          .where('status', '!=', 'canceled')
          .where('user_id', '>', afterUserId)
          .orderBy('user_id')
          .limit(limit)
          .execute()
      ).map((r) => r.user_id),
  };
}

export type SubscriptionsStore = ReturnType<typeof subscriptionsStore>;
