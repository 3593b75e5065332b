import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Forms on the school's pages and what visitors send through them. A form's fields are a JSON array (their order is
 * the page's order); a submission's values are a JSON object keyed by field name. A form leaves its page when the page
 * is deleted (page_id set null) but is kept with its submissions; a form with submissions cannot be deleted (the
 * foreign key refuses it as well as the service). Nothing of the sender's network address is stored.
 */
export const forms: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('forms')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('page_id', 'text', (c) => c.references('pages.id').onDelete('set null'))
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('fields', 'text', (c) => c.notNull())
      .addColumn('success_message', 'text', (c) => c.notNull())
      .addColumn('notify_emails', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('forms_page').on('forms').columns(['page_id', 'id']).execute();

    await db.schema
      .createTable('form_submissions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('form_id', 'text', (c) => c.notNull().references('forms.id'))
      .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('email', 'text')
      .addColumn('values', 'text', (c) => c.notNull())
      // The answers as people typed them, one per line: what q= searches (the JSON of values would match its own
      // keys and punctuation).
      .addColumn('search_text', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('form_submissions_form').on('form_submissions').columns(['form_id', 'id']).execute();
    await db.schema
      .createIndex('form_submissions_form_email')
      .on('form_submissions')
      .columns(['form_id', 'email'])
      .execute();
  },
};
