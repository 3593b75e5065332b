import Provider, { type Configuration, errors, interactionPolicy, type KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../config.ts';
import { newId } from '../db/ids.ts';
import type { Db } from '../db/tables.ts';
import { prefersHtml } from '../http/accept.ts';
import type { UsersStore } from '../identity/users-store.ts';
import { OAUTH_PATHS, resourceIdentifiers } from '../security/oauth-endpoints.ts';
import { isIpLiteral } from '../security/public-address.ts';
import { ALL_SCOPES, isScope } from '../security/scopes.ts';
import { html } from '../text/html.ts';
import type { Clock } from '../time/clock.ts';
import { layout } from '../web/shared/layout.ts';
import { kyselyAdapterFactory } from './adapter.ts';
import { publicOnlyFetch } from './outbound-fetch.ts';
import {
  assertHonestClientName,
  assertKnownScopes,
  assertLoopbackRedirects,
  cimdRedirectsAllowed,
  isHonestClientName,
} from './registration.ts';
import type { ShortLivedStore } from './short-lived-store.ts';
import { answerUnavailableWith503, isUnavailable } from './unavailable.ts';
import { explainUnsupportedGrants, SUPPORTED_GRANTS, unsupportedGrantDescription } from './unsupported-grants.ts';

const { Check, base: basePolicy } = interactionPolicy;

export const INTERACTION_TTL_SECONDS = 600;
const PROVIDER_SESSION_TTL_SECONDS = 3600;
export const SELF_REGISTERED_SCOPE = ALL_SCOPES.join(' ');

/**
 * Every authorization passes through the school's own sign-in check: the provider's session cookie alone never
 * counts, so signing out of the school (or signing in as someone else) is always honoured. Unknown scopes are refused
 * here too, with invalid_scope, rather than silently dropped.
 */
function interactionPolicyFor() {
  const policy = basePolicy();
  const login = policy.get('login');
  login?.checks.add(
    new Check('supported_scopes', 'every requested scope must be supported', (ctx: KoaContextWithOIDC) => {
      const requested = String(ctx.oidc.params?.scope ?? '')
        .split(' ')
        .filter(Boolean);
      if (requested.length === 0) throw new errors.InvalidRequest('missing required parameter: scope');
      const unknown = requested.filter((s) => !isScope(s));
      if (unknown.length)
        throw new errors.InvalidScope(`unsupported scope requested: ${unknown.join(' ')}`, unknown.join(' '));
      return Check.NO_NEED_TO_PROMPT;
    }),
    0,
  );
  login?.checks.add(
    new Check(
      'school_session',
      'the school sign-in confirms the user for every authorization',
      'login_required',
      (ctx: KoaContextWithOIDC) => (ctx.oidc.result?.login ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT),
    ),
  );
  policy
    .get('consent')
    ?.checks.add(
      new Check(
        'public_client',
        'public clients are asked every time (RFC 8252 §8.6)',
        'consent_required',
        (ctx: KoaContextWithOIDC) =>
          ctx.oidc.client?.clientAuthMethod === 'none' && !ctx.oidc.result?.consent
            ? Check.REQUEST_PROMPT
            : Check.NO_NEED_TO_PROMPT,
      ),
    );
  return policy;
}

export type ProviderDeps = {
  config: Config;
  db: Db;
  clock: Clock;
  users: UsersStore;
  signingKeys: NonNullable<Configuration['jwks']>['keys'];
  cookieKeys: string[];
  /** Called whenever a token or grant is deleted, so cached token validations are dropped. */
  onRevoke: () => void;
  /** Where interactions, sessions and codes are kept instead of SQL, if anywhere (short-lived-store.ts). */
  shortLived?: ShortLivedStore;
  /** Where the provider's internal failures are logged (they never reach the client beyond server_error). */
  logError: (error: unknown, context: string) => void;
  /** Where requests failed by an unreachable database or Redis are logged (a warning: they pass, and answer 503). */
  logUnavailable: (fields: Record<string, unknown>, context: string) => void;
};

export function createProvider(deps: ProviderDeps): Provider {
  const { config, db, users } = deps;
  const base = config.BASE_URL;
  const resources = resourceIdentifiers(base);
  const allowLocalhost = config.OAUTH_ALLOW_LOCALHOST_REDIRECTS;

  const configuration: Configuration = {
    adapter: kyselyAdapterFactory({
      db,
      clock: deps.clock,
      reuseGraceMs: config.OAUTH_REUSE_GRACE_SECONDS * 1000,
      onRevoke: deps.onRevoke,
      ...(deps.shortLived ? { shortLived: deps.shortLived } : {}),
    }),
    jwks: { keys: deps.signingKeys },
    // Every document the provider fetches (client_id metadata documents, a client's jwks_uri) comes from a public host.
    fetch: publicOnlyFetch(),
    cookies: {
      keys: deps.cookieKeys,
      names: { session: 'lyceum_oidc_session', interaction: 'lyceum_oidc_interaction', resume: 'lyceum_oidc_resume' },
    },
    routes: {
      authorization: OAUTH_PATHS.authorization,
      token: OAUTH_PATHS.token,
      registration: OAUTH_PATHS.registration,
      revocation: OAUTH_PATHS.revocation,
      introspection: OAUTH_PATHS.introspection,
      jwks: OAUTH_PATHS.jwks,
    },
    responseTypes: ['code'],
    clientAuthMethods: ['none', 'client_secret_post'],
    clientDefaults: {
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      grant_types: [...SUPPORTED_GRANTS],
      response_types: ['code'],
      id_token_signed_response_alg: 'RS256',
    },
    scopes: ALL_SCOPES,
    claims: { openid: ['sub'], profile: ['name'], email: ['email', 'email_verified'] },
    pkce: { required: () => true },
    allowOmittingSingleRegisteredRedirectUri: false,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    expiresWithSession: async () => false,
    ttl: {
      AuthorizationCode: config.OAUTH_CODE_TTL_SECONDS,
      AccessToken: config.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
      RefreshToken: config.OAUTH_REFRESH_TOKEN_TTL_SECONDS,
      // A grant outlives any one refresh token: it ends a year after consent (or with the refresh TTL if longer).
      Grant: Math.max(config.OAUTH_REFRESH_TOKEN_TTL_SECONDS, 365 * 86400),
      IdToken: 3600,
      Interaction: INTERACTION_TTL_SECONDS,
      // The provider's own browser session carries nothing from one authorization to the next (every authorization
      // takes its login from the school's session, see interactionPolicyFor), so it need not outlive an hour; a long
      // TTL only kept one record per browser in the short-lived store for weeks (bench:soak).
      Session: PROVIDER_SESSION_TTL_SECONDS,
    },
    discovery: {
      userinfo_endpoint: `${base}${OAUTH_PATHS.userinfo}`,
      service_documentation: `${base}/auth.md`,
      revocation_endpoint_auth_methods_supported: ['none', 'client_secret_post'],
      introspection_endpoint_auth_methods_supported: ['none', 'client_secret_post'],
    },
    extraClientMetadata: {
      properties: ['lyceum_registration_policy'],
      validator(ctx, key, _value, metadata) {
        if (key !== 'lyceum_registration_policy') return;
        delete metadata.lyceum_registration_policy;
        // Every client here registered itself (dynamically or by a metadata document). Its requested scope is
        // replaced by every scope the interface defines (RFC 7591 §3.2.1), stored clients included: consent and the
        // person's role decide what a grant holds (interactions/routes.ts), and pinning the client to its first
        // request made a later step-up to another area end in invalid_scope before the person was even asked.
        if (ctx) assertKnownScopes(metadata.scope);
        metadata.scope = SELF_REGISTERED_SCOPE;
        // No ctx: a stored client being rebuilt, or a metadata-document client (checked by allowClient).
        if (!ctx) return;
        if (metadata.application_type !== 'native') {
          throw new errors.InvalidClientMetadata('application_type must be native for self-service registration');
        }
        assertLoopbackRedirects(metadata.redirect_uris, { allowLocalhost, docsUrl: config.DOCS_URL });
        assertHonestClientName(metadata.client_name);
        if (metadata.token_endpoint_auth_method === 'none') {
          delete metadata.client_secret;
          delete metadata.client_secret_expires_at;
        }
      },
    },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      dPoP: { enabled: false },
      userinfo: { enabled: false },
      registration: {
        enabled: true,
        initialAccessToken: false,
        issueRegistrationAccessToken: false,
        idFactory: () => newId('cli'),
      },
      // A client may revoke only its own tokens; another client's token is silently left alone (RFC 7009 §2.1).
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      introspection: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (_ctx, _client, oneOf) =>
          oneOf ? (oneOf.includes(resources.api) ? resources.api : oneOf[0]) : resources.api,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, indicator) => {
          if (indicator !== resources.api && indicator !== resources.mcp) {
            throw new errors.InvalidTarget(`unknown resource; use ${resources.api} or ${resources.mcp}`);
          }
          return {
            scope: ALL_SCOPES.join(' '),
            audience: indicator,
            accessTokenTTL: config.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
            accessTokenFormat: 'opaque',
          };
        },
      },
      clientIdMetadataDocument: {
        enabled: true,
        ack: 'draft-02',
        // An address in a client_id says nothing about who the client is, and is how a stranger would point the
        // server at a port of its own network; names are resolved and checked by publicOnlyFetch as it connects.
        allowFetch: async (_ctx, clientId) => {
          if (isIpLiteral(new URL(clientId).hostname)) {
            throw new errors.InvalidClient(
              'a client_id metadata document URL must name its host by a public DNS name, not an IP address',
            );
          }
          return true;
        },
        allowClient: async (_ctx, client) =>
          cimdRedirectsAllowed(client.clientId, client.redirectUris ?? [], allowLocalhost) &&
          isHonestClientName(client.clientName),
      },
    },
    interactions: {
      url: async (_ctx, interaction) => `${OAUTH_PATHS.interaction}/${interaction.uid}`,
      policy: interactionPolicyFor(),
    },
    async findAccount(_ctx, sub) {
      const user = await users.findById(db, sub);
      if (user?.status !== 'active') return undefined;
      return {
        accountId: user.id,
        async claims(_use, scope) {
          const granted = new Set(scope.split(' '));
          return {
            sub: user.id,
            ...(granted.has('profile') ? { name: user.name } : {}),
            ...(granted.has('email') ? { email: user.email, email_verified: user.email_verified === 1 } : {}),
          };
        },
      };
    },
    async renderError(ctx, out) {
      // A program asking (no Accept for HTML) gets the error shape every other endpoint answers with.
      if (!prefersHtml(ctx.get('accept'))) {
        ctx.type = 'json';
        ctx.body = { error: out.error, error_description: out.error_description ?? '' };
        return;
      }
      ctx.type = 'html';
      ctx.body = layout(
        { schoolName: undefined, viewer: undefined },
        'The app sent an invalid request',
        html`<p role="alert"><strong>${out.error}</strong>: ${out.error_description ?? ''}</p>
<p>This page is shown instead of returning to the app because the app could not be identified safely. Tell the app's author.</p>`,
      );
    },
  };

  const provider = new Provider(base, configuration);
  provider.proxy = config.TRUST_PROXY !== false;
  provider.use(
    explainUnsupportedGrants({
      tokenPath: OAUTH_PATHS.token,
      description: unsupportedGrantDescription(`${base}${OAUTH_PATHS.authorization}`, `${base}/auth.md`),
    }),
  );
  answerUnavailableWith503(provider, deps.logUnavailable);
  provider.on('server_error', (_ctx, error) => {
    if (!isUnavailable(error)) deps.logError(error, 'oauth server_error');
  });

  return provider;
}
