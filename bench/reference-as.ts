/**
 * The reference authorization server of bench:oauth: oidc-provider with its default in-memory adapter, one public
 * native client with a loopback redirect URI, PKCE, opaque access tokens for one resource indicator, and sign-in and
 * consent done without pages: the interaction handler at once signs in a fixed account and grants what was asked.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Provider, { type Configuration } from 'oidc-provider';

export const REFERENCE = {
  clientId: 'bench-native',
  redirectUri: 'http://127.0.0.1:49152/callback',
  resource: 'urn:lyceum-bench:api',
  account: 'bench-account',
};
const configuration: Configuration = {
  clients: [
    {
      client_id: REFERENCE.clientId,
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      redirect_uris: [REFERENCE.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    },
  ],
  cookies: { keys: ['reference-as bench cookie key'] },
  scopes: ['openid', 'offline_access', 'profile', 'email', 'courses:read'],
  claims: { openid: ['sub'], profile: ['name'], email: ['email', 'email_verified'] },
  pkce: { required: () => true },
  features: {
    devInteractions: { enabled: false },
    introspection: {
      enabled: true,
      allowedPolicy: async (ctx, _client, token) => token.clientId === ctx.oidc.client?.clientId,
    },
    revocation: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: async () => REFERENCE.resource,
      useGrantedResource: async () => true,
      getResourceServerInfo: async () => ({
        scope: 'courses:read',
        audience: REFERENCE.resource,
        accessTokenFormat: 'opaque',
      }),
    },
  },
  async findAccount(_ctx, sub) {
    return {
      accountId: sub,
      claims: async () => ({ sub, name: 'Bench Account', email: 'bench@reference.test', email_verified: false }),
    };
  },
};

/** Automatic sign-in and consent: the fixed account, and a Grant of every scope asked for, on the resource. */
async function interaction(provider: Provider, req: IncomingMessage, res: ServerResponse) {
  const { params, session } = await provider.interactionDetails(req, res);
  const accountId = session?.accountId ?? REFERENCE.account;
  const grant = new provider.Grant({ accountId, clientId: String(params.client_id) });
  grant.addOIDCScope(String(params.scope));
  grant.addResourceScope(REFERENCE.resource, String(params.scope));
  const grantId = await grant.save();
  await provider.interactionFinished(
    req,
    res,
    { login: { accountId }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
}

if (import.meta.main) {
  const port = Number(process.env.PORT ?? 0);
  const provider = new Provider(`http://127.0.0.1:${port}`, configuration);
  const handle = provider.callback();
  createServer((req, res) => {
    if (!req.url?.startsWith('/interaction/')) return handle(req, res);
    interaction(provider, req, res).catch((error: Error) => {
      res.statusCode = 500;
      res.end(error.message);
    });
  }).listen(port, '127.0.0.1');
}
