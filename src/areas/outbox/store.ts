import type { Executor } from '../../db/tables.ts';

const SUMMARY_COLUMNS = [
  'id',
  'to_address',
  'subject',
  'kind',
  'status',
  'attempts',
  'last_error',
  'sent_at',
  'created_at',
  'updated_at',
] as const;

/** Reading the outbox (mail/outbox.ts writes it). */
export function outboxReadStore() {
  return {
    baseQuery: (ex: Executor) => ex.selectFrom('outbox').select(SUMMARY_COLUMNS),
    findById: (ex: Executor, id: string) => ex.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirst(),
  };
}

export type OutboxReadStore = ReturnType<typeof outboxReadStore>;
