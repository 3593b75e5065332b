import type { Executor, MembershipPlansTable } from '../../db/tables.ts';

/**
 * What members need of the areas around them, read on the caller's executor (inside its transaction); the
 * composition root (areas/index.ts) hands in the owning areas' implementations.
 */

/** The membership plans area's plans: a comp gives an active one. */
export type MemberPlansPort = {
  findById(ex: Executor, id: string): Promise<Pick<MembershipPlansTable, 'id' | 'status'> | undefined>;
};

/** The subscriptions area's: whether a person has a subscription under way (trialing, active, past due or paused). */
export type SubscriptionsPort = { underWay(ex: Executor, userId: string): Promise<boolean> };
