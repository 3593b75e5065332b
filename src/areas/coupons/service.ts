import type { Insertable } from 'kysely';
import { newId } from '../../db/ids.ts';
import type { CouponsTable, Executor } from '../../db/tables.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { errors } from '../../http/errors.ts';
import { csvLine } from '../csv.ts';
import type { AreaDeps } from '../deps.ts';
import { paginate } from '../pagination.ts';
import type { References } from '../references.ts';
import { insertBatch, randomCode } from './batches.ts';
import type { OrdersPort } from './ports.ts';
import { appliesToOf, couponRedemptions } from './redemptions.ts';
import type { Coupon, CouponBatch, CouponBulkCreate, CouponCreate, CouponListQuery, CouponUpdate } from './schema.ts';
import type { CouponRow, CouponsStore } from './store.ts';

type Terms = Omit<CouponUpdate, 'code'>;
/** The columns a coupon's terms are stored in. */
type TermColumns = Pick<
  CouponsTable,
  'percent_off' | 'amount_off' | 'currency' | 'applies_to' | 'starts_at' | 'expires_at' | 'max_redemptions'
>;

/** Fixed once the coupon has been redeemed: a buyer's discount must stay what it was when they were promised it. */
const FROZEN = ['code', 'percent_off', 'amount_off'] as const;

/** Rows per page of the CSV export. */
const EXPORT_PAGE = 500;

