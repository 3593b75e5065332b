import { newId } from '../../db/ids.ts';
import type { Db, Executor, SubscriptionsTable } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { PaymentEvent, PaymentProvider, ProviderSubscriptionState } from '../../payments/provider.ts';
import type { Clock } from '../../time/clock.ts';
import type { PlansService } from '../membership-plans/service.ts';
import type { PlanAccess } from './access.ts';
import { nextPeriodEnd, periodEnd } from './periods.ts';
import type { MemberPort, RenewalLedger } from './ports.ts';
import type { SubscriptionChanges, SubscriptionRow, SubscriptionsStore } from './store.ts';

export const RENEW = 'subscriptions.renew';
export const CANCEL_AT_PROVIDER = 'subscriptions.cancel_at_provider';

const DAY_MS = 86_400_000;

/** What started a subscription: the order paid (or free) and who runs its payments from now on. */
export type SubscriptionStart = {
  userId: string;
  priceId: string;
  orderId: string;
  provider: 'none' | 'test' | 'stripe';
  providerRef: string | null;
  /** The provider's view of the subscription it runs (stripe): its status and periods are taken as they are. */
  state?: ProviderSubscriptionState;
};

/**
 * How subscriptions begin, renew and end. Two sources of truth, by provider:
 * - `test` and `none` (the school runs the subscription itself): a job `subscriptions.renew` is due at each period's
 *   end. It ends a subscription set to cancel then, leaves a paused one alone, and otherwise starts the next period
 *   on the price in force (a waiting plan change takes effect), recording the renewal charge (the test provider; a
 *   free price charges nothing). The job carries the period it was queued for and does nothing when the row has moved
 *   on, so running it twice renews once.
 * - `stripe`: its events are the truth (`applyProviderEvent`). A state older than the one applied is ignored (newest
 *   wins by the provider's time), a canceled subscription stays canceled, and a renewal charge is recorded once by
 *   its invoice reference.
 * Every change resyncs the person's course access in the same transaction.
 */
