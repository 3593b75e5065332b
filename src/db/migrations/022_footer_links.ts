import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The footer's links, chosen by the owner beside the menu: a JSON list of { label, url }, empty while the school
 * keeps the default footer (its published pages, and its plans and products when it sells any).
 */
export const footerLinks: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('appearance')
      .addColumn('footer', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
  },
};
