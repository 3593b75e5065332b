import { timingSafeEqual } from 'node:crypto';
import type { AccessTokenVerifier } from '../security/token-principal.ts';
import { sha256 } from '../security/tokens.ts';

/** What the fast path needs of a registered client: how it authenticates, and its secret if it has one. */
type ClientAuth = { clientAuthMethod?: string | undefined; clientSecret?: string | undefined };

/** The form fields the fast path understands; anything else goes to the provider, which knows every rule. */
const FIELDS = new Set(['token', 'token_type_hint', 'client_id', 'client_secret']);

/**
 * Token introspection (RFC 7662) answered from the same validated-token cache as the API and UserInfo, with the same
 * bounds (see token-cache.ts): a revocation is seen at once on this instance and within TOKEN_CACHE_SECONDS elsewhere.
 * Only the plain case is answered here — an access token presented by a registered client that authenticates with
 * `none` or `client_secret_post` — and the answer is the provider's own, field for field. Everything else (refresh
 * tokens, unknown tokens, unknown or metadata-document clients, wrong secrets, duplicated or extra fields) returns
 * undefined and the provider answers, so its errors and edge rules stay the only ones. Clients are the provider's own
 * (`findClient` is `provider.Client.find`, whose records the adapter caches).
 */
export function introspectionFastPath(deps: {
  verify: AccessTokenVerifier;
  issuer: string;
  findClient: (clientId: string) => Promise<ClientAuth | undefined>;
}) {
  const authenticated = (client: ClientAuth, secret: string | undefined) => {
    if (client.clientAuthMethod === 'none') return secret === undefined;
    if (client.clientAuthMethod !== 'client_secret_post' || secret === undefined || !client.clientSecret) return false;
    // Hashes have one length, so the comparison is constant-time whatever was sent.
    return timingSafeEqual(Buffer.from(sha256(secret)), Buffer.from(sha256(client.clientSecret)));
  };

  return {
    async answer(form: Record<string, string | string[] | undefined>): Promise<object | undefined> {
      const fields: Record<string, string> = {};
      for (const [name, value] of Object.entries(form)) {
        if (!FIELDS.has(name) || typeof value !== 'string') return undefined;
        fields[name] = value;
      }
      const { token, client_id: clientId, token_type_hint: hint } = fields;
      if (!token || !clientId || (hint !== undefined && hint !== 'access_token')) return undefined;
      // A URL is a metadata-document client: resolving it may fetch the document, which is the provider's business.
      if (/^https?:/i.test(clientId)) return undefined;
      const client = await deps.findClient(clientId);
      if (!client || !authenticated(client, fields.client_secret)) return undefined;
      const principal = await deps.verify(token);
      if (!principal) return undefined;
      // features.introspection.allowedPolicy: a client sees only its own tokens.
      if (principal.clientId !== clientId) return { active: false };
      return {
        active: true,
        sub: principal.userId,
        client_id: principal.clientId,
        exp: principal.expiresAt,
        iat: principal.issuedAt,
        ...(principal.sessionId ? { sid: principal.sessionId } : {}),
        iss: deps.issuer,
        aud: principal.audience,
        ...(principal.scopes.size ? { scope: [...principal.scopes].join(' ') } : {}),
        token_type: 'Bearer',
      };
    },
  };
}

export type IntrospectionFastPath = ReturnType<typeof introspectionFastPath>;