function toCoupon(row: CouponRow): Coupon {
  return {
    id: row.id,
    code: row.code,
    percent_off: row.percent_off === null ? null : Number(row.percent_off),
    amount_off:
      row.amount_off === null || row.currency === null
        ? null
        : { amount: Number(row.amount_off), currency: row.currency },
    applies_to: appliesToOf(row),
    starts_at: row.starts_at,
    expires_at: row.expires_at,
    max_redemptions: row.max_redemptions === null ? null : Number(row.max_redemptions),
    times_redeemed: Number(row.times_redeemed),
    state: row.state,
    disabled_at: row.disabled_at,
    batch: row.batch,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const CSV_COLUMNS = [
  'id',
  'code',
  'state',
  'percent_off',
  'amount_off',
  'currency',
  'times_redeemed',
  'max_redemptions',
  'starts_at',
  'expires_at',
  'disabled_at',
  'batch',
  'created_at',
] as const;

const field = (name: string, code: string, message: string) =>
  errors.invalidRequest(message, [{ field: name, code, message }]);

/**
 * Coupons, for staff: percent or amount off, on everything or on named courses, plans and products, between two dates,
 * a number of times. The state (scheduled, active, expired, exhausted, disabled) is derived by the one SQL rule in the
 * store. Redeeming is for the checkout (redemptions.ts), inside its order transaction.
 */
export function couponsService(deps: AreaDeps & { store: CouponsStore; references: References; orders: OrdersPort }) {
  const { db, clock, store } = deps;
  const now = () => clock.now().toISOString();
  const notFound = () => errors.notFound('coupon');

  async function load(ex: Executor, id: string) {
    const row = await store.find(ex, id, now());
    if (!row) throw notFound();
    return row;
  }

  /** A write that may take a code another coupon has: the unique index answers, as a 409. */
  async function claimingCode<T>(code: string | undefined, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error))
        throw errors.conflict(`The code "${code}" is taken by another coupon; choose another.`);
      throw error;
    }
  }

  async function checkItems(list: string[] | undefined, kind: 'course' | 'plan' | 'product', name: string) {
    if (!list?.length) return;
    const found = await deps.references.existing(db, kind, list);
    const missing = list.filter((id) => !found.has(id));
    if (missing.length) throw field(`applies_to.${name}`, 'not_found', `No such ${kind}: ${missing.join(', ')}.`);
  }

  /** The term columns after applying `input` to `current` (a new coupon: nothing), checked; a 400 naming the field. */
  async function termsOf(input: Terms, current: TermColumns | undefined): Promise<TermColumns> {
    if (input.percent_off != null && input.amount_off != null) {
      throw field('amount_off', 'exclusive', 'Give percent_off or amount_off, not both.');
    }
    const next: TermColumns = current
      ? {
          percent_off: current.percent_off,
          amount_off: current.amount_off,
          currency: current.currency,
          applies_to: current.applies_to,
          starts_at: current.starts_at,
          expires_at: current.expires_at,
          max_redemptions: current.max_redemptions,
        }
      : {
          percent_off: null,
          amount_off: null,
          currency: null,
          applies_to: JSON.stringify({ all: true }),
          starts_at: null,
          expires_at: null,
          max_redemptions: null,
        };
    if (input.percent_off !== undefined) {
      next.percent_off = input.percent_off;
      if (input.percent_off !== null) Object.assign(next, { amount_off: null, currency: null });
    }
    if (input.amount_off !== undefined) {
      next.amount_off = input.amount_off?.amount ?? null;
      next.currency = input.amount_off?.currency ?? null;
      if (input.amount_off !== null) next.percent_off = null;
    }
    if ((next.percent_off === null) === (next.amount_off === null)) {
      throw field(
        'percent_off',
        'required',
        'A coupon takes off either percent_off (1–100) or amount_off (an amount and currency).',
      );
    }
    if (input.applies_to !== undefined) {
      if ('all' in input.applies_to) next.applies_to = JSON.stringify({ all: true });
      else {
        const { course_ids = [], plan_ids = [], product_ids = [] } = input.applies_to;
        if (!course_ids.length && !plan_ids.length && !product_ids.length) {
          throw field(
            'applies_to',
            'empty',
            'applies_to names no course, plan or product; list some, or use {"all": true}.',
          );
        }
        await checkItems(course_ids, 'course', 'course_ids');
        await checkItems(plan_ids, 'plan', 'plan_ids');
        await checkItems(product_ids, 'product', 'product_ids');
        next.applies_to = JSON.stringify({ course_ids, plan_ids, product_ids });
      }
    }
    const moment = (value: string | null) => (value === null ? null : new Date(value).toISOString());
    if (input.starts_at !== undefined) next.starts_at = moment(input.starts_at);
    if (input.expires_at !== undefined) next.expires_at = moment(input.expires_at);
    if (next.starts_at !== null && next.expires_at !== null && next.expires_at <= next.starts_at) {
      throw field('expires_at', 'before_start', 'expires_at must be after starts_at.');
    }
    if (input.max_redemptions !== undefined) next.max_redemptions = input.max_redemptions;
    return next;
  }

  /** Runs a create and the Idempotency-Key's record of its answer, if any, in one transaction. */
  const creating = <T>(work: (trx: Executor) => Promise<T>) =>
    db.transaction().execute(async (trx) => {
      const created = await work(trx);
      await deps.writes.made(trx, created);
      return created;
    });

  /** The list's filters, with the state judged at one moment. */
  function filtered(query: CouponListQuery) {
    const at = now();
    let q = store.baseQuery(db, at);
    if (query.state) q = q.where(store.hasState(query.state, at));
    if (query.q) q = q.where(store.codeStartsWith(query.q.toUpperCase()));
    if (query.batch) q = q.where('batch', '=', query.batch.toUpperCase());
    return q;
  }

  const redemptions = couponRedemptions(store);

  /** Disables or enables the coupon; an unknown id changes nothing and reads as 404. */
  async function setDisabled(id: string, disabled: boolean) {
    const at = now();
    await store.setDisabled(db, id, disabled ? at : null, at);
    return toCoupon(await load(db, id));
  }

  return {
    async list(query: CouponListQuery) {
      const page = await paginate(filtered(query), query, 'id', 'created_at');
      return { ...page, data: page.data.map((row) => toCoupon(row as CouponRow)) };
    },

    /** Every coupon the list's filters select, in the list's order, as CSV lines (a header first); not paged. */
    async *exportCsv(query: CouponListQuery): AsyncIterable<string> {
      yield csvLine([...CSV_COLUMNS]);
      // Built once: every page judges the coupons' state at the same moment.
      const selected = filtered(query);
      for (let after: string | undefined; ; ) {
        const params = { ...query, limit: EXPORT_PAGE, starting_after: after };
        const page = await paginate(selected, params, 'id', 'created_at');
        for (const row of page.data) {
          const c = toCoupon(row as CouponRow);
          yield csvLine([
            c.id,
            c.code,
            c.state,
            c.percent_off,
            c.amount_off?.amount ?? null,
            c.amount_off?.currency ?? null,
            c.times_redeemed,
            c.max_redemptions,
            c.starts_at,
            c.expires_at,
            c.disabled_at,
            c.batch,
            c.created_at,
          ]);
        }
        if (!page.has_more || !page.next_cursor) return;
        after = page.next_cursor;
      }
    },

    get: async (id: string) => toCoupon(await load(db, id)),

    async create(input: CouponCreate) {
      const terms = await termsOf(input, undefined);
      const at = now();
      const row: Insertable<CouponsTable> = {
        id: newId('cpn'),
        code: input.code.toUpperCase(),
        ...terms,
        times_redeemed: 0,
        disabled_at: null,
        batch: null,
        created_at: at,
        updated_at: at,
      };
      return claimingCode(row.code, () =>
        creating(async (trx) => {
          await store.insert(trx, row);
          return toCoupon(await load(trx, row.id));
        }),
      );
    },

    async bulkCreate(input: CouponBulkCreate): Promise<CouponBatch> {
      const { prefix, count, ...rest } = input;
      const terms = await termsOf({ max_redemptions: 1, ...rest }, undefined);
      const batch = prefix.toUpperCase();
      const at = now();
      return creating(async (trx) => {
        const codes = await insertBatch(
          trx,
          store,
          count,
          () => randomCode(batch),
          (id, code) => ({
            id,
            code,
            ...terms,
            times_redeemed: 0,
            disabled_at: null,
            batch,
            created_at: at,
            updated_at: at,
          }),
        );
        return { batch, count: codes.length, codes };
      });
    },

    async update(id: string, input: CouponUpdate) {
      for (;;) {
        const row = await load(db, id);
        const { code: _, ...terms } = input;
        const next = await termsOf(terms, row);
        const code = input.code?.toUpperCase() ?? row.code;
        // The field named in a refusal is the one the caller gave (giving amount_off also clears percent_off).
        const changed = {
          code: code !== row.code,
          percent_off: input.percent_off !== undefined && next.percent_off !== row.percent_off,
          amount_off:
            input.amount_off !== undefined &&
            (next.amount_off !== row.amount_off ||
              next.currency !== row.currency ||
              next.percent_off !== row.percent_off),
        };
        const frozen = FROZEN.find((name) => changed[name]);
        const redeemed = Number(row.times_redeemed);
        if (frozen && redeemed > 0) {
          throw errors.conflict(
            `${frozen} cannot change: the coupon has been redeemed (${redeemed} times). Create a new coupon for other terms.`,
          );
        }
        if (next.max_redemptions !== null && next.max_redemptions < redeemed) {
          throw errors.conflict(`max_redemptions cannot be below the ${redeemed} redemptions already taken.`);
        }
        const written = await claimingCode(code, () =>
          store.updateIf(
            db,
            id,
            { ...next, code, updated_at: now() },
            {
              unredeemed: frozen !== undefined,
              redeemedAtMost: next.max_redemptions,
            },
          ),
        );
        if (written) return toCoupon(await load(db, id));
        // A redemption came in between the read and the write: the rules are judged again on the fresh row.
      }
    },

    async delete(id: string) {
      const deleted = await db
        .transaction()
        .execute(async (trx) => !(await deps.orders.namesCoupon(trx, id)) && (await store.deleteUnredeemed(trx, id)));
      if (deleted) return;
      await load(db, id);
      throw errors.conflict(
        `This coupon has been redeemed, so it is kept with the orders that used it; disable it instead (POST /api/v1/coupons/${id}/disable).`,
      );
    },

    disable: (id: string) => setDisabled(id, true),
    enable: (id: string) => setDisabled(id, false),

    ...redemptions,
  };
}

export type CouponsService = ReturnType<typeof couponsService>;
