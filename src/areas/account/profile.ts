import type { Account } from './schema.ts';
import type { AccountStore } from './store.ts';

type AccountRow = NonNullable<Awaited<ReturnType<AccountStore['findById']>>>;

/** The account as the API shows it: the stored row, and the address waiting for confirmation. */
export const toAccount = (row: AccountRow, pendingEmail?: string): Account => ({
  id: row.id,
  name: row.name,
  email: row.email,
  email_verified: row.email_verified === 1,
  pending_email: pendingEmail ?? null,
  locale: row.locale,
  role: row.role,
  created_at: row.created_at,
  updated_at: row.updated_at,
});
