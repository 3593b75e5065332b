import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The school's built-in theme and its home page's settings (the hero's words and button, which parts show in which
 * order, the featured courses): a JSON object whose missing keys read as their defaults.
 */
export const homeAndTheme: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('appearance')
      .addColumn('theme', 'text', (c) => c.notNull().defaultTo('classic'))
      .execute();
    await db.schema
      .alterTable('appearance')
      .addColumn('home', 'text', (c) => c.notNull().defaultTo('{}'))
      .execute();
  },
};
