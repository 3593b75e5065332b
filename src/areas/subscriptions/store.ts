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

    /** A person's enrollments that came from a subscription, or are in one of `courseIds`. */
    enrollmentsFor: (ex: Executor, userId: string, courseIds: string[]) =>
      ex
        .selectFrom('enrollments')
        .select(['id', 'course_id', 'source', 'status', 'expires_at'])
        .where('user_id', '=', userId)
        .where((eb) =>
          courseIds.length
            ? eb.or([eb('source', '=', 'subscription'), eb('course_id', 'in', courseIds)])
            : eb('source', '=', 'subscription'),
        )
        .execute(),

    /**
     * The people whose access a plan may give, a page at a time in id order: those with a subscription to it not
     * canceled, and those it is comped to.
     */
    planHolders: (ex: Executor, planId: string, afterUserId: string, limit: number) =>
      ex
        .selectFrom(
          ex
            .selectFrom('subscriptions')
            .select('user_id')
            .where('plan_id', '=', planId)
            .where('status', '!=', 'canceled')
            .union(ex.selectFrom('members').select('user_id').where('comp_plan_id', '=', planId))
            .as('h'),
        )
        .select('h.user_id')
        .where('h.user_id', '>', afterUserId)
        .orderBy('h.user_id')
        .limit(limit)
        .execute(),
  };
}

export type SubscriptionsStore = ReturnType<typeof subscriptionsStore>;
