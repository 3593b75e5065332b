import type { Selectable } from 'kysely';
import { newId } from '../../db/ids.ts';
import type { Executor, OrdersTable } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import { isStaff, type Principal } from '../../http/principal.ts';
import type { CheckoutRequest, PaymentProvider } from '../../payments/provider.ts';
import type { CoursesService } from '../courses/service.ts';
import type { AreaDeps } from '../deps.ts';
import type { SchoolSettings } from '../school-settings.ts';
import type { StudentsService } from '../students/service.ts';
import type { Fulfilment } from './fulfilment.ts';
import type { BuyerPort, CouponPort, PlanPort, ProductPort, SaleLine, SubscriptionPort } from './ports.ts';
import type { OrdersReader } from './reader.ts';
import type { CheckoutItem, Order } from './schema.ts';
import type { OrdersStore } from './store.ts';

/** How long a checkout waits for its payment before the order is canceled and its coupon given back. */
export const CHECKOUT_TTL_MS = 60 * 60 * 1000;
export const EXPIRE_CHECKOUT = 'orders.expire_checkout';

/** One thing for sale, priced: what the review page shows and the order records. */
export type Sale = {
  type: CheckoutItem['type'];
  itemId: string;
  priceId: string | null;
  title: string;
  /** Where the thing is seen (its public page) and, once held, used. */
  slug: string;
  /** The list price of one period (or of the thing). */
  unitAmount: number;
  currency: string;
  /** What is charged now: the unit amount, or nothing during a trial. */
  dueNow: number;
  recurring: CheckoutRequest['recurring'];
  trialDays: number;
};

export type Quote = {
  sale: Sale;
  discount: number;
  total: number;
  coupon: { id: string; code: string } | null;
  /** Whether the provider must be visited: money due now, or a recurring price whose renewals it will take. */
  needsPayment: boolean;
};

const HOLDS = {
  course: 'You are already enrolled in this course.',
  plan: 'You already hold this membership plan.',
  product: 'You already own this product.',
} as const;

/**
 * The storefront's checkout: prices one course, plan price or product for a signed-in student, applies a coupon
 * code, and makes the order — paid at once when nothing is due (a free item, a 100% coupon), otherwise pending while
 * the provider's hosted page takes the money. The order, its number, the coupon's redemption and (when paid) the
 * access are one transaction; the provider is called after it commits, so a slow provider holds no lock.
 */
