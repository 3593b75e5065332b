import type { Executor, MembershipPlansTable, PlanPricesTable } from '../../db/tables.ts';

export function plansStore() {
  return {
    /** Which of `ids` are membership_plans (another area's input may name them). */
    existingIds: async (ex: Executor, ids: string[]) =>
      (await ex.selectFrom('membership_plans').select('id').where('id', 'in', ids).execute()).map((r) => r.id),

    baseQuery: (ex: Executor) => ex.selectFrom('membership_plans').selectAll(),

    findByIdOrSlug: (ex: Executor, key: string) =>
      ex
        .selectFrom('membership_plans')
        .selectAll()
        .where((eb) => eb.or([eb('id', '=', key), eb('slug', '=', key)]))
        .executeTakeFirst(),

    findById: (ex: Executor, id: string) =>
      ex.selectFrom('membership_plans').selectAll().where('id', '=', id).executeTakeFirst(),

    slugTaken: async (ex: Executor, slug: string, exceptId?: string) => {
      let query = ex.selectFrom('membership_plans').select('id').where('slug', '=', slug);
      if (exceptId) query = query.where('id', '!=', exceptId);
      return (await query.executeTakeFirst()) !== undefined;
    },

    insert: async (ex: Executor, row: MembershipPlansTable) => {
      await ex.insertInto('membership_plans').values(row).execute();
    },

    update: async (ex: Executor, id: string, changes: Partial<MembershipPlansTable>) => {
      await ex.updateTable('membership_plans').set(changes).where('id', '=', id).execute();
    },

    /**
     * Deletes the plan (its prices and course and product links go with it). The service deletes only a plan no
     * order item, subscription or comp names (asked of their areas in the same transaction); the database's keys
     * refuse it too while a subscription or comp names it. Returns whether it went.
     */
    delete: async (ex: Executor, id: string) =>
      Number((await ex.deleteFrom('membership_plans').where('id', '=', id).executeTakeFirst()).numDeletedRows) === 1,

    /** The course and product ids listed on each of `planIds`, in the order given. */
    links: async (ex: Executor, planIds: string[]) => {
      if (planIds.length === 0) return { courses: [], products: [] };
      const [courses, products] = await Promise.all([
        ex.selectFrom('plan_courses').selectAll().where('plan_id', 'in', planIds).orderBy('position').execute(),
        ex.selectFrom('plan_products').selectAll().where('plan_id', 'in', planIds).orderBy('position').execute(),
      ]);
      return { courses, products };
    },

    /** The plans, archived ones too (their subscriptions go on), that include every course by rule. */
    allCoursesPlanIds: async (ex: Executor) =>
      (await ex.selectFrom('membership_plans').select('id').where('includes_all_courses', '=', 1).execute()).map(
        (r) => r.id,
      ),

    /** Replaces the plan's course list; returns the ids it had before. */
    setCourses: async (ex: Executor, planId: string, courseIds: string[]) => {
      const before = await ex.selectFrom('plan_courses').select('course_id').where('plan_id', '=', planId).execute();
      await ex.deleteFrom('plan_courses').where('plan_id', '=', planId).execute();
      if (courseIds.length)
        await ex
          .insertInto('plan_courses')
          .values(courseIds.map((course_id, position) => ({ plan_id: planId, course_id, position })))
          .execute();
      return before.map((r) => r.course_id);
    },

    setProducts: async (ex: Executor, planId: string, productIds: string[]) => {
      await ex.deleteFrom('plan_products').where('plan_id', '=', planId).execute();
      if (productIds.length)
        await ex
          .insertInto('plan_products')
          .values(productIds.map((product_id, position) => ({ plan_id: planId, product_id, position })))
          .execute();
    },

    /** The prices of `planIds` (only `status` ones when given), oldest first. */
    prices: (ex: Executor, planIds: string[], status?: PlanPricesTable['status']) => {
      if (planIds.length === 0) return Promise.resolve([]);
      let query = ex.selectFrom('plan_prices').selectAll().where('plan_id', 'in', planIds);
      if (status) query = query.where('status', '=', status);
      return query.orderBy('id').execute();
    },

    countPrices: async (ex: Executor, planId: string) =>
      Number(
        (
          await ex
            .selectFrom('plan_prices')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('plan_id', '=', planId)
            .executeTakeFirstOrThrow()
        ).n,
      ),

    findPrice: (ex: Executor, id: string) =>
      ex.selectFrom('plan_prices').selectAll().where('id', '=', id).executeTakeFirst(),

    insertPrice: async (ex: Executor, row: PlanPricesTable) => {
      await ex.insertInto('plan_prices').values(row).execute();
    },

    /** Archives the price unless it is archived already; returns the row as written, or undefined. */
    archivePrice: (ex: Executor, planId: string, id: string, at: string) =>
      ex
        .updateTable('plan_prices')
        .set({ status: 'archived', archived_at: at })
        .where('id', '=', id)
        .where('plan_id', '=', planId)
        .where('status', '=', 'active')
        .returningAll()
        .executeTakeFirst(),

    /** A price on sale with its plan: both active. */
    priceOnSale: (ex: Executor, priceId: string) =>
      ex
        .selectFrom('plan_prices')
        .innerJoin('membership_plans', 'membership_plans.id', 'plan_prices.plan_id')
        .selectAll('plan_prices')
        .select(['membership_plans.name as plan_name', 'membership_plans.slug as plan_slug'])
        .where('plan_prices.id', '=', priceId)
        .where('plan_prices.status', '=', 'active')
        .where('membership_plans.status', '=', 'active')
        .executeTakeFirst(),

    /** A price, archived or not, with its plan's name: what a subscription on it renews at. */
    priceWithPlan: (ex: Executor, id: string) =>
      ex
        .selectFrom('plan_prices')
        .innerJoin('membership_plans', 'membership_plans.id', 'plan_prices.plan_id')
        .selectAll('plan_prices')
        .select('membership_plans.name as plan_name')
        .where('plan_prices.id', '=', id)
        .executeTakeFirst(),

    /** The price the payment provider knows as `providerPriceId`. */
    priceByProviderId: (ex: Executor, providerPriceId: string) =>
      ex.selectFrom('plan_prices').selectAll().where('provider_price_id', '=', providerPriceId).executeTakeFirst(),

    setProviderPriceId: async (ex: Executor, priceId: string, providerPriceId: string) => {
      const result = await ex
        .updateTable('plan_prices')
        .set({ provider_price_id: providerPriceId })
        .where('id', '=', priceId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

export type PlansStore = ReturnType<typeof plansStore>;
