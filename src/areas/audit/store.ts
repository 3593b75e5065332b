import type { Executor } from '../../db/tables.ts';

/** Reading the audit log (db/audited-dialect.ts writes it; nothing ever changes it). */
export function auditStore() {
  return {
    baseQuery: (ex: Executor) => ex.selectFrom('audit_log').selectAll(),
    findById: (ex: Executor, id: string) =>
      ex.selectFrom('audit_log').selectAll().where('id', '=', id).executeTakeFirst(),
  };
}

export type AuditStore = ReturnType<typeof auditStore>;
