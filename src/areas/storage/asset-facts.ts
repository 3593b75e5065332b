import type { Executor } from '../../db/tables.ts';

/** What other areas show of their uploaded files: the name, type and size each asset records. */
export function assetFacts() {
  return {
    describe: (ex: Executor, ids: string[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : ex
            .selectFrom('assets')
            .select(['id', 'filename', 'content_type', 'byte_size'])
            .where('id', 'in', ids)
            .execute(),
  };
}
