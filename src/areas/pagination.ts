import type { SelectQueryBuilder } from 'kysely';
import { errors } from '../http/errors.ts';

export type ListParams = {
  limit?: number;
  starting_after?: string;
  sort?: 'created_at' | '-created_at';
  created_after?: string;
  created_before?: string;
};

export type ListPage<T> = { data: T[]; has_more: boolean; next_cursor: string | null };

/** A cursor is an id from a previous page; anything else is a 400 naming the parameter. */
export function checkCursor(cursor: string | undefined) {
  if (cursor !== undefined && !/^[a-z]{3}_[0-9a-z]{26}$/.test(cursor)) {
    throw errors.invalidRequest('starting_after must be an id from a previous page (next_cursor).', [
      { field: 'starting_after', code: 'format', message: 'Use the next_cursor of the previous page.' },
    ]);
  }
}

/**
 * Cursor pagination over time-ordered ids: the order is the id order (= creation order), and the cursor is the id
 * of the last item returned. A cursor whose item has since been deleted still works, because the comparison needs
 * only the id. `created_after` / `created_before` filter on `created_at`.
 */
export async function paginate<DB, TB extends keyof DB, Row extends { id: string }>(
  query: SelectQueryBuilder<DB, TB, Row>,
  params: ListParams,
  idColumn: string,
  createdColumn: string,
): Promise<ListPage<Row>> {
  const limit = params.limit ?? 20;
  const descending = (params.sort ?? '-created_at') === '-created_at';
  checkCursor(params.starting_after);
  // biome-ignore lint/suspicious/noExplicitAny: column names are checked by the caller's table; Kysely cannot type them dynamically.
  let q = query as SelectQueryBuilder<any, any, Row>;
  // Stored timestamps are UTC `toISOString()` text; a filter is brought to the same form before comparing.
  if (params.created_after) q = q.where(createdColumn, '>', new Date(params.created_after).toISOString());
  if (params.created_before) q = q.where(createdColumn, '<', new Date(params.created_before).toISOString());
  if (params.starting_after) q = q.where(idColumn, descending ? '<' : '>', params.starting_after);
  const rows = await q
    .orderBy(idColumn, descending ? 'desc' : 'asc')
    .limit(limit + 1)
    .execute();
  const has_more = rows.length > limit;
  const data = has_more ? rows.slice(0, limit) : rows;
  return { data, has_more, next_cursor: has_more ? (data.at(-1)?.id ?? null) : null };
}

/**
 * Cursor pagination ordered by `column` of `table` (then id, for ties) rather than by id: for lists read by time
 * ranges (orders by created_at, events by starts_at), where walking the id order through a range's newer rows costs
 * as many rows as lie after it. The cursor is still the last id returned; its row's `column` value is read in the
 * same statement, so a client sees the same opaque cursor whatever the order.
 */
export async function paginateBy<DB, TB extends keyof DB, Row extends { id: string }>(
  query: SelectQueryBuilder<DB, TB, Row>,
  params: Pick<ListParams, 'limit' | 'starting_after'>,
  order: { table: string; column: string; descending: boolean },
): Promise<ListPage<Row>> {
  const limit = params.limit ?? 20;
  const cursor = params.starting_after;
  checkCursor(cursor);
  const { table, column, descending } = order;
  const op = descending ? '<' : '>';
  // biome-ignore lint/suspicious/noExplicitAny: the table and column are the caller's; Kysely cannot type them dynamically.
  let q = query as SelectQueryBuilder<any, any, Row>;
  if (cursor !== undefined) {
    q = q.where((eb) => {
      const at = eb
        .selectFrom(`${table} as cursor_row`)
        .select(`cursor_row.${column}`)
        .where('cursor_row.id', '=', cursor);
      return eb.or([
        eb(`${table}.${column}`, op, at),
        eb.and([eb(`${table}.${column}`, '=', at), eb(`${table}.id`, op, cursor)]),
      ]);
    });
  }
  const direction = descending ? 'desc' : 'asc';
  const rows = await q
    .orderBy(`${table}.${column}`, direction)
    .orderBy(`${table}.id`, direction)
    .limit(limit + 1)
    .execute();
  const has_more = rows.length > limit;
  const data = has_more ? rows.slice(0, limit) : rows;
  return { data, has_more, next_cursor: has_more ? (data.at(-1)?.id ?? null) : null };
}
