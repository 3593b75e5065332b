import { newId } from '../../db/ids.ts';
import type { Executor, MembershipPlansTable, PlanPricesTable } from '../../db/tables.ts';
import { containsText } from '../../db/text-match.ts';
import { errors } from '../../http/errors.ts';
import { isStaff, type Principal } from '../../http/principal.ts';
import type { AreaDeps } from '../deps.ts';
import { paginate } from '../pagination.ts';
import type { References } from '../references.ts';
import { withRowLock } from '../row-locks.ts';
import { slugRules } from '../slugs.ts';
import { includedCourseRows } from './included-courses.ts';
import type { CoursesInEveryPlan, PlanRecords } from './ports.ts';
import { priceForSale, setProviderPriceId } from './sale.ts';
import {
  MAX_PRICES_PER_PLAN,
  type Plan,
  type PlanCreate,
  type PlanListQuery,
  type PlanUpdate,
  type Price,
  type PriceCreate,
  type PriceListQuery,
} from './schema.ts';
import type { PlansStore } from './store.ts';

const RESYNC = 'membership_plans.resync_access';

export const toPrice = (row: PlanPricesTable): Price => ({
  id: row.id,
  plan_id: row.plan_id,
  amount: Number(row.amount),
  currency: row.currency,
  interval: row.interval,
  trial_days: Number(row.trial_days),
  status: row.status,
  created_at: row.created_at,
  archived_at: row.archived_at,
});

/**
 * The one rule of which plans and prices a caller sees, as data both the list query and the single-row check use:
 * staff see every plan and price; anyone else sees active plans — public ones when listing, hidden ones too when
 * asked by id or slug (a hidden plan is sold by its link) — and their active prices. Anything else is 404.
 */
function viewOf(principal: Principal, listing: boolean) {
  const all = isStaff(principal);
  return {
    all,
    visibilities: (listing ? ['public'] : ['public', 'hidden']) as MembershipPlansTable['visibility'][],
    priceStatus: all ? undefined : ('active' as const),
  };
}

const visibleTo = (principal: Principal, row: MembershipPlansTable) => {
  const view = viewOf(principal, false);
  return view.all || (row.status === 'active' && view.visibilities.includes(row.visibility));
};

/**
 * Membership plans and their prices. A plan is active until archived (no longer sold; its subscriptions go on); one
 * that was ever sold, subscribed to or comped is archived, never deleted. Prices are created and archived, never
 * edited, so an order or subscription always names the price it was sold at; an archived plan takes no new price.
 * A change to a plan's course list resyncs the course access of the people holding it, through a durable job.
 */
/** The subscriptions area's plan access: everyone a plan may give courses is resynced when its course list changes. */
export type PlanHoldersPort = { syncPlanHolders(planId: string): Promise<number> };

