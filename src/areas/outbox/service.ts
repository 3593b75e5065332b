import type { OutboxTable } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { normalizeEmail } from '../../identity/schema.ts';
import type { AreaDeps } from '../deps.ts';
import { paginate } from '../pagination.ts';
import type { OutboxListQuery, OutboxMessage, OutboxMessageSummary } from './schema.ts';
import type { OutboxReadStore } from './store.ts';

type SummaryRow = Omit<OutboxTable, 'text_body' | 'html_body'>;

const toSummary = (row: SummaryRow): OutboxMessageSummary => ({
  id: row.id,
  to: row.to_address,
  subject: row.subject,
  kind: row.kind,
  status: row.status,
  attempts: row.attempts,
  last_error: row.last_error,
  sent_at: row.sent_at,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/**
 * Messages carry links that sign their recipient in (password reset, invitation), the owner's own included, so only
 * the owner reads them: staff reading the owner's reset link could take the owner's account, which staff cannot
 * otherwise do. Everyone else finds no rows (an empty list, 404), as with any row a principal may not see.
 */
const readsOutbox = (principal: Principal) => principal.kind === 'user' && principal.role === 'owner';

/** The outbox: every message the school sent or holds, newest first. */
export function outboxService(deps: AreaDeps & { store: OutboxReadStore }) {
  const { db, store } = deps;
  return {
    async list(principal: Principal, query: OutboxListQuery) {
      if (!readsOutbox(principal)) return { data: [], has_more: false, next_cursor: null };
      let q = store.baseQuery(db);
      if (query.status) q = q.where('status', '=', query.status);
      if (query.kind) q = q.where('kind', '=', query.kind);
      if (query.to) q = q.where('to_address', '=', normalizeEmail(query.to));
      const page = await paginate(q, query, 'id', 'created_at');
      return { ...page, data: page.data.map(toSummary) };
    },

    async get(principal: Principal, id: string): Promise<OutboxMessage> {
      const row = readsOutbox(principal) ? await store.findById(db, id) : undefined;
      if (!row) throw errors.notFound('message');
      return { ...toSummary(row), text: row.text_body, html: row.html_body };
    },
  };
}

export type OutboxService = ReturnType<typeof outboxService>;
