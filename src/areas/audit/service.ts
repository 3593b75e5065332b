import type { AuditLogTable } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import { isStaff, type Principal } from '../../http/principal.ts';
import type { AreaDeps } from '../deps.ts';
import { paginate } from '../pagination.ts';
import type { AuditEntry, AuditListQuery } from './schema.ts';
import type { AuditStore } from './store.ts';

const toEntry = (row: AuditLogTable): AuditEntry => ({
  id: row.id,
  at: row.at,
  actor: row.actor_id ? { id: row.actor_id, email: row.actor_email, role: row.actor_role } : null,
  client: row.client_id ? { id: row.client_id, name: row.client_name } : null,
  channel: row.channel as AuditEntry['channel'],
  operation: row.operation,
  method: row.method,
  path: row.path,
  object: row.object_type ? { type: row.object_type, id: row.object_id } : null,
  fields: JSON.parse(row.fields) as string[],
  ip: row.ip,
  user_agent: row.user_agent,
  request_id: row.request_id,
});

/**
 * The audit log, newest first, for staff and the owner; anyone else finds no rows (an empty list, 404), as with any
 * row a principal may not see. Reading is all there is: the API has no operation that changes or removes an entry,
 * and the database refuses to.
 */
export function auditService(deps: AreaDeps & { store: AuditStore }) {
  const { db, store } = deps;
  return {
    async list(principal: Principal, query: AuditListQuery) {
      if (!isStaff(principal)) return { data: [], has_more: false, next_cursor: null };
      let q = store.baseQuery(db);
      if (query.actor_id) q = q.where('actor_id', '=', query.actor_id);
      if (query.client_id) q = q.where('client_id', '=', query.client_id);
      if (query.operation) q = q.where('operation', '=', query.operation);
      if (query.object_id) q = q.where('object_id', '=', query.object_id);
      if (query.channel) q = q.where('channel', '=', query.channel);
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
      return { ...page, data: page.data.map(toEntry) };
    },

    async get(principal: Principal, id: string): Promise<AuditEntry> {
      const row = isStaff(principal) ? await store.findById(db, id) : undefined;
      if (!row) throw errors.notFound('audit entry');
      return toEntry(row);
    },
  };
}

export type AuditService = ReturnType<typeof auditService>;
