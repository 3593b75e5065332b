import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The audit log stays append-only but for one change: when a person deletes their account, the e-mail copied into
 * their entries becomes the account's anonymous address (`deleted-<id>@anonymous.invalid`, derived from the entry's
 * own actor id). Nothing else of a row may change, and no row may go: what was done, when and from where stays.
 */
export const auditPseudonyms: Migration = {
  async up(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`create function audit_log_pseudonymise_only() returns trigger language plpgsql as $$
        begin
          -- A NULL condition is not true: an entry without an actor, or a NULL address, is refused.
          if new.actor_email = 'deleted-' || lower(old.actor_id) || '@anonymous.invalid'
            and (to_jsonb(new) - 'actor_email') = (to_jsonb(old) - 'actor_email') then
            return new;
          end if;
          raise exception 'the audit log is append-only';
        end $$`.execute(db);
      await sql`drop trigger audit_log_no_change on audit_log`.execute(db);
      await sql`create trigger audit_log_no_delete before delete on audit_log
        for each row execute function audit_log_append_only()`.execute(db);
      await sql`create trigger audit_log_no_update before update on audit_log
        for each row execute function audit_log_pseudonymise_only()`.execute(db);
    } else {
      // SQLite's trigger names the columns: one added to the table later is added here too.
      const unchanged = [
        'id',
        'at',
        'actor_id',
        'actor_role',
        'client_id',
        'client_name',
        'channel',
        'operation',
        'method',
        'path',
        'object_type',
        'object_id',
        'fields',
        'ip',
        'user_agent',
        'request_id',
      ].map((column) => `new.${column} is old.${column}`);
      // Every term is 0 or 1, never NULL (`is` compares NULLs too): a NULL WHEN would let the change through.
      await sql`drop trigger audit_log_no_update`.execute(db);
      await sql`create trigger audit_log_no_update before update on audit_log
        when not (old.actor_id is not null
          and new.actor_email is 'deleted-' || lower(old.actor_id) || '@anonymous.invalid'
          and ${sql.raw(unchanged.join(' and '))})
        begin select raise(abort, 'the audit log is append-only'); end`.execute(db);
    }
  },
};
