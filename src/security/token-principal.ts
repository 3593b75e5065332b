import type { Role } from './roles.ts';

/** What a validated access token says: whose it is, through which app, for which audience and scopes. */
export type TokenPrincipal = {
  userId: string;
  role: Role;
  name: string;
  email: string;
  emailVerified: boolean;
  clientId: string;
  grantId: string;
  audience: string;
  scopes: ReadonlySet<string>;
  /** Seconds since the epoch, as in the token's `exp` and `iat`. */
  expiresAt: number;
  issuedAt: number;
  /** The provider session the token was issued in, when there was one (introspection's `sid`). */
  sessionId?: string;
};

/**
 * Validates an access token: what it says, or undefined when it is unknown, expired or revoked. The authorization
 * server implements it (oauth/access-tokens.ts); the API guard, UserInfo and MCP call it.
 */
export type AccessTokenVerifier = (token: string) => Promise<TokenPrincipal | undefined>;
