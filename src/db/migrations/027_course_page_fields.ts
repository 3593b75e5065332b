import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * What a course page tells a buyer beside the description: what they will learn, who the course is for and what they
 * need first (each a JSON list of short lines), and a trailer video shown in place of the cover. Empty until written.
 */
export const coursePageFields: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('courses')
      .addColumn('outcomes', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
    await db.schema
      .alterTable('courses')
      .addColumn('audience', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
    await db.schema
      .alterTable('courses')
      .addColumn('requirements', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
    await db.schema.alterTable('courses').addColumn('trailer_url', 'text').execute();
  },
};
