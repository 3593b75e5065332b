import type { Role } from '../security/roles.ts';
import { roleMayGrant, type Scope } from '../security/scopes.ts';
import type { TokenPrincipal } from '../security/token-principal.ts';

/** Who is calling: nobody (no Authorization header), or a user through an app's token. */
export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'user'; userId: string; role: Role; clientId: string; scopes: ReadonlySet<Scope> };

export const ANONYMOUS: Principal = { kind: 'anonymous' };

/** A token's power is its granted scopes intersected with what the user's role allows. */
export function effectiveScopes(role: Role, granted: Iterable<string>): Set<Scope> {
  const scopes = new Set<Scope>();
  for (const scope of granted) if (roleMayGrant(role, scope)) scopes.add(scope as Scope);
  return scopes;
}

/** The principal of a verified access token: its user, through its app, with its scopes ∩ the user's role. */
export function tokenPrincipal(token: Pick<TokenPrincipal, 'userId' | 'role' | 'clientId' | 'scopes'>): Principal {
  return {
    kind: 'user',
    userId: token.userId,
    role: token.role,
    clientId: token.clientId,
    scopes: effectiveScopes(token.role, token.scopes),
  };
}

/** The one access rule of an operation: anonymous callers where it serves them, otherwise a token holding its scope. */
export const mayCall = (principal: Principal, operation: { scope: Scope; anonymous?: boolean }): boolean =>
  principal.kind === 'anonymous' ? operation.anonymous === true : principal.scopes.has(operation.scope);

export const isStaff = (p: Principal): boolean => p.kind === 'user' && (p.role === 'owner' || p.role === 'staff');

export const userIdOf = (p: Principal) => (p.kind === 'user' ? p.userId : undefined);
