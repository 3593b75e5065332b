import type { Executor, OutboxTable } from '../db/tables.ts';

/** The outbox table as delivery writes it. */
export function outboxStore() {
  return {
    insert: async (ex: Executor, row: OutboxTable) => {
      await ex.insertInto('outbox').values(row).execute();
    },

    find: (ex: Executor, id: string) => ex.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirst(),

    remove: async (ex: Executor, id: string) => {
      await ex.deleteFrom('outbox').where('id', '=', id).execute();
    },

    /** Deletes every message to these addresses, whatever its state (a queued one's delivery then finds it gone). */
    eraseTo: async (ex: Executor, addresses: string[]) => {
      if (addresses.length) await ex.deleteFrom('outbox').where('to_address', 'in', addresses).execute();
    },

    update: async (ex: Executor, id: string, changes: Partial<Omit<OutboxTable, 'id'>>) => {
      await ex.updateTable('outbox').set(changes).where('id', '=', id).execute();
    },
  };
}

export type OutboxStore = ReturnType<typeof outboxStore>;
