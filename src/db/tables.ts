import type { Kysely, Transaction } from 'kysely';

/** Timestamps are RFC 3339 UTC strings of fixed width (`Date#toISOString`), so text order is time order on both engines. */
export type Timestamp = string;
/** Booleans are stored as 0/1 integers on both engines. */
export type Flag = 0 | 1;

export type UsersTable = {
  id: string;
  email: string;
  name: string;
  role: 'owner' | 'staff' | 'student';
  status: 'active' | 'suspended';
  password_hash: string;
  locale: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type SessionsTable = {
  id: string;
  user_id: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
};

export type ServerSecretsTable = {
  name: string;
  value: string;
  created_at: Timestamp;
};

export type SetupTokensTable = {
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
};

export type SchoolTable = {
  id: string;
  name: string;
  description: string;
  default_currency: string;
  timezone: string;
  locale: string;
  support_email: string | null;
  terms_url: string | null;
  privacy_url: string | null;
  signup_enabled: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type OauthModelsTable = {
  model: string;
  id: string;
  payload: string;
  grant_id: string | null;
  uid: string | null;
  account_id: string | null;
  client_id: string | null;
  expires_at: Timestamp | null;
  consumed_at: Timestamp | null;
  created_at: Timestamp;
};

export type Tables = {
  oauth_models: OauthModelsTable;
  users: UsersTable;
  sessions: SessionsTable;
  server_secrets: ServerSecretsTable;
  setup_tokens: SetupTokensTable;
  school: SchoolTable;
};

export type Db = Kysely<Tables>;
/** A store function takes either the database or a transaction. */
export type Executor = Kysely<Tables> | Transaction<Tables>;
