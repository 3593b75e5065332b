/** True when a driver error is a unique-constraint violation (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; errcode?: number; message?: string } | undefined;
  return (
    e?.code === '23505' ||
    e?.errcode === 2067 ||
    e?.errcode === 1555 ||
    /UNIQUE constraint failed/.test(e?.message ?? '')
  );
}