export function subscriptionLifecycle(deps: {
  db: Db;
  clock: Clock;
  jobs: JobQueue;
  store: SubscriptionsStore;
  orders: RenewalLedger;
  members: MemberPort;
  /** The membership plans area's prices, which a subscription renews at. */
  plans: Pick<PlansService, 'priceWithPlan' | 'priceByProviderId'>;
  access: Pick<PlanAccess, 'syncPlanAccess'>;
  /** The configured payment provider, asked to end a Stripe subscription whose first order was refunded. */
  provider: () => Pick<PaymentProvider, 'changeSubscription' | 'name'> | undefined;
}) {
  const { db, clock, jobs, store, orders, access } = deps;
  const now = () => clock.now().toISOString();

  async function queueRenewal(trx: Executor, row: Pick<SubscriptionsTable, 'id' | 'provider' | 'current_period_end'>) {
    if (row.provider === 'stripe' || row.current_period_end === null) return;
    await jobs.enqueue(
      trx,
      RENEW,
      { subscription_id: row.id, period_end: row.current_period_end },
      { runAt: new Date(row.current_period_end) },
    );
  }

  /**
   * Starts, for a subscription the school runs, the period beginning at `start` (counted from `anchor`) on the price
   * in force: a waiting plan change takes effect, the test provider records the charge, and the next renewal is
   * queued. A paid price with nobody to take the money (provider `none`: the first period was free) cannot renew:
   * the subscription goes past due and holds its plan through the grace days only.
   */
  async function beginPeriod(
    trx: Executor,
    row: SubscriptionRow,
    start: string,
    anchor: string,
  ): Promise<'renewed' | 'unpaid'> {
    const priceId = row.next_price_id ?? row.price_id;
    const price = await deps.plans.priceWithPlan(trx, priceId);
    if (!price || price.interval === 'one_time') throw errors.serverError();
    const at = now();
    if (Number(price.amount) > 0 && row.provider !== 'test') {
      await store.update(trx, row.id, { status: 'past_due', updated_at: at });
      return 'unpaid';
    }
    // A change to another interval counts the new periods from the first of them.
    const before = price.id === row.price_id ? price : await deps.plans.priceWithPlan(trx, row.price_id);
    const from = before?.interval === price.interval ? anchor : start;
    const end = nextPeriodEnd(from, start, price.interval);
    if (Number(price.amount) > 0)
      await orders.recordRenewal(trx, {
        userId: row.user_id,
        subscriptionId: row.id,
        plan: { id: price.plan_id, name: price.plan_name },
        price: { id: price.id, amount: Number(price.amount), currency: price.currency },
        provider: 'test',
        // The period it pays for: the ledger refuses a second charge for it, whatever runs twice.
        paymentRef: `renewal_${row.id}_${start}`,
        at,
      });
    await store.update(trx, row.id, {
      price_id: price.id,
      plan_id: price.plan_id,
      next_price_id: null,
      status: 'active',
      current_period_start: start,
      current_period_end: end,
      billing_anchor: from,
      updated_at: at,
    });
    await queueRenewal(trx, { ...row, current_period_end: end });
    return 'renewed';
  }

  /** The renewal job of a subscription the school runs, due at the end of the period it names. */
  async function renew(payload: { subscription_id: string; period_end: string }) {
    return db.transaction().execute(async (trx) => {
      const row = await store.lock(trx, payload.subscription_id);
      if (!row || row.provider === 'stripe' || row.current_period_end !== payload.period_end)
        return { outcome: 'moved_on' };
      if (row.status === 'canceled') return { outcome: 'canceled' };
      if (Number(row.cancel_at_period_end) === 1) {
        await store.update(trx, row.id, { status: 'canceled', canceled_at: row.current_period_end, updated_at: now() });
        await access.syncPlanAccess(trx, row.user_id);
        return { outcome: 'ended' };
      }
      if (row.status === 'paused') return { outcome: 'paused' };
      const outcome = await beginPeriod(trx, row, row.current_period_end, row.billing_anchor ?? row.current_period_end);
      await access.syncPlanAccess(trx, row.user_id);
      return { outcome };
    });
  }
  jobs.handle(RENEW, renew);

  // A refund made anywhere (staff, or Stripe's dashboard) ends the subscription here in the refund's transaction;
  // Stripe is told afterwards, by a job, so it charges no renewal. Its own cancellation event then changes nothing.
  jobs.handle(CANCEL_AT_PROVIDER, async (payload: { reference: string }) => {
    const provider = deps.provider();
    if (provider?.name !== 'stripe') return { outcome: 'no_provider' };
    await provider.changeSubscription(payload.reference, { kind: 'cancel', atPeriodEnd: false });
    return { outcome: 'canceled' };
  });

  /** The row as a provider state says, if that state is not older than what was applied. */
  async function applyState(trx: Executor, state: ProviderSubscriptionState) {
    const row = await store.lockByProviderRef(trx, 'stripe', state.reference);
    if (!row) return;
    if (row.provider_synced_at && state.at < row.provider_synced_at) return;
    if (row.status === 'canceled' && state.status !== 'canceled') return;
    const changes: SubscriptionChanges = {
      status: state.status,
      current_period_start: state.currentPeriodStart,
      current_period_end: state.currentPeriodEnd,
      cancel_at_period_end: state.cancelAtPeriodEnd ? 1 : 0,
      trial_end: state.trialEnd,
      canceled_at: state.status === 'canceled' ? (row.canceled_at ?? state.at) : null,
      paused_at: state.status === 'paused' ? (row.paused_at ?? state.at) : null,
      provider_synced_at: state.at,
      updated_at: now(),
    };
    const price = state.providerPriceId ? await deps.plans.priceByProviderId(trx, state.providerPriceId) : undefined;
    if (price && price.id !== row.price_id) {
      // The provider shows the new price at once; the school's plan changes with the period it was asked for.
      const waiting = price.id === row.next_price_id && state.currentPeriodEnd <= (row.current_period_end ?? '');
      if (!waiting) Object.assign(changes, { price_id: price.id, plan_id: price.plan_id, next_price_id: null });
    }
    await store.update(trx, row.id, changes);
    await access.syncPlanAccess(trx, row.user_id);
  }

  async function applyRenewalPaid(trx: Executor, event: Extract<PaymentEvent, { kind: 'renewal_paid' }>) {
    const row = await store.lockByProviderRef(trx, 'stripe', event.subscriptionRef);
    if (!row) return;
    const rolls = row.current_period_end === null || event.periodEnd > row.current_period_end;
    const priceId = rolls && row.next_price_id ? row.next_price_id : row.price_id;
    const price = await deps.plans.priceWithPlan(trx, priceId);
    if (!price) throw errors.serverError();
    await orders.recordRenewal(trx, {
      userId: row.user_id,
      subscriptionId: row.id,
      plan: { id: price.plan_id, name: price.plan_name },
      price: { id: price.id, amount: event.amount, currency: event.currency },
      provider: 'stripe',
      paymentRef: event.invoiceRef,
      at: event.at,
    });
    const changes: SubscriptionChanges = { updated_at: now() };
    if (rolls)
      Object.assign(changes, {
        current_period_start: event.periodStart,
        current_period_end: event.periodEnd,
        price_id: price.id,
        plan_id: price.plan_id,
        next_price_id: null,
      });
    const newer = !row.provider_synced_at || event.at >= row.provider_synced_at;
    if (newer && row.status !== 'canceled' && row.status !== 'paused')
      Object.assign(changes, { status: 'active', provider_synced_at: event.at });
    await store.update(trx, row.id, changes);
    await access.syncPlanAccess(trx, row.user_id);
  }

  async function applyRenewalFailed(trx: Executor, event: Extract<PaymentEvent, { kind: 'renewal_failed' }>) {
    const row = await store.lockByProviderRef(trx, 'stripe', event.subscriptionRef);
    if (!row || (row.provider_synced_at && event.at < row.provider_synced_at)) return;
    if (row.status !== 'trialing' && row.status !== 'active') return;
    await store.update(trx, row.id, { status: 'past_due', provider_synced_at: event.at, updated_at: now() });
    await access.syncPlanAccess(trx, row.user_id);
  }

  return {
    beginPeriod,
    renew,

    /**
     * Starts the subscription an order bought, in the checkout's transaction; the same order again finds the one it
     * started. Without a provider state: a trial when the price has trial days (its period ends with the trial),
     * else active for one interval from now; a one-time price is active with no period end (a membership for life).
     * The person gets a member profile if they had none, and the plan's courses open.
     */
    async startFromOrder(trx: Executor, input: SubscriptionStart): Promise<{ id: string }> {
      const [existing] = await store.lockByOrder(trx, input.orderId);
      if (existing) return { id: existing.id };
      const price = await deps.plans.priceWithPlan(trx, input.priceId);
      if (!price) throw errors.notFound('price');
      const at = now();
      const row: SubscriptionRow = {
        id: newId('sub'),
        user_id: input.userId,
        plan_id: price.plan_id,
        price_id: price.id,
        status: 'active',
        trial_end: null,
        current_period_start: at,
        current_period_end: null,
        cancel_at_period_end: 0,
        canceled_at: null,
        paused_at: null,
        next_price_id: null,
        provider: input.provider,
        provider_ref: input.providerRef ?? input.state?.reference ?? null,
        provider_synced_at: null,
        billing_anchor: null,
        order_id: input.orderId,
        created_at: at,
        updated_at: at,
      };
      const { state } = input;
      if (state)
        Object.assign(row, {
          status: state.status,
          trial_end: state.trialEnd,
          current_period_start: state.currentPeriodStart,
          current_period_end: state.currentPeriodEnd,
          cancel_at_period_end: state.cancelAtPeriodEnd ? 1 : 0,
          canceled_at: state.status === 'canceled' ? state.at : null,
          paused_at: state.status === 'paused' ? state.at : null,
          provider_synced_at: state.at,
        });
      else if (price.interval !== 'one_time' && Number(price.trial_days) > 0) {
        const trialEnd = new Date(Date.parse(at) + Number(price.trial_days) * DAY_MS).toISOString();
        Object.assign(row, { status: 'trialing', trial_end: trialEnd, current_period_end: trialEnd });
        row.billing_anchor = trialEnd;
      } else if (price.interval !== 'one_time') {
        row.current_period_end = periodEnd(at, price.interval);
        row.billing_anchor = at;
      }
      await store.insert(trx, row);
      await deps.members.ensure(trx, {
        user_id: input.userId,
        labels: '[]',
        newsletter_opt_in: 0,
        note: '',
        comp_plan_id: null,
        comp_until: null,
        created_at: at,
        updated_at: at,
      });
      await queueRenewal(trx, row);
      await access.syncPlanAccess(trx, input.userId);
      return { id: row.id };
    },

    /**
     * The order that started a subscription was refunded in full: the subscription ends now and its access closes,
     * in the refund's transaction. A provider running it (stripe) is not called from here: the refund's flow cancels
     * it there, and its state event then finds it canceled already.
     */
    async endForRefund(trx: Executor, orderId: string): Promise<void> {
      for (const row of await store.lockByOrder(trx, orderId)) {
        if (row.status === 'canceled') continue;
        await store.update(trx, row.id, {
          status: 'canceled',
          canceled_at: now(),
          cancel_at_period_end: 0,
          updated_at: now(),
        });
        await access.syncPlanAccess(trx, row.user_id);
        if (row.provider === 'stripe' && row.provider_ref)
          await jobs.enqueue(trx, CANCEL_AT_PROVIDER, { reference: row.provider_ref });
      }
    },

    /** Applies a provider's subscription event (stripe) in the transaction that records it as applied. */
    async applyProviderEvent(trx: Executor, event: PaymentEvent): Promise<void> {
      if (event.kind === 'subscription_state') await applyState(trx, event.state);
      else if (event.kind === 'renewal_paid') await applyRenewalPaid(trx, event);
      else if (event.kind === 'renewal_failed') await applyRenewalFailed(trx, event);
    },
  };
}

export type SubscriptionLifecycle = ReturnType<typeof subscriptionLifecycle>;
