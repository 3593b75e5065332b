import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { createSearchIndex } from '../text-search.ts';

/**
 * Trigram search indexes for the `q=` filters of the time (see db/text-search.ts). The tables are named here, not
 * read from `SEARCHED`: a table searched later gets its index from a migration of its own.
 */
export const textSearch: Migration = {
  async up(db: Kysely<unknown>) {
    for (const table of ['courses', 'posts', 'pages', 'lecturers'] as const) await createSearchIndex(db, table);
  },
};
