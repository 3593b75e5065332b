import type { Selectable } from 'kysely';
import type { UsersTable } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import { isStaff, type Principal } from '../../http/principal.ts';
import type { Invitations } from '../../identity/invitations.ts';
import { normalizeEmail } from '../../identity/schema.ts';
import type { AreaDeps } from '../deps.ts';
import type { OAuthPort } from '../oauth-port.ts';
import { paginate } from '../pagination.ts';
import type { StaffInvite, StaffListQuery, StaffMember, StaffRoleChange } from './schema.ts';
import type { StaffStore } from './store.ts';

type UserRow = Selectable<UsersTable>;

const toMember = (row: UserRow): StaffMember => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role as StaffMember['role'],
  status: row.status,
  invited: row.password_hash === '',
  created_at: row.created_at,
});

/**
 * The school's staff: staff and the owner read the list; only the owner invites staff, changes roles and removes
 * staff. There is always exactly one owner: making someone owner hands the school over in one transaction (the
 * present owner becomes staff). Removing someone makes them a student — their account, enrollments and orders stay —
 * and in the same transaction ends their browser sessions and the grants of their apps, whose tokens carried staff
 * scopes; cached tokens are dropped at once (`onAccessChange`).
 */
export function staffService(
  deps: AreaDeps & { store: StaffStore; invitations: Invitations; oauth: OAuthPort; onAccessChange: () => void },
) {
  const { db, clock, store } = deps;
  const now = () => clock.now().toISOString();
  const notFound = () => errors.notFound('staff member');
  const ownerOnly = (principal: Principal, what: string) => {
    if (!isStaff(principal)) throw notFound();
    if (principal.kind !== 'user' || principal.role !== 'owner') throw errors.accessDenied(`Only the owner ${what}.`);
    return principal;
  };

  return {
    async list(principal: Principal, query: StaffListQuery) {
      if (!isStaff(principal)) return { data: [], has_more: false, next_cursor: null };
      let q = store.baseQuery(db);
      if (query.role) q = q.where('role', '=', query.role);
      if (query.q) q = store.matching(q, query.q);
      const page = await paginate(q, { limit: query.limit, starting_after: query.starting_after }, 'id', 'created_at');
      return { ...page, data: page.data.map(toMember) };
    },

    async get(principal: Principal, id: string) {
      const row = isStaff(principal) ? await store.find(db, id) : undefined;
      if (!row) throw notFound();
      return toMember(row);
    },

    async invite(principal: Principal, input: StaffInvite) {
      ownerOnly(principal, 'invites staff');
      const email = normalizeEmail(input.email);
      const name = input.name.trim();
      if (!name)
        throw errors.invalidRequest('name: give a name.', [{ field: 'name', code: 'blank', message: 'Give a name.' }]);
      const row = await db.transaction().execute(async (trx) => {
        const existing = await store.findAnyByEmail(trx, email);
        if (existing && existing.role !== 'student') throw errors.conflict(`${email} is already on the staff.`);
        let staff: UserRow;
        if (existing) {
          await store.changeRole(trx, existing.id, 'student', 'staff', now());
          staff = { ...existing, role: 'staff' as const };
        } else {
          const made = await deps.invitations.invite(trx, { email, name, role: 'staff' });
          staff = (await store.find(trx, made.id)) as UserRow;
        }
        await deps.writes.made(trx, toMember(staff));
        return staff;
      });
      return toMember(row);
    },

    async changeRole(principal: Principal, id: string, input: StaffRoleChange) {
      const owner = ownerOnly(principal, 'changes roles');
      const row = await db.transaction().execute(async (trx) => {
        const target = await store.find(trx, id);
        if (!target) throw notFound();
        if (target.role === input.role) return target;
        if (input.role === 'staff') throw errors.conflict('The owner stays owner until they make someone else owner.');
        const at = now();
        if (!(await store.changeRole(trx, owner.userId, 'owner', 'staff', at)))
          throw errors.conflict('The school changed owner meanwhile; reload and try again.');
        await store.changeRole(trx, id, 'staff', 'owner', at);
        return (await store.find(trx, id)) as UserRow;
      });
      deps.onAccessChange();
      return toMember(row);
    },

    async remove(principal: Principal, id: string) {
      ownerOnly(principal, 'removes staff');
      await db.transaction().execute(async (trx) => {
        const target = await store.find(trx, id);
        if (!target) throw notFound();
        if (target.role === 'owner')
          throw errors.conflict('The owner cannot be removed; make someone else owner first.');
        if (!(await store.changeRole(trx, id, 'staff', 'student', now()))) throw notFound();
        await store.endSessions(trx, id);
        await deps.oauth.revokeGrantsOf(trx, id);
      });
      deps.onAccessChange();
    },
  };
}

export type StaffService = ReturnType<typeof staffService>;
