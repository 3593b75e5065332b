import { preparedQuery } from '../db/prepared-query.ts';
import type { Db } from '../db/tables.ts';
import type { AccessTokenVerifier, TokenPrincipal } from '../security/token-principal.ts';
import { sha256 } from '../security/tokens.ts';
import type { Clock } from '../time/clock.ts';
import type { TokenCache } from './token-cache.ts';

/**
 * Validates an opaque access token against the authorization server's own store, in one query: the token row exists
 * and has not expired, its grant still exists (revoking an app or replaying a code deletes the grant), and its user is
 * active. Results are cached briefly (see token-cache.ts for the bounds).
 */
export function accessTokenVerifier(deps: { db: Db; clock: Clock; cache: TokenCache }): AccessTokenVerifier {
  const lookup = preparedQuery(deps.db, (p) =>
    deps.db
      .selectFrom('oauth_models as t')
      .innerJoin('oauth_models as g', (join) => join.onRef('g.id', '=', 't.grant_id').on('g.model', '=', 'Grant'))
      .innerJoin('users as u', 'u.id', 't.account_id')
      .select(['t.payload', 't.expires_at', 'u.id as user_id', 'u.role', 'u.name', 'u.email', 'u.email_verified'])
      .where('t.model', '=', 'AccessToken')
      .where('t.id', '=', p('id'))
      .where('t.expires_at', '>', p('now'))
      .where((eb) => eb.or([eb('g.expires_at', 'is', null), eb('g.expires_at', '>', p('now'))]))
      .where('u.status', '=', 'active'),
  );
  return async (token) => {
    if (token.length < 16 || token.length > 512) return undefined;
    const cached = deps.cache.get(token);
    if (cached) return cached;
    const now = deps.clock.now().toISOString();
    const [row] = (await lookup({ id: sha256(token), now })).rows;
    if (!row) return undefined;
    const payload = JSON.parse(row.payload) as {
      clientId: string;
      grantId: string;
      scope?: string;
      aud?: string | string[];
      exp: number;
      iat: number;
      sid?: string;
    };
    const audience = Array.isArray(payload.aud) ? payload.aud[0] : payload.aud;
    if (!audience) return undefined;
    const principal: TokenPrincipal = {
      userId: row.user_id,
      role: row.role,
      name: row.name,
      email: row.email,
      emailVerified: row.email_verified === 1,
      clientId: payload.clientId,
      grantId: payload.grantId,
      audience,
      scopes: new Set((payload.scope ?? '').split(' ').filter(Boolean)),
      expiresAt: payload.exp,
      issuedAt: payload.iat,
      ...(payload.sid ? { sessionId: payload.sid } : {}),
    };
    deps.cache.set(token, principal);
    return principal;
  };
}
