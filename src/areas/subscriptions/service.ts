import type { Executor } from '../../db/tables.ts';
import { ApiError, errors } from '../../http/errors.ts';
import { isStaff, type Principal } from '../../http/principal.ts';
import type { PaymentProvider, SubscriptionChange } from '../../payments/provider.ts';
import type { AreaDeps } from '../deps.ts';
import type { PlansService } from '../membership-plans/service.ts';
import { paginate } from '../pagination.ts';
import type { PlanAccess } from './access.ts';
import { subscriptionLifecycle } from './lifecycle.ts';
import type { MemberPort, RenewalLedger } from './ports.ts';

export type { PlanAccess } from './access.ts';
export type { MembershipRule } from './memberships.ts';
/** What a renewal records in the orders area's ledger, as its RenewalLedger port says (ports.ts). */
export type { RenewalCharge } from './ports.ts';

import type { Subscription, SubscriptionCancel, SubscriptionListQuery, SubscriptionPlanChange } from './schema.ts';
import type { SubscriptionChanges, SubscriptionRow, SubscriptionsStore } from './store.ts';

export const toSubscription = (row: SubscriptionRow): Subscription => ({
  id: row.id,
  user_id: row.user_id,
  plan_id: row.plan_id,
  price_id: row.price_id,
  status: row.status,
  current_period_start: row.current_period_start,
  current_period_end: row.current_period_end,
  cancel_at_period_end: Number(row.cancel_at_period_end) === 1,
  trial_end: row.trial_end,
  canceled_at: row.canceled_at,
  paused_at: row.paused_at,
  next_price_id: row.next_price_id,
  provider: row.provider,
  order_id: row.order_id,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/**
 * The one rule of whose subscriptions a caller sees: staff and owners everyone's; a signed-in person their own (a
 * student's `subscriptions:read` token); nobody else any. Both the list query and the single-row check go by it; a
 * subscription the caller may not see is 404.
 */
const visibleSubscribers = (principal: Principal): 'all' | string[] =>
  isStaff(principal) ? 'all' : principal.kind === 'user' ? [principal.userId] : [];

/** A decided change: what to write, what to tell a provider that runs the subscription, and what to do after. */
type Decision = {
  changes: SubscriptionChanges;
  provider: SubscriptionChange | undefined;
  /** Nothing to change (asked again for what already holds). */
  same?: boolean;
};

/**
 * Subscriptions: read by staff (everyone's) and by each person (their own); changed by staff (`subscriptions:write`)
 * and by the subscriber through the account's paths (`account:write`: cancel and resume their own). Each change is
 * decided on the row under its lock, written in one transaction with the person's course access. For a subscription
 * a provider runs (stripe), the change is first made there (`provider.changeSubscription`): if the provider refuses,
 * nothing changes here; if it agrees, the change is written here at once and the provider's later events confirm it.
 */
export function subscriptionsService(
  deps: AreaDeps & {
    store: SubscriptionsStore;
    orders: RenewalLedger;
    members: MemberPort;
    access: Pick<PlanAccess, 'syncPlanAccess'>;
    plans: Pick<PlansService, 'priceForSale' | 'priceWithPlan' | 'priceByProviderId'>;
    /** The configured payment provider (it runs `stripe` subscriptions); undefined when none is configured. */
    provider: () => Pick<PaymentProvider, 'changeSubscription' | 'name'> | undefined;
  },
) {
  const { db, clock, store, access } = deps;
  const now = () => clock.now().toISOString();
  const notFound = () => errors.notFound('subscription');
  const lifecycle = subscriptionLifecycle({ ...deps });

  async function visibleRow(principal: Principal, id: string) {
    const visible = visibleSubscribers(principal);
    const row = await store.find(db, id);
    if (!row || (visible !== 'all' && !visible.includes(row.user_id))) throw notFound();
    return row;
  }

  /** Any subscription, for staff to act on. */
  async function anyRow(id: string) {
    const row = await store.find(db, id);
    if (!row) throw notFound();
    return row;
  }

  /** The caller's own subscription (the account's paths): anyone else's is 404, for staff too. */
  async function ownRow(principal: Principal, id: string) {
    const row = await store.find(db, id);
    if (!row || principal.kind !== 'user' || row.user_id !== principal.userId) throw notFound();
    return row;
  }

  async function tellProvider(row: SubscriptionRow, change: SubscriptionChange | undefined) {
    if (row.provider !== 'stripe' || !change) return;
    const provider = deps.provider();
    if (provider?.name !== 'stripe' || !row.provider_ref)
      throw errors.conflict(
        'This subscription is run by Stripe, which this school is not configured for now; change it in Stripe.',
      );
    try {
      await provider.changeSubscription(row.provider_ref, change);
    } catch {
      throw new ApiError(
        'service_unavailable',
        'The payment provider did not take the change, so nothing was changed; try again in a moment.',
      );
    }
  }

  /**
   * Runs a change decided by `decide` on the subscription: first checked on the row as read (so a refused change
   * never reaches the provider), told to the provider that runs it, then decided again on the locked row and written
   * with the person's access.
   */
  async function change(
    row: SubscriptionRow,
    decide: (ex: Executor, row: SubscriptionRow, at: string) => Promise<Decision> | Decision,
  ) {
    const first = await decide(db, row, now());
    if (first.same) return toSubscription(row);
    await tellProvider(row, first.provider);
    return db.transaction().execute(async (trx) => {
      const at = now();
      const locked = await store.lock(trx, row.id);
      if (!locked) throw notFound();
      const decision = await decide(trx, locked, at);
      if (decision.same) return toSubscription(locked);
      const changes: SubscriptionChanges = { ...decision.changes, updated_at: at };
      // The provider has the change: its events from before it are older than this state.
      if (locked.provider === 'stripe') changes.provider_synced_at = at;
      await store.update(trx, locked.id, changes);
      let written = { ...locked, ...changes };
      const lapsed = written.current_period_end !== null && written.current_period_end <= at;
      if (locked.status === 'paused' && written.status === 'active' && lapsed && locked.provider !== 'stripe') {
        // Resumed after the paid period ran out while paused: a new period starts now, counted from now.
        await lifecycle.beginPeriod(trx, written, at, at);
        written = (await store.find(trx, locked.id)) ?? written;
      }
      await access.syncPlanAccess(trx, locked.user_id);
      return toSubscription(written);
    });
  }

  const cancelDecision =
    (input: SubscriptionCancel) =>
    (_ex: Executor, row: SubscriptionRow, at: string): Decision => {
      if (row.status === 'canceled') throw errors.conflict('This subscription is canceled already.');
      if (!input.at_period_end)
        return {
          changes: { status: 'canceled', canceled_at: at, cancel_at_period_end: 0 },
          provider: { kind: 'cancel', atPeriodEnd: false },
        };
      if (row.current_period_end === null)
        throw errors.conflict(
          'A membership for life has no period end to wait for; cancel it now with {"at_period_end": false}.',
        );
      if (row.status !== 'trialing' && row.status !== 'active')
        throw errors.conflict(
          `A ${row.status} subscription cannot wait for its period end; cancel it now with {"at_period_end": false}.`,
        );
      if (Number(row.cancel_at_period_end) === 1) return { changes: {}, provider: undefined, same: true };
      return { changes: { cancel_at_period_end: 1 }, provider: { kind: 'cancel', atPeriodEnd: true } };
    };

  const resumeDecision = (_ex: Executor, row: SubscriptionRow): Decision => {
    if (row.status === 'paused')
      return { changes: { status: 'active', paused_at: null }, provider: { kind: 'resume' } };
    if ((row.status === 'trialing' || row.status === 'active') && Number(row.cancel_at_period_end) === 1)
      return { changes: { cancel_at_period_end: 0 }, provider: { kind: 'resume' } };
    throw errors.conflict(
      `Nothing to resume: this ${row.status} subscription is neither paused nor set to cancel at its period end.`,
    );
  };

  const pauseDecision = (_ex: Executor, row: SubscriptionRow, at: string): Decision => {
    if (row.status === 'paused') return { changes: {}, provider: undefined, same: true };
    if (row.status !== 'active')
      throw errors.conflict(`Only an active subscription can be paused; this one is ${row.status}.`);
    if (Number(row.cancel_at_period_end) === 1)
      throw errors.conflict('This subscription ends at its period end; resume it first to pause it instead.');
    return { changes: { status: 'paused', paused_at: at }, provider: { kind: 'pause' } };
  };

  const planChangeDecision =
    (input: SubscriptionPlanChange) =>
    async (ex: Executor, row: SubscriptionRow): Promise<Decision> => {
      if (row.status === 'canceled') throw errors.conflict('This subscription is canceled; it has no next period.');
      if (row.current_period_end === null)
        throw errors.conflict('A membership for life does not renew, so it has no next period to change.');
      const sale = await deps.plans.priceForSale(ex, input.price_id).catch((error: unknown) => {
        if (error instanceof ApiError && error.code === 'not_found')
          throw errors.invalidRequest(`price_id: ${input.price_id} is not a price on sale.`, [
            { field: 'price_id', code: 'not_found', message: 'Give an active price of an active plan.' },
          ]);
        throw error;
      });
      const current = await deps.plans.priceWithPlan(ex, row.price_id);
      if (sale.price.interval === 'one_time')
        throw errors.conflict('A subscription renews, so it changes to a month or year price, not a one-time one.');
      if (current && current.currency !== sale.price.currency)
        throw errors.conflict(
          `This subscription is paid in ${current.currency}; choose a price in ${current.currency}.`,
        );
      if (row.provider === 'none' && sale.price.amount > 0)
        throw errors.conflict(
          'This subscription takes no payments (it began free), so it can change only to a free price.',
        );
      const target = sale.price.id === row.price_id ? null : sale.price.id;
      if (target === row.next_price_id) return { changes: {}, provider: undefined, same: true };
      return {
        changes: { next_price_id: target },
        provider: {
          kind: 'change_price',
          price: {
            id: sale.price.id,
            providerPriceId: sale.price.provider_price_id,
            amount: sale.price.amount,
            currency: sale.price.currency,
          },
        },
      };
    };

  return {
    async list(principal: Principal, query: SubscriptionListQuery) {
      let q = store.baseQuery(db);
      const visible = visibleSubscribers(principal);
      if (visible !== 'all') q = q.where('user_id', 'in', visible.length ? visible : ['']);
      if (query.status) q = q.where('status', '=', query.status);
      if (query.plan_id) q = q.where('plan_id', '=', query.plan_id);
      if (query.user_id) q = q.where('user_id', '=', query.user_id);
      const page = await paginate(q, query, 'id', 'created_at');
      return { ...page, data: page.data.map(toSubscription) };
    },

    get: async (principal: Principal, id: string) => toSubscription(await visibleRow(principal, id)),

    /** Staff: cancel now (access closes at once) or at the period end. */
    cancel: async (id: string, input: SubscriptionCancel) => change(await anyRow(id), cancelDecision(input)),
    /** Staff: take back a pending cancel, or un-pause. */
    resume: async (id: string) => change(await anyRow(id), resumeDecision),
    pause: async (id: string) => change(await anyRow(id), pauseDecision),
    /** Staff: the price it renews on from the next period. */
    changePlan: async (id: string, input: SubscriptionPlanChange) =>
      change(await anyRow(id), planChangeDecision(input)),

    /** The subscriber cancels their own subscription (the account's path). */
    cancelMine: async (principal: Principal, id: string, input: SubscriptionCancel) =>
      change(await ownRow(principal, id), cancelDecision(input)),
    /** The subscriber takes back their own pending cancel, or un-pauses. */
    resumeMine: async (principal: Principal, id: string) => change(await ownRow(principal, id), resumeDecision),

    startFromOrder: lifecycle.startFromOrder,
    subscribesTo: (ex: Executor, userId: string, planId: string) => store.subscribesTo(ex, userId, planId),
    endForRefund: lifecycle.endForRefund,
    syncAccess: deps.access.syncPlanAccess,
    applyProviderEvent: lifecycle.applyProviderEvent,
    /** Runs a renewal as its job would (the job kind `subscriptions.renew`). */
    renew: lifecycle.renew,
  };
}

export type SubscriptionsService = ReturnType<typeof subscriptionsService>;
