import { errors } from '../../http/errors.ts';
import { isStaff, type Principal } from '../../http/principal.ts';
import type { PaymentEventSink, PaymentProvider } from '../../payments/provider.ts';
import type { CoursesService } from '../courses/service.ts';
import type { AreaDeps } from '../deps.ts';
import type { StudentsService } from '../students/service.ts';
import { checkoutService } from './checkout.ts';
import { fulfilment, type ReceiptMail } from './fulfilment.ts';
import type { CouponPort, PlanPort, ProductPort, SubscriptionPort } from './ports.ts';
import { type OrdersReader, ordersReader } from './reader.ts';
import type { CheckoutQuote, CheckoutQuoteQuery } from './schema.ts';
import type { OrdersStore } from './store.ts';

/**
 * Staff give money back: all of what is left, or `amount` of it. The provider is asked and the refund is applied when
 * it reports it (the test provider at once, Stripe through its webhook), through the same path as a refund made in
 * the provider's own dashboard. A full refund takes the access back.
 */
export function refunds(
  deps: Pick<AreaDeps, 'db'> & { store: OrdersStore; reader: OrdersReader; provider: PaymentProvider | undefined },
) {
  return async (principal: Principal, orderId: string, amount?: number) => {
    if (!isStaff(principal)) throw errors.notFound('order');
    const order = await deps.store.findOrder(deps.db, orderId);
    if (!order) throw errors.notFound('order');
    if (order.status !== 'paid' && order.status !== 'partially_refunded')
      throw errors.conflict(`Order ${order.number} is ${order.status}; only a paid order can be refunded.`);
    if (order.provider === 'none') throw errors.conflict(`Order ${order.number} was free: nothing was charged.`);
    if (!deps.provider || deps.provider.name !== order.provider)
      throw errors.conflict(
        `Order ${order.number} was paid through ${order.provider}, which this school is not configured for; refund it there.`,
      );
    const left = Number(order.total) - Number(order.refunded_amount);
    const asked = amount ?? left;
    if (!Number.isInteger(asked) || asked < 1 || asked > left)
      throw errors.invalidRequest(`amount: give a whole number of minor units from 1 to ${left}.`, [
        { field: 'amount', code: 'out_of_range', message: `At most ${left} can be refunded.` },
      ]);
    await deps.provider.refund({
      orderId,
      checkoutRef: order.provider_ref ?? '',
      amount: asked,
      currency: order.currency,
    });
    return deps.reader.read(deps.db, principal, orderId);
  };
}

/**
 * The orders area: reading orders, the checkout that makes them, what a payment grants and a refund takes back, and
 * the applying of providers' reports about them. The provider is made from the sink this area gives (a provider
 * reports through it), so it is passed as a factory.
 */
export function ordersService(
  deps: AreaDeps & {
    store: OrdersStore;
    courses: Pick<CoursesService, 'get'>;
    students: Pick<StudentsService, 'holdsCourse' | 'openCourse' | 'closeCourse'>;
    plans: PlanPort | undefined;
    products: ProductPort | undefined;
    coupons: CouponPort | undefined;
    subscriptions: SubscriptionPort | undefined;
    receipt: ReceiptMail;
    provider: (sink: PaymentEventSink) => PaymentProvider | undefined;
  },
) {
  const { db, store } = deps;
  const reader = ordersReader({ db, store });
  const paid = fulfilment({ ...deps, receipt: deps.receipt });
  /** Every provider report goes here: order events to the orders, subscription events to the subscriptions. */
  const sink: PaymentEventSink = async (trx, event) => {
    if (!(await paid.apply(trx, event))) await deps.subscriptions?.applyProviderEvent(trx, event);
  };
  const provider = deps.provider(sink);
  const checkout = checkoutService({ ...deps, reader, fulfilment: paid, provider });
  return {
    provider,
    sink,
    takesPayments: checkout.takesPayments,
    list: reader.list,
    get: (principal: Principal, id: string) => reader.read(db, principal, id),
    /** The money that moved for an order the principal may see: charges and refunds, oldest first. */
    async payments(principal: Principal, id: string) {
      await reader.read(db, principal, id);
      const rows = await store.paymentsOf(db, id);
      return {
        data: rows.map((row) => ({
          id: row.id,
          kind: row.kind,
          amount: { amount: Number(row.amount), currency: row.currency },
          provider: row.provider,
          provider_ref: row.provider_ref,
          created_at: row.created_at,
        })),
      };
    },
    start: checkout.start,
    async quote(principal: Principal, query: CheckoutQuoteQuery): Promise<CheckoutQuote> {
      const q = await checkout.quote(principal, { type: query.type, key: query.key }, query.coupon_code);
      const money = (amount: number) => ({ amount, currency: q.sale.currency });
      return {
        item: {
          type: q.sale.type,
          id: q.sale.itemId,
          price_id: q.sale.priceId,
          title: q.sale.title,
          slug: q.sale.slug,
        },
        unit_price: money(q.sale.unitAmount),
        due_now: money(q.sale.dueNow),
        discount: money(q.discount),
        total: money(q.total),
        trial_days: q.sale.trialDays,
        interval: q.sale.recurring?.interval ?? null,
        coupon_code: q.coupon?.code ?? null,
        needs_payment: q.needsPayment,
        payments_enabled: checkout.takesPayments,
        already_held: q.held,
      };
    },
    refund: refunds({ db, store, reader, provider }),
  };
}

export type OrdersService = ReturnType<typeof ordersService>;
