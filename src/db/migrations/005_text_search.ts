import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { createSearchIndex, SEARCHED, type Searched } from '../text-search.ts';

/** Trigram search indexes for every `q=` filter (see db/text-search.ts). */
export const textSearch: Migration = {
  async up(db: Kysely<unknown>) {
    for (const table of Object.keys(SEARCHED) as Searched[]) await createSearchIndex(db, table);
  },
};
