import type { Executor } from '../../db/tables.ts';
import { type ListParams, paginate } from '../pagination.ts';

/**
 * Events that have started by `now` (not canceled), a page at a time in creation order, with their seat holders and
 * how many of them attended: for analytics (analytics/ports.ts EventFacts).
 */
export async function attendancePage(ex: Executor, now: string, params: ListParams) {
  const query = ex
    .selectFrom('events')
    .select(['events.id', 'events.title', 'events.starts_at', 'events.created_at'])
    .select((eb) => [
      eb
        .selectFrom('event_registrations as r')
        .select(eb.fn.countAll<number | string>().as('n'))
        .whereRef('r.event_id', '=', 'events.id')
        .where('r.status', '=', 'registered')
        .as('registered'),
      eb
        .selectFrom('event_registrations as r')
        .select(eb.fn.countAll<number | string>().as('n'))
        .whereRef('r.event_id', '=', 'events.id')
        .where('r.status', '=', 'registered')
        .where('r.attended', '=', 1)
        .as('attended'),
    ])
    .where('events.canceled_at', 'is', null)
    .where('events.starts_at', '<=', now);
  const page = await paginate(query, params, 'events.id', 'events.created_at');
  return {
    ...page,
    data: page.data.map((row) => ({
      id: row.id,
      title: row.title,
      starts_at: row.starts_at,
      registered: Number(row.registered ?? 0),
      attended: Number(row.attended ?? 0),
    })),
  };
}