export function plansService(
  deps: AreaDeps & {
    store: PlansStore;
    access: PlanHoldersPort;
    courses: CoursesInEveryPlan;
    records: PlanRecords;
    references: References;
  },
) {
  const { db, clock, store, jobs } = deps;
  const includedCourses = includedCourseRows(deps.courses);
  const now = () => clock.now().toISOString();
  const notFound = () => errors.notFound('membership plan');

  jobs.handle(RESYNC, async (payload: { plan_id: string }) => ({
    people: await deps.access.syncPlanHolders(payload.plan_id),
  }));

  /** Plans as the API shows them, with their courses, products and prices (only `priceStatus` ones when given). */
  async function toPlans(
    ex: Executor,
    rows: MembershipPlansTable[],
    priceStatus?: PlanPricesTable['status'],
  ): Promise<Plan[]> {
    const ids = rows.map((r) => r.id);
    const [links, included, prices] = await Promise.all([
      store.links(ex, ids),
      includedCourses(ex, ids),
      store.prices(ex, ids, priceStatus),
    ]);
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      slug: row.slug,
      description: row.description,
      benefits: JSON.parse(row.benefits) as string[],
      course_ids: links.courses.filter((c) => c.plan_id === row.id).map((c) => c.course_id),
      includes_all_courses: Number(row.includes_all_courses ?? 0) === 1,
      included_course_ids: included.filter((c) => c.plan_id === row.id).map((c) => c.course_id),
      product_ids: links.products.filter((p) => p.plan_id === row.id).map((p) => p.product_id),
      visibility: row.visibility,
      status: row.status,
      prices: prices.filter((p) => p.plan_id === row.id).map(toPrice),
      archived_at: row.archived_at,
      created_at: row.created_at,
      updated_at: row.updated_at,
    }));
  }

  const toPlan = async (ex: Executor, row: MembershipPlansTable, priceStatus?: PlanPricesTable['status']) =>
    (await toPlans(ex, [row], priceStatus))[0] as Plan;

  /** The plan `key` (id or slug) names, if the caller may see it. */
  async function visiblePlan(principal: Principal, key: string) {
    const row = await store.findByIdOrSlug(db, key);
    if (!row || !visibleTo(principal, row)) throw notFound();
    return row;
  }

  /** Course and product ids must name existing ones: 400 with the field and the unknown ids otherwise. */
  async function checkIncluded(ex: Executor, input: { course_ids?: string[]; product_ids?: string[] }) {
    const problems = [];
    for (const [field, ids, kind, what] of [
      ['course_ids', input.course_ids, 'course', 'course'],
      ['product_ids', input.product_ids, 'product', 'digital product'],
    ] as const) {
      if (!ids?.length) continue;
      const found = await deps.references.existing(ex, kind, ids);
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length) problems.push({ field, code: 'not_found', message: `Unknown ${what} ${missing.join(', ')}` });
    }
    if (problems.length)
      throw errors.invalidRequest(
        `${problems.map((p) => p.message).join('; ')}: a plan includes only courses and products that exist.`,
        problems,
      );
  }

  const blankName = () =>
    errors.invalidRequest('name: must not be only spaces.', [
      { field: 'name', code: 'blank', message: 'Give the plan a name.' },
    ]);

  /** The slug rules, checked on `ex`: inside a transaction they must run on it (SQLite has one connection). */
  const slugsOn = (ex: Executor) => slugRules('plan', (slug, exceptId) => store.slugTaken(ex, slug, exceptId));

  return {
    /** A course was published, unpublished or archived: the holders of plans of every course follow it (a job each). */
    async courseStatusChanged(trx: Executor) {
      for (const planId of await store.allCoursesPlanIds(trx)) await jobs.enqueue(trx, RESYNC, { plan_id: planId });
    },

    async list(principal: Principal, query: PlanListQuery) {
      let q = store.baseQuery(db);
      if (query.status) q = q.where('status', '=', query.status);
      if (query.visibility) q = q.where('visibility', '=', query.visibility);
      if (query.q) q = q.where(containsText('name', query.q));
      const view = viewOf(principal, true);
      if (!view.all) q = q.where('status', '=', 'active').where('visibility', 'in', view.visibilities);
      const page = await paginate(q, query, 'id', 'created_at');
      return { ...page, data: await toPlans(db, page.data, view.priceStatus) };
    },

    get: async (principal: Principal, key: string) =>
      toPlan(db, await visiblePlan(principal, key), viewOf(principal, false).priceStatus),

    async create(input: PlanCreate) {
      const name = input.name.trim();
      if (!name) throw blankName();
      const at = now();
      return slugsOn(db).write(input.slug, () =>
        db.transaction().execute(async (trx) => {
          await checkIncluded(trx, input);
          const row: MembershipPlansTable = {
            id: newId('pln'),
            name,
            slug: await slugsOn(trx).choose(input.slug, name),
            description: input.description ?? '',
            benefits: JSON.stringify(input.benefits ?? []),
            visibility: input.visibility ?? 'public',
            status: 'active',
            includes_all_courses: input.includes_all_courses ? 1 : 0,
            archived_at: null,
            created_at: at,
            updated_at: at,
          };
          await store.insert(trx, row);
          await store.setCourses(trx, row.id, input.course_ids ?? []);
          await store.setProducts(trx, row.id, input.product_ids ?? []);
          const created = await toPlan(trx, row);
          await deps.writes.made(trx, created);
          return created;
        }),
      );
    },

    async update(id: string, input: PlanUpdate) {
      if (input.name !== undefined && !input.name.trim()) throw blankName();
      return slugsOn(db).write(input.slug, () =>
        withRowLock(db, 'membership_plans', id, notFound, async (trx, row) => {
          await slugsOn(trx).assertFree(input.slug, id);
          await checkIncluded(trx, input);
          const changes: Partial<MembershipPlansTable> = { updated_at: now() };
          if (input.name !== undefined) changes.name = input.name.trim();
          if (input.slug !== undefined) changes.slug = input.slug;
          if (input.description !== undefined) changes.description = input.description;
          if (input.benefits !== undefined) changes.benefits = JSON.stringify(input.benefits);
          if (input.visibility !== undefined) changes.visibility = input.visibility;
          if (input.includes_all_courses !== undefined)
            changes.includes_all_courses = input.includes_all_courses ? 1 : 0;
          await store.update(trx, id, changes);
          let resync =
            changes.includes_all_courses !== undefined && changes.includes_all_courses !== row.includes_all_courses;
          if (input.course_ids !== undefined) {
            const before = await store.setCourses(trx, id, input.course_ids);
            const same =
              before.length === input.course_ids.length && before.every((c) => input.course_ids?.includes(c));
            resync ||= !same;
          }
          // The holders' access follows the new list; a job, since a plan may have thousands of holders.
          if (resync) await jobs.enqueue(trx, RESYNC, { plan_id: id });
          if (input.product_ids !== undefined) await store.setProducts(trx, id, input.product_ids);
          return toPlan(trx, { ...row, ...changes });
        }),
      );
    },

    async delete(id: string) {
      const { sold, subscribed, comped } = deps.records;
      const kept = async (trx: Executor) =>
        (await sold(trx, id)) || (await subscribed(trx, id)) || (await comped(trx, id));
      if (await db.transaction().execute(async (trx) => !(await kept(trx)) && store.delete(trx, id))) return;
      if (!(await store.findById(db, id))) throw notFound();
      throw errors.conflict(
        `This plan has been sold, subscribed to or comped, so it is kept as the record of that; archive it instead (POST /api/v1/membership-plans/${id}/archive).`,
      );
    },

    /** Archives the plan: no longer sold, hidden from everyone but staff; its subscriptions and comps go on. */
    archive: (id: string) =>
      withRowLock(db, 'membership_plans', id, notFound, async (trx, row) => {
        if (row.status === 'archived') return toPlan(trx, row);
        const at = now();
        const changes = { status: 'archived', archived_at: at, updated_at: at } as const;
        await store.update(trx, id, changes);
        return toPlan(trx, { ...row, ...changes });
      }),

    async listPrices(principal: Principal, key: string, query: PriceListQuery) {
      const plan = await visiblePlan(principal, key);
      const status = viewOf(principal, false).priceStatus;
      if (status && query.status && query.status !== status) return { data: [], has_more: false, next_cursor: null };
      const rows = await store.prices(db, [plan.id], query.status ?? status);
      return { data: rows.map(toPrice), has_more: false, next_cursor: null };
    },

    async createPrice(planId: string, input: PriceCreate) {
      const trialDays = input.trial_days ?? 0;
      if (input.interval === 'one_time' && trialDays > 0)
        throw errors.invalidRequest('trial_days: a one-time price has no trial (it is paid once, for life).', [
          { field: 'trial_days', code: 'not_allowed', message: 'Only month and year prices have a trial.' },
        ]);
      return withRowLock(db, 'membership_plans', planId, notFound, async (trx, plan) => {
        if (plan.status === 'archived')
          throw errors.conflict('This plan is archived: it is no longer sold, so it takes no new price.');
        if ((await store.countPrices(trx, planId)) >= MAX_PRICES_PER_PLAN)
          throw errors.conflict(
            `A plan keeps at most ${MAX_PRICES_PER_PLAN} prices, archived ones included; make a new plan to sell it at more prices.`,
          );
        const row: PlanPricesTable = {
          id: newId('pri'),
          plan_id: planId,
          amount: input.amount,
          currency: input.currency,
          interval: input.interval,
          trial_days: trialDays,
          status: 'active',
          provider_price_id: null,
          archived_at: null,
          created_at: now(),
        };
        await store.insertPrice(trx, row);
        const price = toPrice(row);
        await deps.writes.made(trx, price);
        return price;
      });
    },

    /** Archives a price: no longer sold; subscriptions on it go on renewing at it. Archiving it again changes nothing. */
    async archivePrice(planId: string, priceId: string) {
      const written = await store.archivePrice(db, planId, priceId, now());
      if (written) return toPrice(written);
      const row = await store.findPrice(db, priceId);
      if (row?.plan_id !== planId) throw errors.notFound('price');
      return toPrice(row);
    },

    priceForSale,
    setProviderPriceId,
    /** A price, archived or not, with its plan's name: what a subscription on it renews at. */
    priceWithPlan: store.priceWithPlan,
    /** The price a payment provider knows by its own id (its events name that). */
    priceByProviderId: store.priceByProviderId,
  };
}

export type PlansService = ReturnType<typeof plansService>;
