import { type ExpressionBuilder, type Insertable, sql, type Updateable } from 'kysely';
import type { CouponRedemptionsTable, CouponsTable, Executor, Tables } from '../../db/tables.ts';
import type { CouponState } from './schema.ts';

/**
 * The one rule of a coupon's state at `now`, as SQL, so that every path reads the same thing: the state shown in
 * responses is selected with it, the list's `state=` filter compares it, and taking a redemption is the UPDATE that
 * matches it to 'active'. The first condition that holds wins: disabled, expired, exhausted, scheduled, else active.
 */
export const couponState = (eb: ExpressionBuilder<Tables, 'coupons'>, now: string) =>
  eb
    .case()
    .when('coupons.disabled_at', 'is not', null)
    .then(sql.lit<CouponState>('disabled'))
    .when('coupons.expires_at', '<=', now)
    .then(sql.lit<CouponState>('expired'))
    .when(
      eb.and([
        eb('coupons.max_redemptions', 'is not', null),
        eb('coupons.times_redeemed', '>=', eb.ref('coupons.max_redemptions')),
      ]),
    )
    .then(sql.lit<CouponState>('exhausted'))
    .when('coupons.starts_at', '>', now)
    .then(sql.lit<CouponState>('scheduled'))
    .else(sql.lit<CouponState>('active'))
    .end();

export type CouponRow = CouponsTable & { times_redeemed: number; state: CouponState };

/** Coupons with their state at `now`. */
const withState = (ex: Executor, now: string) =>
  ex
    .selectFrom('coupons')
    .selectAll()
    .select((eb) => couponState(eb, now).as('state'));

export function couponsStore() {
  return {
    baseQuery: withState,

    find: (ex: Executor, id: string, now: string) =>
      withState(ex, now).where('id', '=', id).executeTakeFirst() as Promise<CouponRow | undefined>,

    /** `code` is compared upper-cased: codes are stored upper case. */
    findByCode: (ex: Executor, code: string, now: string) =>
      withState(ex, now).where('code', '=', code.toUpperCase()).executeTakeFirst() as Promise<CouponRow | undefined>,

    /** Codes starting with `prefix` (already upper-cased): compared as a substring, so `_` and `%` are plain. */
    codeStartsWith: (prefix: string) => (eb: ExpressionBuilder<Tables, 'coupons'>) =>
      eb(eb.fn<string>('substr', ['code', eb.val(1), eb.val([...prefix].length)]), '=', prefix),

    hasState: (state: CouponState, now: string) => (eb: ExpressionBuilder<Tables, 'coupons'>) =>
      eb(couponState(eb, now), '=', eb.val(state)),

    insert: async (ex: Executor, row: Insertable<CouponsTable>) => {
      await ex.insertInto('coupons').values(row).execute();
    },

    /** Inserts the rows whose code is free and returns the codes inserted; a taken code is skipped, not an error. */
    insertFree: async (ex: Executor, rows: Insertable<CouponsTable>[]) =>
      rows.length === 0
        ? []
        : (
            await ex
              .insertInto('coupons')
              .values(rows)
              .onConflict((oc) => oc.column('code').doNothing())
              .returning('code')
              .execute()
          ).map((r) => r.code),

    /**
     * Applies `changes`, only while the rule of the write holds, decided by the statement itself: `unredeemed` (the
     * coupon has never been redeemed — code and discount are frozen after that) and `redeemedAtMost` (a new
     * max_redemptions is not below what was taken already). Returns whether it did.
     */
    updateIf: async (
      ex: Executor,
      id: string,
      changes: Updateable<CouponsTable>,
      rule: { unredeemed: boolean; redeemedAtMost: number | null },
    ) => {
      let q = ex.updateTable('coupons').set(changes).where('id', '=', id);
      if (rule.unredeemed) q = q.where('times_redeemed', '=', 0);
      if (rule.redeemedAtMost !== null) q = q.where('times_redeemed', '<=', rule.redeemedAtMost);
      return Number((await q.executeTakeFirst()).numUpdatedRows) === 1;
    },

    /** Disables (`at`) or enables (null) the coupon; a coupon already disabled keeps its first disabled_at. */
    setDisabled: async (ex: Executor, id: string, at: string | null, updatedAt: string) => {
      await ex
        .updateTable('coupons')
        .set({ disabled_at: at, updated_at: updatedAt })
        .where('id', '=', id)
        .where('disabled_at', at === null ? 'is not' : 'is', null)
        .execute();
    },

    /**
     * Deletes the coupon only if nothing ever redeemed it (no redemption, held or released); the caller has asked the
     * orders area that no order names it. A checkout taking the coupon meanwhile raises times_redeemed on this row,
     * which this statement re-checks under the row's lock.
     */
    deleteUnredeemed: async (ex: Executor, id: string) => {
      const result = await ex
        .deleteFrom('coupons')
        .where('id', '=', id)
        .where('times_redeemed', '=', 0)
        .where((eb) => eb.not(eb.exists(eb.selectFrom('coupon_redemptions').select('id').where('coupon_id', '=', id))))
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    /**
     * Takes one redemption of the coupon if it is active at `now` — the update's own condition decides, on the row
     * it locks (PostgreSQL) or under SQLite's one writer, so of concurrent takers exactly the remaining redemptions
     * succeed. Returns the coupon as it is after taking, or undefined when it was not active.
     */
    take: async (ex: Executor, id: string, now: string) =>
      (await ex
        .updateTable('coupons')
        .set((eb) => ({ times_redeemed: eb('times_redeemed', '+', 1) }))
        .where('id', '=', id)
        .where((eb) => eb(couponState(eb, now), '=', sql.lit('active')))
        .returningAll()
        .executeTakeFirst()) as (CouponsTable & { times_redeemed: number }) | undefined,

    giveBack: async (ex: Executor, id: string) => {
      await ex
        .updateTable('coupons')
        .set((eb) => ({ times_redeemed: eb('times_redeemed', '-', 1) }))
        .where('id', '=', id)
        .where('times_redeemed', '>', 0)
        .execute();
    },

    insertRedemption: async (ex: Executor, row: CouponRedemptionsTable) => {
      await ex.insertInto('coupon_redemptions').values(row).execute();
    },

    /** Moves the order's redemption from held to `to`; returns its coupon when this call moved it. */
    settle: async (ex: Executor, orderId: string, to: 'redeemed' | 'released') =>
      (
        await ex
          .updateTable('coupon_redemptions')
          .set({ status: to })
          .where('order_id', '=', orderId)
          .where('status', '=', 'held')
          .returning('coupon_id')
          .executeTakeFirst()
      )?.coupon_id,
  };
}

export type CouponsStore = ReturnType<typeof couponsStore>;
