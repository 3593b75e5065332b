import type { Config } from '../config.ts';
import { ACCEPTED_FORM, OAUTH_PATHS, resourceIdentifiers } from '../security/oauth-endpoints.ts';
import { SCOPES } from '../security/scopes.ts';

/**
 * Only the school's name: this page is public, and getSchool shows the support address to signed-in callers only (it
 * starts as the owner's sign-in address), so no address is printed here.
 */
export type AuthMarkdownSchool = { name: string | undefined };

/** The authentication walkthrough, written for this origin from the live configuration and the one scope table. */
export function authMarkdown(config: Config, school: AuthMarkdownSchool): string {
  const base = config.BASE_URL;
  const r = resourceIdentifiers(base);
  const url = (path: string) => `${base}${path}`;
  const mcpMetadata = url('/.well-known/oauth-protected-resource/mcp');
  // By default DOCS_URL is this page, which then has to say itself whom to ask.
  const docsIsThisPage = config.DOCS_URL === url('/auth.md');
  const askForIntegration = docsIsThisPage
    ? `ask the school for one (${url('/')})`
    : `ask for one at ${config.DOCS_URL}`;
  const scopeRows = Object.entries(SCOPES).map(
    ([scope, def]) =>
      `| \`${scope}\` | ${def.description} | ${(def.roles as readonly string[]).includes('student') ? 'everyone' : 'staff and owner'} |`,
  );
  return `# Authenticating with ${school.name ?? 'this Lyceum school'}

This school's API is protected by OAuth 2.1 / OpenID Connect. Any command-line tool, desktop app or local agent can
register itself and ask a person for access; no API key or sales contact is needed. API requests without a token are
served as anonymous (public data only) and are never challenged; on the MCP server, a tool that needs a scope
answers 401 so that MCP clients start this flow by themselves (see [MCP](#mcp)).

## Where to go next

| Document | URL |
|---|---|
| OpenAPI 3.0 description of the REST API (every operation with its \`operationId\` and scope) | ${url('/openapi.json')} |
| Index of this site for agents | ${url('/llms.txt')} |
| What the school sells, with prices | ${url('/pricing.md')} |
| MCP server (Streamable HTTP) | ${r.mcp} |
| Platform documentation and support (registered integrations) | ${config.DOCS_URL}${docsIsThisPage ? ' (this page)' : ''} |

## Endpoints

| Purpose | Method | URL |
|---|---|---|
| Authorization server metadata (RFC 8414), the source of truth | GET | ${url('/.well-known/oauth-authorization-server')} |
| OpenID Connect discovery | GET | ${url('/.well-known/openid-configuration')} |
| Protected resource metadata (RFC 9728), REST API | GET | ${url('/.well-known/oauth-protected-resource')} |
| Protected resource metadata, MCP server | GET | ${url('/.well-known/oauth-protected-resource/mcp')} |
| Client registration (RFC 7591) | POST JSON | ${url(OAUTH_PATHS.registration)} |
| Authorization | GET (browser) | ${url(OAUTH_PATHS.authorization)} |
| Token | POST form | ${url(OAUTH_PATHS.token)} |
| UserInfo | GET | ${url(OAUTH_PATHS.userinfo)} |
| Introspection (RFC 7662) | POST form | ${url(OAUTH_PATHS.introspection)} |
| Revocation (RFC 7009) | POST form | ${url(OAUTH_PATHS.revocation)} |
| ID token keys | GET | ${url(OAUTH_PATHS.jwks)} |

## The flow (authorization code with PKCE S256)

1. Register once. Redirect URIs must be loopback: ${ACCEPTED_FORM}${config.OAUTH_ALLOW_LOCALHOST_REDIRECTS ? ' (this school also admits http://localhost:<port>/<path>)' : ''}.
   Any other redirect URI is refused with \`invalid_redirect_uri\`: a fixed HTTPS callback (or another host or scheme)
   needs a registered integration; ${askForIntegration}.

   \`\`\`sh
   curl -s ${url(OAUTH_PATHS.registration)} -H 'content-type: application/json' -d '{
     "client_name": "My CLI", "application_type": "native",
     "redirect_uris": ["http://127.0.0.1:8765/callback"], "token_endpoint_auth_method": "none"
   }'
   \`\`\`

   Keep \`client_id\`. A confidential client (\`"token_endpoint_auth_method": "client_secret_post"\`) also gets
   \`client_secret\` (it does not expire) and sends it as the \`client_secret\` form field. Clients never used within a
   day of registering are removed.
2. Make a PKCE pair: a random \`code_verifier\` (43–128 characters) and \`code_challenge = BASE64URL(SHA256(code_verifier))\`.
3. Listen on any free port of the registered loopback address (RFC 8252 §7.3: the port may differ from the registered
   one) and open the user's browser at:

   \`\`\`
   ${url(OAUTH_PATHS.authorization)}?response_type=code&client_id=<client_id>&redirect_uri=http%3A%2F%2F127.0.0.1%3A<port>%2Fcallback&scope=openid%20profile%20courses%3Aread&code_challenge=<challenge>&code_challenge_method=S256&state=<random>
   \`\`\`

   The user signs in and sees a consent page naming your app as not verified by the school. Only the scopes the
   user's role may grant are granted; the token response's \`scope\` says what was.
4. The browser comes back to \`redirect_uri\` with \`code\`, \`state\` and \`iss\` (RFC 9207; check that \`iss\` is
   \`${base}\`), or with \`error\` (for example \`access_denied\`).
5. Exchange the code (single use, valid ${config.OAUTH_CODE_TTL_SECONDS} s):

   \`\`\`sh
   curl -s ${url(OAUTH_PATHS.token)} -d grant_type=authorization_code -d code=<code> \\
     -d redirect_uri=http://127.0.0.1:<port>/callback -d client_id=<client_id> -d code_verifier=<verifier>
   \`\`\`

   The answer has \`access_token\`, \`token_type\` (\`Bearer\`), \`expires_in\` (${config.OAUTH_ACCESS_TOKEN_TTL_SECONDS} s),
   \`refresh_token\` (${Math.round(config.OAUTH_REFRESH_TOKEN_TTL_SECONDS / 86400)} days), \`scope\`, and \`id_token\` when \`openid\` was granted.
6. Call the API with \`Authorization: Bearer <access_token>\` (the header only; tokens in the query or body are refused).
7. Renew with \`grant_type=refresh_token\`, \`refresh_token\`, \`client_id\` (optionally a narrower \`scope\`). Refresh
   tokens rotate: use the new one each time. Presenting a used refresh token revokes the whole grant.
8. Revoke with \`token\` and \`client_id\` at ${url(OAUTH_PATHS.revocation)}. Revoking a refresh token ends its
   access tokens too. Users can also disconnect apps at ${url('/account/apps')}.

## Resources (RFC 8707)

Tokens are opaque and bound to one audience. Send \`resource\` to choose it: \`${r.api}\` (the REST API, the default)
or \`${r.mcp}\` (the MCP server). Anything else is \`invalid_target\`. Introspection reports the binding in \`aud\`.

## MCP

The MCP server speaks Streamable HTTP at \`${r.mcp}\`.

- Anonymous callers (no token) can list the tools and call the catalog tools.
- \`tools/list\` shows a short default set: the catalog, the signed-in learner's essentials, and
  \`findOperations\`, \`describeOperation\` and \`callOperation\`, which find, describe and call every other API
  operation by its OpenAPI \`operationId\` (for example \`createLecturer\`), needing the same scope. A tool of any
  operation may also be called by that name directly.
- Calling a tool that needs a scope without a token answers HTTP 401 with
  \`WWW-Authenticate: Bearer scope="<scopes>", resource_metadata="${mcpMetadata}"\`, where the scopes are the
  tool's scope and, for a write, its area's read scope (\`courses:read courses:write\`), so that one consent also
  covers reading back what the agent writes. MCP clients follow it to this authorization server by themselves:
  protected resource metadata, then authorization server metadata, registration and the flow above.
- A token that lacks the tool's scope gets 403 \`insufficient_scope\` with \`error="insufficient_scope"\` and a
  \`scope\` naming the token's scopes plus the missing one: authorize again with the same client registration asking
  for them (step-up). A refresh cannot add a scope. When the
  person's role can never hold the scope (a student and a \`:write\` scope), the 403 carries no step-up challenge
  and its \`error_description\` lists what the role may grant.
- Rule failures (not found, conflicts, invalid arguments) are tool results with \`isError: true\` whose text is the
  \`{"error", "error_description"}\` object.
- Tokens requested with \`resource=${r.mcp}\` (or \`${r.api}\`) are accepted there.

## Scopes

| Scope | Grants | Who may grant it |
|---|---|---|
${scopeRows.join('\n')}

## Errors

Every error is \`{ "error": "<code>", "error_description": "<text>" }\` (RFC 6749 §5.2). \`invalid_request\`,
\`invalid_grant\`, \`invalid_scope\`, \`invalid_target\`, \`invalid_redirect_uri\` and \`invalid_client_metadata\` are 400;
\`invalid_client\` is 401. At the API, an invalid token is 401 \`invalid_token\` and a missing scope is 403
\`insufficient_scope\`, both with \`WWW-Authenticate: Bearer error="…", scope="…", resource_metadata="${url('/.well-known/oauth-protected-resource')}"\`.

Only the \`authorization_code\` and \`refresh_token\` grants exist. Any other \`grant_type\` (\`client_credentials\`,
\`password\`, token exchange, JWT bearer / ID-JAG) is 400 \`unsupported_grant_type\`. The agent_auth extension
(identity assertions, service_auth, anonymous claims) is not supported and has no claim step: consent is obtained
interactively at the authorization endpoint, ${url(OAUTH_PATHS.authorization)}.
`;
}
