import { newId } from '../../db/ids.ts';
import type { CouponsTable, Executor } from '../../db/tables.ts';
import { type ApiError, errors } from '../../http/errors.ts';
import type { Coupon, CouponDiscount, CouponLine } from './schema.ts';
import type { CouponRow, CouponsStore } from './store.ts';

type Terms = Pick<CouponsTable, 'id' | 'code' | 'percent_off' | 'amount_off' | 'currency' | 'applies_to'>;

/** A coupon's applies_to as stored (JSON), in the API's shape. */
export function appliesToOf(row: Pick<CouponsTable, 'applies_to'>): Coupon['applies_to'] {
  const parsed = JSON.parse(row.applies_to) as Partial<{
    all: true;
    course_ids: string[];
    plan_ids: string[];
    product_ids: string[];
  }>;
  if (parsed.all) return { all: true };
  return {
    course_ids: parsed.course_ids ?? [],
    plan_ids: parsed.plan_ids ?? [],
    product_ids: parsed.product_ids ?? [],
  };
}

const LISTS = { course: 'course_ids', plan: 'plan_ids', product: 'product_ids' } as const;

/** "2026-03-01 09:30 UTC": a moment as a buyer reads it in a sentence. */
const when = (timestamp: string) => `${timestamp.slice(0, 10)} ${timestamp.slice(11, 16)} UTC`;

const refusal = (message: string, code: string) =>
  errors.invalidRequest(message, [{ field: 'coupon_code', code, message }]);

/** Why a coupon found (or not) by `code` cannot be used now; undefined when it is active. */
function unusable(row: CouponRow | undefined, code: string): ApiError | undefined {
  const shown = code.toUpperCase();
  if (!row) return refusal(`No coupon has the code "${shown}".`, 'unknown');
  switch (row.state) {
    case 'disabled':
      return refusal(`The coupon "${shown}" has been withdrawn.`, 'disabled');
    case 'expired':
      return refusal(`The coupon "${shown}" expired on ${when(row.expires_at ?? '')}.`, 'expired');
    case 'exhausted':
      return refusal(`The coupon "${shown}" has been used up.`, 'used_up');
    case 'scheduled':
      return refusal(
        `The coupon "${shown}" is not valid yet; it can be used from ${when(row.starts_at ?? '')}.`,
        'not_started',
      );
    case 'active':
      return undefined;
  }
}

/**
 * What `coupon` takes off each line: a percentage off every line it applies to, rounded half up per line; an amount
 * once per order, taken from the lines it applies to in its currency, in order, never more than a line. Throws when it
 * applies to no line, or only to lines in another currency.
 */
function discountsOf(coupon: Terms, lines: CouponLine[]): number[] {
  const appliesTo = appliesToOf(coupon);
  const applies = (line: CouponLine) =>
    'all' in appliesTo || (appliesTo[LISTS[line.item_type]] as string[]).includes(line.item_id);
  if (!lines.some(applies)) {
    throw refusal(
      `The coupon "${coupon.code}" does not apply to ${lines.length === 1 ? 'this item' : 'these items'}.`,
      'not_applicable',
    );
  }
  if (coupon.percent_off !== null) {
    const percent = Number(coupon.percent_off);
    return lines.map((line) => (applies(line) ? Math.floor((line.amount * percent + 50) / 100) : 0));
  }
  const currency = coupon.currency ?? '';
  if (!lines.some((line) => applies(line) && line.currency === currency)) {
    const other = lines.find(applies)?.currency ?? '';
    throw refusal(
      `The coupon "${coupon.code}" takes an amount in ${currency} off, and cannot be used for prices in ${other}.`,
      'currency',
    );
  }
  let left = Number(coupon.amount_off);
  return lines.map((line) => {
    if (!applies(line) || line.currency !== currency) return 0;
    const off = Math.min(left, line.amount);
    left -= off;
    return off;
  });
}

const discountOf = (coupon: Terms, lines: CouponLine[]): CouponDiscount => ({
  coupon: { id: coupon.id, code: coupon.code },
  discounts: discountsOf(coupon, lines),
});

const iso = (now: Date | string) => (typeof now === 'string' ? new Date(now).toISOString() : now.toISOString());

/**
 * Redeeming coupons, for the checkout, inside its order transaction. A redemption is held while the order is pending
 * (it counts in times_redeemed, so a coupon cannot be promised to more orders than it has uses), confirmed when the
 * order is paid, released — and the use given back — when the order fails or is canceled.
 */
export function couponRedemptions(store: CouponsStore) {
  async function usable(ex: Executor, code: string, now: string) {
    const row = await store.findByCode(ex, code, now);
    const problem = unusable(row, code);
    if (problem || !row) throw problem;
    return row;
  }

  return {
    /** What the coupon `code` takes off `lines` at `now`; a 400 on field coupon_code saying why it cannot be used. */
    async preview(ex: Executor, input: { code: string; lines: CouponLine[]; now: Date | string }) {
      return discountOf(await usable(ex, input.code, iso(input.now)), input.lines);
    },

    /**
     * As preview, and takes one use of the coupon for `orderId` (which must exist: the redemption row refers to it).
     * The conditional update decides who gets the last use; a caller that lost gets the same 400 as preview.
     */
    async hold(
      trx: Executor,
      input: { code: string; userId: string; orderId: string; lines: CouponLine[]; now: Date | string },
    ) {
      const now = iso(input.now);
      const row = await usable(trx, input.code, now);
      // Refused before taking a use when it cannot apply, so a refusal leaves nothing to undo.
      discountOf(row, input.lines);
      const taken = await store.take(trx, row.id, now);
      if (!taken) {
        const again = await store.findByCode(trx, input.code, now);
        throw unusable(again, input.code) ?? refusal(`The coupon "${row.code}" has been used up.`, 'used_up');
      }
      let result: CouponDiscount;
      try {
        // The terms as they are under the lock: what was read before may have been edited since.
        result = discountOf(taken, input.lines);
      } catch (error) {
        await store.giveBack(trx, taken.id);
        throw error;
      }
      await store.insertRedemption(trx, {
        id: newId('cpr'),
        coupon_id: taken.id,
        order_id: input.orderId,
        user_id: input.userId,
        amount: result.discounts.reduce((sum, d) => sum + d, 0),
        currency: input.lines[0]?.currency ?? taken.currency ?? '',
        status: 'held',
        created_at: now,
      });
      return result;
    },

    /** The order was paid: its held redemption is redeemed. Nothing happens for an order without one. */
    async confirm(trx: Executor, orderId: string) {
      await store.settle(trx, orderId, 'redeemed');
    },

    /** The order failed or was canceled: its held redemption is released and the use given back. */
    async release(trx: Executor, orderId: string) {
      const couponId = await store.settle(trx, orderId, 'released');
      if (couponId) await store.giveBack(trx, couponId);
    },
  };
}

export type CouponRedemptions = ReturnType<typeof couponRedemptions>;
