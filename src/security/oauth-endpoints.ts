/**
 * The authorization server's public face, which the documents that describe it (discovery/), the MCP endpoint and
 * the server itself (oauth/) must all tell alike: where its endpoints are, which resources a token may be bound to,
 * and which redirect URIs self-service registration accepts. It lives on this floor so that none of them imports
 * another surface for it.
 */

/** The paths of the authorization server's endpoints, at this origin. */
export const OAUTH_PATHS = {
  authorization: '/oauth/authorize',
  token: '/api/oauth/token',
  registration: '/api/oauth/register',
  revocation: '/api/oauth/revoke',
  introspection: '/api/oauth/introspect',
  jwks: '/api/oauth/jwks',
  userinfo: '/api/oauth/userinfo',
  interaction: '/oauth/interaction',
} as const;

/** The two resource identifiers (RFC 8707) tokens may be bound to. */
export function resourceIdentifiers(baseUrl: string) {
  return { api: baseUrl, mcp: `${baseUrl}/mcp` } as const;
}

/** The redirect URIs self-service registration accepts (RFC 8252 §7.3), as the error messages and auth.md say it. */
export const ACCEPTED_FORM = 'http://127.0.0.1:<port>/<path> or http://[::1]:<port>/<path>';
