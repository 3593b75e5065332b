import type { SelectQueryBuilder } from 'kysely';
import type { Executor, Tables } from '../../db/tables.ts';

/**
 * What membership plans need of the areas around them. Each is read on the caller's executor, inside its
 * transaction; the composition root (areas/index.ts) hands in the owning areas' implementations.
 */

/** The courses area's courses a plan "of every course" takes in, as a query of their ids (`course_id`). */
export type CoursesInEveryPlan = (ex: Executor) => SelectQueryBuilder<Tables, keyof Tables, { course_id: string }>;

/**
 * Whether a record of another area names the plan, which keeps it from being deleted: an order item that sold it
 * (orders), a subscription to it (subscriptions), a comp of it (members).
 */
export type PlanRecords = Record<'sold' | 'subscribed' | 'comped', (ex: Executor, planId: string) => Promise<boolean>>;
