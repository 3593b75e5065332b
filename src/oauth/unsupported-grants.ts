import type { KoaContextWithOIDC } from 'oidc-provider';

/** The only grants this server issues tokens for; everything else starts with a person's consent in a browser. */
export const SUPPORTED_GRANTS = ['authorization_code', 'refresh_token'] as const;

export function unsupportedGrantDescription(authorizationEndpoint: string, walkthrough: string): string {
  return `Only the authorization_code and refresh_token grants are supported; there is no client_credentials, password, token-exchange or JWT-bearer (ID-JAG) grant and no separate claim step. Consent is obtained interactively at the authorization endpoint, ${authorizationEndpoint} (authorization code with PKCE S256; see ${walkthrough}).`;
}

/**
 * Provider middleware: a token request for any other grant is answered 400 `unsupported_grant_type` with a description
 * that says what to do instead. oidc-provider authenticates the client before it looks at the grant, so an agent
 * trying an assertion grant without a client registered here would be told `invalid_client` or "no client
 * authentication"; the grant is the real reason, so it is the answer whatever the client check said.
 */
export function explainUnsupportedGrants(opts: { tokenPath: string; description: string }) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<unknown>) => {
    await next();
    if (ctx.method !== 'POST' || ctx.path !== opts.tokenPath || ctx.status < 400) return;
    const grantType = ctx.oidc?.params?.grant_type;
    if (typeof grantType !== 'string' || grantType === '') return;
    if ((SUPPORTED_GRANTS as readonly string[]).includes(grantType)) return;
    ctx.status = 400;
    ctx.remove('www-authenticate');
    ctx.body = { error: 'unsupported_grant_type', error_description: opts.description };
  };
}
