import type { Selectable } from 'kysely';
import type { Executor, SignInEventsTable } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import { isStaff, type Principal, userIdOf } from '../../http/principal.ts';
import type { AreaDeps } from '../deps.ts';
import type { OAuthPort } from '../oauth-port.ts';
import { checkCursor, paginate } from '../pagination.ts';
import type { OAuthClient, OAuthClientDetail, OAuthClientListQuery, SignInListQuery } from './schema.ts';
import type { SecurityStore } from './store.ts';

type ClientRow = {
  id: string;
  payload: string;
  created_at: string;
  blocked_at: string | null;
  grants: unknown;
  last_used_at: unknown;
};

const toClient = (row: ClientRow): OAuthClient => {
  const payload = JSON.parse(row.payload) as { client_name?: string; redirect_uris?: string[] };
  return {
    id: row.id,
    client_name: payload.client_name ?? null,
    redirect_uris: payload.redirect_uris ?? [],
    registered_at: row.created_at,
    grants: Number(row.grants ?? 0),
    last_used_at: typeof row.last_used_at === 'string' ? row.last_used_at : null,
    blocked_at: row.blocked_at,
  };
};

/** The scopes a stored grant holds: its OpenID scopes and those of each API it was given for. */
const scopesOf = (payload: string) => {
  const grant = JSON.parse(payload) as { openid?: { scope?: string }; resources?: Record<string, string> };
  const all = [grant.openid?.scope ?? '', ...Object.values(grant.resources ?? {})].join(' ').split(' ').filter(Boolean);
  return [...new Set(all)].sort();
};

const toSignIn = (row: Selectable<SignInEventsTable>) => ({ ...row });

/**
 * The front door as staff see it: every registered app with its grants and last use, and the school's sign-in
 * attempts; staff may end all of an app's grants or block it (its grants end, and the authorization server no longer
 * finds it, so it cannot authorize or get tokens until unblocked). Others find no rows (empty lists, 404).
 */
export function securityService(
  deps: AreaDeps & { store: SecurityStore; oauth: OAuthPort; onAccessChange: () => void },
) {
  const { db, clock, store } = deps;
  const notFound = () => errors.notFound('app');
  const staffOnly = (principal: Principal) => {
    if (!isStaff(principal)) throw notFound();
  };

  /** Ends every grant of the app, and with them its codes and tokens. */
  async function endGrants(ex: Executor, clientId: string) {
    for (const grant of await store.grantIds(ex, clientId)) await deps.oauth.revokeGrant(ex, grant.id);
  }

  async function detail(id: string): Promise<OAuthClientDetail> {
    const row = await store.client(db, id);
    if (!row) throw notFound();
    const grants = await store.grants(db, id);
    return {
      ...toClient(row as ClientRow),
      grant_list: grants.map((g) => ({
        id: g.id,
        user: g.user_id ? { id: g.user_id, email: g.email ?? '', name: g.name ?? '' } : null,
        scopes: scopesOf(g.payload),
        created_at: g.created_at,
      })),
    };
  }

  return {
    async listClients(principal: Principal, query: OAuthClientListQuery) {
      if (!isStaff(principal)) return { data: [], has_more: false, next_cursor: null };
      checkCursor(query.starting_after);
      let q = store.clients(db);
      if (query.q) q = store.mentioning(q, query.q);
      if (query.blocked !== undefined) q = store.blocked(q, query.blocked);
      const limit = query.limit ?? 20;
      if (query.starting_after) q = q.where('c.id', '<', query.starting_after);
      const rows = (await q
        .orderBy('c.id', 'desc')
        .limit(limit + 1)
        .execute()) as ClientRow[];
      const has_more = rows.length > limit;
      const data = (has_more ? rows.slice(0, limit) : rows).map(toClient);
      return { data, has_more, next_cursor: has_more ? (data.at(-1)?.id ?? null) : null };
    },

    async getClient(principal: Principal, id: string) {
      staffOnly(principal);
      return detail(id);
    },

    async revokeGrants(principal: Principal, id: string) {
      staffOnly(principal);
      if (!(await store.client(db, id))) throw notFound();
      await db.transaction().execute((trx) => endGrants(trx, id));
      deps.onAccessChange();
      return detail(id);
    },

    async block(principal: Principal, id: string) {
      staffOnly(principal);
      if (!(await store.client(db, id))) throw notFound();
      await db.transaction().execute(async (trx) => {
        await store.block(trx, id, clock.now().toISOString(), userIdOf(principal) ?? null);
        await endGrants(trx, id);
      });
      deps.onAccessChange();
      return detail(id);
    },

    async unblock(principal: Principal, id: string) {
      staffOnly(principal);
      if (!(await store.client(db, id))) throw notFound();
      await store.unblock(db, id);
      return detail(id);
    },

    async listSignIns(principal: Principal, query: SignInListQuery) {
      if (!isStaff(principal)) return { data: [], has_more: false, next_cursor: null };
      let q = store.signIns(db);
      if (query.user_id) q = q.where('user_id', '=', query.user_id);
      if (query.outcome) q = q.where('outcome', '=', query.outcome);
      const page = await paginate(
        q,
        {
          limit: query.limit,
          starting_after: query.starting_after,
          created_after: query.since,
          created_before: query.until,
        },
        'id',
        'at',
      );
      return { ...page, data: page.data.map(toSignIn) };
    },
  };
}

export type SecurityService = ReturnType<typeof securityService>;
