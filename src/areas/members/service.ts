import { sql } from 'kysely';
import type { Executor, MembersTable } from '../../db/tables.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { errors } from '../../http/errors.ts';
import { normalizeEmail } from '../../identity/schema.ts';
import type { AreaDeps } from '../deps.ts';
import { paginate } from '../pagination.ts';
import type { StudentsService } from '../students/service.ts';
import type { MembershipRule, PlanAccess } from '../subscriptions/service.ts';
import { compHolds } from './comps.ts';
import type { MemberPlansPort, SubscriptionsPort } from './ports.ts';
import type { Member, MemberComp, MemberCreate, MemberListQuery, MemberUpdate } from './schema.ts';
import type { MemberRow, MembersStore } from './store.ts';

/**
 * Members: people with a member profile (made by staff here, or by a subscription's start). Status is derived by the
 * membership rule, never stored: paid while a subscription holds a plan, comped while only a comp does, free
 * otherwise. Staff only (members:read / members:write are staff scopes). A profile is deleted only while no
 * subscription of the person is under way (trialing, active, past due, paused): 409 otherwise. A comp gives one plan
 * until a date (or until taken back); giving, changing, taking back a comp and deleting the profile resync the
 * person's course access in the same transaction.
 */
export function membersService(
  deps: AreaDeps & {
    store: MembersStore;
    rule: MembershipRule;
    access: Pick<PlanAccess, 'syncPlanAccess'>;
    /** Who a member is: a student found by e-mail, or added and invited (the students area's one rule). */
    people: Pick<StudentsService, 'ensureStudent'>;
    plans: MemberPlansPort;
    subscriptions: SubscriptionsPort;
  },
) {
  const { db, clock, store, rule, access } = deps;
  const now = () => clock.now().toISOString();
  const notFound = () => errors.notFound('member');

  async function toMembers(ex: Executor, rows: MemberRow[]): Promise<Member[]> {
    const holdings = await rule.holdings(
      ex,
      rows.map((r) => r.user_id),
      now(),
    );
    return rows.map((row) => {
      const held = holdings.filter((h) => h.userId === row.user_id);
      return {
        id: row.user_id,
        email: row.email,
        name: row.name,
        status: held.some((h) => h.via === 'subscription') ? 'paid' : held.length ? 'comped' : 'free',
        labels: JSON.parse(row.labels) as string[],
        newsletter_opt_in: Number(row.newsletter_opt_in) === 1,
        note: row.note,
        plan_ids: [...new Set(held.map((h) => h.planId))],
        comp: row.comp_plan_id ? { plan_id: row.comp_plan_id, until: row.comp_until } : null,
        created_at: row.created_at,
        updated_at: row.updated_at,
      };
    });
  }

  async function memberOn(ex: Executor, userId: string) {
    const row = await store.find(ex, userId);
    if (!row) throw notFound();
    return (await toMembers(ex, [row]))[0] as Member;
  }

  const blankName = () =>
    errors.invalidRequest('name: must not be only spaces.', [
      { field: 'name', code: 'blank', message: 'Give a name.' },
    ]);

  async function upsert(input: MemberCreate) {
    const email = normalizeEmail(input.email);
    const name = input.name.trim();
    if (!name) throw blankName();
    return db.transaction().execute(async (trx) => {
      const at = now();
      const { student: user } = await deps.people.ensureStudent(trx, email, name, 'a member');
      const fields = {
        labels: JSON.stringify(input.labels ?? []),
        newsletter_opt_in: input.newsletter_opt_in ? 1 : 0,
        note: input.note ?? '',
      } as const;
      const created = await store.insert(trx, {
        user_id: user.id,
        ...fields,
        comp_plan_id: null,
        comp_until: null,
        created_at: at,
        updated_at: at,
      });
      if (!created) {
        const changes: Partial<MembersTable> = { updated_at: at };
        if (input.labels !== undefined) changes.labels = fields.labels;
        if (input.newsletter_opt_in !== undefined) changes.newsletter_opt_in = fields.newsletter_opt_in;
        if (input.note !== undefined) changes.note = fields.note;
        await store.update(trx, user.id, changes);
      }
      const member = await memberOn(trx, user.id);
      await deps.writes.made(trx, member, created ? 'created' : 'existing');
      return { created, item: member };
    });
  }

  /** Runs `fn` on the member's locked row in a transaction, then resyncs their access and answers the member. */
  const withMember = (userId: string, fn: (trx: Executor, row: MembersTable) => Promise<void>) =>
    db.transaction().execute(async (trx) => {
      const row = await store.lock(trx, userId);
      if (!row) throw notFound();
      await fn(trx, row);
      await access.syncPlanAccess(trx, userId);
      return memberOn(trx, userId);
    });

  return {
    async list(query: MemberListQuery) {
      const at = now();
      let q = store.baseQuery(db);
      const subscribed = rule.subscribed('members.user_id', at);
      const comped = compHolds(at);
      if (query.status === 'paid') q = q.where(subscribed);
      else if (query.status === 'comped') q = q.where(sql<boolean>`not ${subscribed}`).where(comped);
      else if (query.status === 'free') q = q.where(sql<boolean>`not ${subscribed}`).where(sql<boolean>`not ${comped}`);
      if (query.plan_id)
        q = q.where(
          sql<boolean>`(${rule.subscribed('members.user_id', at, query.plan_id)} or (${store.compedTo(query.plan_id)} and ${comped}))`,
        );
      if (query.label) q = q.where(store.hasLabel(query.label));
      if (query.q) q = q.where(store.nameOrEmail(query.q));
      const page = await paginate(q, query, 'members.user_id', 'members.created_at');
      return { ...page, data: await toMembers(db, page.data) };
    },

    get: (id: string) => memberOn(db, id),

    /** Upsert by e-mail: `created` says whether the member profile is new. */
    async create(input: MemberCreate) {
      try {
        return await upsert(input);
      } catch (error) {
        // Another request made this e-mail's account or profile meanwhile: now it exists, so this one updates it.
        if (isUniqueViolation(error)) return upsert(input);
        throw error;
      }
    },

    update: (id: string, input: MemberUpdate) => {
      const name = input.name?.trim();
      if (name === '') throw blankName();
      return withMember(id, async (trx) => {
        const at = now();
        if (name !== undefined) await store.renameUser(trx, id, name, at);
        const changes: Partial<MembersTable> = { updated_at: at };
        if (input.labels !== undefined) changes.labels = JSON.stringify(input.labels);
        if (input.newsletter_opt_in !== undefined) changes.newsletter_opt_in = input.newsletter_opt_in ? 1 : 0;
        if (input.note !== undefined) changes.note = input.note;
        await store.update(trx, id, changes);
      });
    },

    async delete(id: string) {
      const deleted = await db.transaction().execute(async (trx) => {
        // A subscription under way keeps the profile; asked in the transaction that deletes it.
        if ((await deps.subscriptions.underWay(trx, id)) || !(await store.delete(trx, id))) return false;
        // A comp went with the profile.
        await access.syncPlanAccess(trx, id);
        return true;
      });
      if (deleted) return;
      if (!(await store.find(db, id))) throw notFound();
      throw errors.conflict(
        'This member has a subscription under way (trialing, active, past due or paused); cancel it first (POST /api/v1/subscriptions/{id}/cancel).',
      );
    },

    /** Gives the member `plan_id` until `until` (null: until taken back), in place of any comp they had. */
    async comp(id: string, input: MemberComp) {
      const until = input.until === null ? null : new Date(input.until).toISOString();
      if (until !== null && until <= now())
        throw errors.invalidRequest('until: must be in the future (or null: until taken back).', [
          { field: 'until', code: 'past', message: 'Give a time in the future, or null.' },
        ]);
      return withMember(id, async (trx) => {
        const plan = await deps.plans.findById(trx, input.plan_id);
        if (!plan)
          throw errors.invalidRequest(`plan_id: no such plan ${input.plan_id}.`, [
            { field: 'plan_id', code: 'not_found', message: `Unknown plan ${input.plan_id}` },
          ]);
        if (plan.status !== 'active') throw errors.conflict('This plan is archived: it is no longer given.');
        await store.update(trx, id, { comp_plan_id: plan.id, comp_until: until, updated_at: now() });
      });
    },

    /** Takes the comp back: its plan's access closes now (unless a subscription holds the plan too). */
    removeComp: (id: string) =>
      withMember(id, async (trx) => {
        await store.update(trx, id, { comp_plan_id: null, comp_until: null, updated_at: now() });
      }),
  };
}

export type MembersService = ReturnType<typeof membersService>;
