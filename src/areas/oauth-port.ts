import type { Executor } from '../db/tables.ts';

/**
 * What the areas need from the authorization server (oauth/), which is built above them: the composition root
 * (app.ts) passes oauth/'s own functions in, so no area imports oauth/ (see `.dependency-cruiser.cjs`).
 */
export type OAuthPort = {
  /** Deletes every token of a grant and the grant itself, inside the caller's transaction. */
  revokeGrant: (ex: Executor, grantId: string) => Promise<void>;
  /** Revokes every grant the person has given, with their tokens, inside the caller's transaction. */
  revokeGrantsOf: (ex: Executor, userId: string) => Promise<void>;
};

/** An app a person has granted access to, as the account area shows it. */
export type ConnectedApp = { client_id: string; client_name: string; scopes: string[]; granted_at: string };

/** The apps a person has connected (one entry per client) and their revocation: oauth/connected-apps.ts. */
export type ConnectedApps = {
  list(userId: string): Promise<ConnectedApp[]>;
  /** Whether the person had granted this client anything (false: nothing to revoke). */
  revoke(userId: string, clientId: string): Promise<boolean>;
};
