import type { Role } from '../identity/schema.ts';

/** What a validated access token says: whose it is, through which app, for which audience and scopes. */
export type TokenPrincipal = {
  userId: string;
  role: Role;
  name: string;
  email: string;
  clientId: string;
  grantId: string;
  audience: string;
  scopes: ReadonlySet<string>;
  expiresAt: number;
};
