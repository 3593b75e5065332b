import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * What staff see and decide about the front door: apps (OAuth clients) they blocked — a blocked client is not found
 * by the authorization server, so it can neither authorize nor get tokens — and the school's sign-in attempts, kept
 * 90 days (housekeeping prunes them).
 */
export const security: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('blocked_clients')
      .addColumn('client_id', 'text', (c) => c.primaryKey())
      .addColumn('blocked_at', 'text', (c) => c.notNull())
      .addColumn('blocked_by', 'text')
      .execute();
    await db.schema
      .createTable('sign_in_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text')
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('ip', 'text')
      .addColumn('user_agent', 'text')
      .execute();
    await db.schema.createIndex('sign_in_events_user').on('sign_in_events').columns(['user_id', 'id']).execute();
    await db.schema.createIndex('sign_in_events_at').on('sign_in_events').columns(['at']).execute();
  },
};