export function checkoutService(
  deps: AreaDeps & {
    store: OrdersStore;
    reader: OrdersReader;
    courses: Pick<CoursesService, 'get'>;
    students: Pick<StudentsService, 'holdsCourse' | 'closedCourse'>;
    users: BuyerPort;
    school: SchoolSettings;
    plans: PlanPort | undefined;
    products: ProductPort | undefined;
    coupons: CouponPort | undefined;
    subscriptions: SubscriptionPort | undefined;
    fulfilment: Fulfilment;
    provider: PaymentProvider | undefined;
  },
) {
  const { db, clock, store, jobs } = deps;
  const now = () => clock.now().toISOString();
  const baseUrl = deps.config.BASE_URL;

  async function buyer(principal: Principal) {
    if (principal.kind !== 'user') throw errors.notFound('account');
    if (isStaff(principal))
      throw errors.conflict('Staff and owners hold everything already; checkout is for students.');
    const user = await deps.users.findById(db, principal.userId);
    if (!user) throw errors.notFound('account');
    return { id: user.id, email: user.email, name: user.name };
  }

  async function priced(principal: Principal, item: CheckoutItem): Promise<Sale> {
    if (item.type === 'course') {
      const course = await deps.courses.get(principal, item.key);
      const closed = deps.students.closedCourse(course);
      if (closed) throw errors.conflict(closed);
      if (!course.enrollment_open) throw errors.conflict(`${course.title} is not taking enrollments at the moment.`);
      const amount = course.price?.amount ?? 0;
      const currency = course.price?.currency ?? (await schoolCurrency());
      return sale('course', course.id, null, course.title, course.slug, amount, currency);
    }
    if (item.type === 'product') {
      if (!deps.products) throw errors.notFound('product');
      const product = await deps.products.forSale(db, item.key);
      const amount = product.price?.amount ?? 0;
      const currency = product.price?.currency ?? (await schoolCurrency());
      return sale('product', product.id, null, product.title, product.slug, amount, currency);
    }
    if (!deps.plans) throw errors.notFound('price');
    const { plan, price } = await deps.plans.priceForSale(db, item.key);
    const recurring =
      price.interval === 'one_time'
        ? undefined
        : {
            planId: plan.id,
            planName: plan.name,
            priceId: price.id,
            providerPriceId: price.provider_price_id,
            interval: price.interval,
            amount: price.amount,
            trialDays: price.trial_days,
          };
    const trialDays = recurring ? price.trial_days : 0;
    return {
      type: 'plan',
      itemId: plan.id,
      priceId: price.id,
      title: plan.name,
      slug: plan.slug,
      unitAmount: price.amount,
      currency: price.currency,
      dueNow: trialDays > 0 ? 0 : price.amount,
      recurring,
      trialDays,
    };
  }

  const sale = (
    type: Sale['type'],
    itemId: string,
    priceId: string | null,
    title: string,
    slug: string,
    amount: number,
    currency: string,
  ): Sale => ({
    type,
    itemId,
    priceId,
    title,
    slug,
    unitAmount: amount,
    currency,
    dueNow: amount,
    recurring: undefined,
    trialDays: 0,
  });

  async function schoolCurrency() {
    return (await deps.school.settings(db)).default_currency;
  }

  async function holds(ex: Executor, userId: string, sale: Sale) {
    if (sale.type === 'course') return deps.students.holdsCourse(ex, userId, sale.itemId);
    if (sale.type === 'product') return deps.products?.holds(ex, userId, sale.itemId) ?? false;
    return deps.subscriptions?.subscribesTo(ex, userId, sale.itemId) ?? false;
  }

  const lineOf = (sale: Sale): SaleLine => ({
    item_type: sale.type,
    item_id: sale.itemId,
    amount: sale.dueNow,
    currency: sale.currency,
  });

  function couponRefusedForTrial(sale: Sale) {
    if (sale.trialDays > 0)
      throw errors.invalidRequest('This plan starts with a free trial: nothing is charged now, so no coupon applies.', [
        { field: 'coupon_code', code: 'not_applicable', message: 'A coupon cannot be used on a free trial.' },
      ]);
  }

  function quoteOf(sale: Sale, coupon: { coupon: { id: string; code: string }; discounts: number[] } | undefined) {
    const discount = Math.min(coupon?.discounts[0] ?? 0, sale.dueNow);
    const total = sale.dueNow - discount;
    return {
      sale,
      discount,
      total,
      coupon: coupon?.coupon ?? null,
      needsPayment: total > 0 || (sale.recurring !== undefined && sale.unitAmount > 0),
    };
  }

  const noPayments = () =>
    errors.conflict(
      'This school does not take payments yet: only free items (or a 100% coupon) can be taken at checkout.',
    );

  /** Marks a failed start (the provider could not open its page) and gives the coupon back. */
  async function abandon(orderId: string, reason: string) {
    await db.transaction().execute(async (trx) => {
      const row = await store.lockOrder(trx, orderId);
      if (row?.status !== 'pending') return;
      await store.updateOrder(trx, orderId, { status: 'failed', failure_reason: reason, updated_at: now() });
      await deps.coupons?.release(trx, orderId);
    });
  }

  async function requestFor(
    order: Selectable<OrdersTable>,
    quote: Quote,
    user: { id: string; email: string; name: string },
  ) {
    return {
      order: {
        id: order.id,
        number: Number(order.number),
        currency: order.currency,
        subtotal: Number(order.subtotal),
        discount: Number(order.discount),
        total: Number(order.total),
      },
      customer: user,
      lines: [{ title: quote.sale.title, amount: quote.total }],
      recurring: quote.sale.recurring,
      successUrl: `${baseUrl}/orders/${order.id}`,
      cancelUrl: `${baseUrl}/checkout/${quote.sale.type}/${encodeURIComponent(quote.sale.priceId ?? quote.sale.slug)}`,
    } satisfies CheckoutRequest;
  }

  jobs.handle(EXPIRE_CHECKOUT, async (payload: { orderId: string }) => {
    await db.transaction().execute(async (trx) => {
      const row = await store.lockOrder(trx, payload.orderId);
      if (row?.status !== 'pending') return;
      await store.updateOrder(trx, row.id, {
        status: 'canceled',
        failure_reason: 'The payment was not completed in time.',
        updated_at: now(),
      });
      await deps.coupons?.release(trx, row.id);
    });
    return { orderId: payload.orderId };
  });

  return {
    /** Whether paid items can be bought here (a provider is configured). */
    takesPayments: deps.provider !== undefined,

    /** What the review page shows: the price, the coupon's discount and what is due now. Nothing is held. */
    async quote(principal: Principal, item: CheckoutItem, couponCode?: string): Promise<Quote & { held: boolean }> {
      const user = await buyer(principal);
      const sale = await priced(principal, item);
      let coupon: Awaited<ReturnType<CouponPort['preview']>> | undefined;
      if (couponCode) {
        couponRefusedForTrial(sale);
        if (!deps.coupons) throw errors.invalidRequest('No such coupon.', [couponField('No such coupon.')]);
        coupon = await deps.coupons.preview(db, { code: couponCode, lines: [lineOf(sale)], now: now() });
      }
      return { ...quoteOf(sale, coupon), held: await holds(db, user.id, sale) };
    },

    /**
     * Makes the order. Returns it with where the buyer goes next: the provider's page, or (paid already) the receipt.
     */
    async start(
      principal: Principal,
      input: { item: CheckoutItem; coupon_code?: string },
    ): Promise<{ order: Order; payment_url: string | null }> {
      const key = deps.writes.keyed();
      const user = await buyer(principal);
      const sale = await priced(principal, input.item);
      if (input.coupon_code) couponRefusedForTrial(sale);
      const made = await db.transaction().execute(async (trx) => {
        if (await holds(trx, user.id, sale)) throw errors.conflict(HOLDS[sale.type]);
        const orderId = newId('ord');
        const at = now();
        let coupon: Awaited<ReturnType<CouponPort['hold']>> | undefined;
        const number = await store.nextNumber(trx);
        // The order row exists before the coupon's redemption names it.
        await store.insertOrder(trx, {
          id: orderId,
          number,
          user_id: user.id,
          kind: 'purchase',
          status: 'pending',
          currency: sale.currency,
          subtotal: sale.dueNow,
          discount: 0,
          total: sale.dueNow,
          coupon_id: null,
          coupon_code: null,
          provider: 'none',
          provider_ref: null,
          subscription_id: null,
          failure_reason: null,
          paid_at: null,
          created_at: at,
          updated_at: at,
        });
        if (input.coupon_code) {
          if (!deps.coupons) throw errors.invalidRequest('No such coupon.', [couponField('No such coupon.')]);
          coupon = await deps.coupons.hold(trx, {
            code: input.coupon_code,
            userId: user.id,
            orderId,
            lines: [lineOf(sale)],
            now: at,
          });
        }
        const quote = quoteOf(sale, coupon);
        if (quote.needsPayment && !deps.provider) throw noPayments();
        await store.updateOrder(trx, orderId, {
          discount: quote.discount,
          total: quote.total,
          coupon_id: quote.coupon?.id ?? null,
          coupon_code: quote.coupon?.code ?? null,
          provider: quote.needsPayment ? (deps.provider?.name ?? 'none') : 'none',
        });
        await store.insertItems(trx, [
          {
            id: newId('oit'),
            order_id: orderId,
            item_type: sale.type,
            item_id: sale.itemId,
            price_id: sale.priceId,
            title: sale.title,
            unit_amount: sale.dueNow,
            discount: quote.discount,
            amount: quote.total,
            currency: sale.currency,
          },
        ]);
        const order = (await store.findOrder(trx, orderId)) as Selectable<OrdersTable>;
        if (!quote.needsPayment) {
          await deps.fulfilment.markPaid(trx, order, { paymentRef: null, amount: 0, at });
          const answer = { order: await deps.reader.read(trx, principal, orderId), payment_url: null };
          await key?.record(trx, answer);
          return { order, quote, answer };
        }
        await jobs.enqueue(trx, EXPIRE_CHECKOUT, { orderId }, { runAt: new Date(Date.parse(at) + CHECKOUT_TTL_MS) });
        // The key is committed with the order: a retry finds this order, never makes a second one holding the coupon.
        await key?.open(trx, { order: await deps.reader.read(trx, principal, orderId), payment_url: null });
        return { order, quote, answer: undefined };
      });
      if (made.answer || !deps.provider)
        return made.answer ?? { order: await deps.reader.read(db, principal, made.order.id), payment_url: null };
      let started: { reference: string; url: string };
      try {
        started = await deps.provider.startCheckout(await requestFor(made.order, made.quote, user));
      } catch (error) {
        await abandon(made.order.id, 'The payment provider could not be reached.');
        await key?.drop();
        throw Object.assign(
          errors.serviceUnavailable('The payment provider could not be reached; try again in a moment.'),
          {
            cause: error,
          },
        );
      }
      await store.updateOrder(db, made.order.id, { provider_ref: started.reference, updated_at: now() });
      const answer = { order: await deps.reader.read(db, principal, made.order.id), payment_url: started.url };
      await key?.settle(answer);
      return answer;
    },
  };
}

const couponField = (message: string) => ({ field: 'coupon_code', code: 'not_found', message });

export type CheckoutService = ReturnType<typeof checkoutService>;
