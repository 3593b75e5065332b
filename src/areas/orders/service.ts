import { newId } from '../../db/ids.ts';
import { errors } from '../../http/errors.ts';
import { isStaff, type Principal } from '../../http/principal.ts';
import type { PaymentEventSink, PaymentProvider } from '../../payments/provider.ts';
import type { CoursesService } from '../courses/service.ts';
import type { AreaDeps } from '../deps.ts';
import type { SchoolSettings } from '../school-settings.ts';
import type { StudentsService } from '../students/service.ts';
import { checkoutService } from './checkout.ts';
import { fulfilment, type ReceiptMail } from './fulfilment.ts';
import type { BuyerPort, CouponPort, PlanPort, ProductPort, SubscriptionPort } from './ports.ts';
import { type OrdersReader, ordersReader } from './reader.ts';
import type { CheckoutQuote, CheckoutQuoteQuery } from './schema.ts';
import type { OrdersStore } from './store.ts';

/**
 * How long a refund asked for holds its amount while the provider has not reported it. The provider answers in
 * seconds; past this the request is taken to have died with its process, and its amount is free to ask again (the
 * ledger still never records more than was paid).
 */
const REFUND_HOLD_MS = 3_600_000;

/**
 * Staff give money back: all of what is left, or `amount` of it. The refund is decided under the order's row lock and
 * recorded as a pending request in that transaction, so refunds asked at once add up to at most what was paid: the
 * one that would go past it is a 409. The provider is asked after the commit (a slow provider holds no lock) and
 * the refund is applied when it reports it (the test provider at once, Stripe through its webhook), through the same
 * path as a refund made in the provider's own dashboard. A full refund takes the access back.
 */
export function refunds(
  deps: Pick<AreaDeps, 'db' | 'clock' | 'writes'> & {
    store: OrdersStore;
    reader: OrdersReader;
    provider: PaymentProvider | undefined;
  },
) {
  const { db, clock, store } = deps;
  return async (principal: Principal, orderId: string, amount?: number) => {
    const key = deps.writes.keyed();
    if (!isStaff(principal)) throw errors.notFound('order');
    const at = clock.now();
    const asked = await db.transaction().execute(async (trx) => {
      const order = await store.lockOrder(trx, orderId);
      if (!order) throw errors.notFound('order');
      if (order.status !== 'paid' && order.status !== 'partially_refunded')
        throw errors.conflict(`Order ${order.number} is ${order.status}; only a paid order can be refunded.`);
      if (order.provider === 'none') throw errors.conflict(`Order ${order.number} was free: nothing was charged.`);
      if (!deps.provider || deps.provider.name !== order.provider)
        throw errors.conflict(
          `Order ${order.number} was paid through ${order.provider}, which this school is not configured for; refund it there.`,
        );
      const total = Number(order.total);
      const held = await store.pendingRefunds(trx, orderId, new Date(at.getTime() - REFUND_HOLD_MS).toISOString());
      const left = total - Number(order.refunded_amount) - held;
      if (amount !== undefined && (!Number.isInteger(amount) || amount < 1 || amount > total))
        throw errors.invalidRequest(`amount: give a whole number of minor units from 1 to ${Math.max(left, 1)}.`, [
          { field: 'amount', code: 'out_of_range', message: `At most ${Math.max(left, 0)} can be refunded.` },
        ]);
      // Within what was paid but past what is left: the order's state (or a refund under way) decides, so 409.
      const wanted = amount ?? left;
      if (wanted < 1 || wanted > left)
        throw errors.conflict(
          left > 0
            ? `Only ${left} of order ${order.number} is left to refund${held ? ` while ${held} is being refunded` : ''}; ask for at most that.`
            : `Nothing of order ${order.number} is left to refund${held ? ` while ${held} is being refunded` : ''}.`,
        );
      const request = {
        id: newId('rfd'),
        order_id: orderId,
        amount: wanted,
        currency: order.currency,
        status: 'pending' as const,
        provider_ref: null,
        requested_by: principal.kind === 'user' ? principal.userId : null,
        created_at: at.toISOString(),
        updated_at: at.toISOString(),
      };
      await store.insertRefundRequest(trx, request);
      await key?.open(trx, await deps.reader.read(trx, principal, orderId), 'accepted');
      return { request, checkoutRef: order.provider_ref ?? '', provider: deps.provider };
    });
    try {
      const { reference } = await asked.provider.refund({
        orderId,
        checkoutRef: asked.checkoutRef,
        amount: asked.request.amount,
        currency: asked.request.currency,
        requestId: asked.request.id,
      });
      await store.updateRefundRequest(db, asked.request.id, { provider_ref: reference, updated_at: now(clock) });
    } catch (error) {
      // The provider refused or did not answer: the amount is free again, and a retry with the key runs afresh.
      await store.updateRefundRequest(db, asked.request.id, { status: 'failed', updated_at: now(clock) });
      await key?.drop();
      throw error;
    }
    const order = await deps.reader.read(db, principal, orderId);
    await key?.settle(order);
    return order;
  };
}

const now = (clock: AreaDeps['clock']) => clock.now().toISOString();

/**
 * The orders area: reading orders, the checkout that makes them, what a payment grants and a refund takes back, and
 * the applying of providers' reports about them. The provider is made from the sink this area gives (a provider
 * reports through it), so it is passed as a factory.
 */
export function ordersService(
  deps: AreaDeps & {
    store: OrdersStore;
    courses: Pick<CoursesService, 'get'>;
    students: Pick<StudentsService, 'holdsCourse' | 'openCourse' | 'closeCourse' | 'closedCourse'>;
    users: BuyerPort;
    school: SchoolSettings;
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
    refund: refunds({ db, clock: deps.clock, writes: deps.writes, store, reader, provider }),
  };
}

export type OrdersService = ReturnType<typeof ordersService>;
