import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Who changed what, when and from where: one row per write operation of the API (and so of the admin, MCP and the
 * CLI, which call it), written in the write's own transaction (db/audited-dialect.ts). No foreign keys: a row outlives
 * the person, the app and the object it names, so the person's e-mail and the app's name are copied in. Rows are
 * never changed or removed — the database itself refuses UPDATE, DELETE (and on PostgreSQL TRUNCATE) of the table, so
 * not even the owner, nor a bug of ours, can rewrite the record.
 */
export const auditLog: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('audit_log')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('actor_id', 'text')
      .addColumn('actor_email', 'text')
      .addColumn('actor_role', 'text')
      .addColumn('client_id', 'text')
      .addColumn('client_name', 'text')
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('operation', 'text', (c) => c.notNull())
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('object_type', 'text')
      .addColumn('object_id', 'text')
      .addColumn('fields', 'text', (c) => c.notNull())
      .addColumn('ip', 'text')
      .addColumn('user_agent', 'text')
      .addColumn('request_id', 'text')
      .execute();
    for (const column of ['actor_id', 'operation', 'object_id', 'client_id', 'channel'] as const)
      await db.schema.createIndex(`audit_log_${column}`).on('audit_log').columns([column, 'id']).execute();

    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`create function audit_log_append_only() returns trigger language plpgsql as $$
        begin raise exception 'the audit log is append-only'; end $$`.execute(db);
      await sql`create trigger audit_log_no_change before update or delete on audit_log
        for each row execute function audit_log_append_only()`.execute(db);
      await sql`create trigger audit_log_no_truncate before truncate on audit_log
        for each statement execute function audit_log_append_only()`.execute(db);
    } else {
      await sql`create trigger audit_log_no_update before update on audit_log
        begin select raise(abort, 'the audit log is append-only'); end`.execute(db);
      await sql`create trigger audit_log_no_delete before delete on audit_log
        begin select raise(abort, 'the audit log is append-only'); end`.execute(db);
    }
  },
};
