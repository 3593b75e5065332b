import { CliFailure, EXIT } from './exit-codes.ts';

/** RFC 8414 metadata, the fields the CLI uses. */
export type ServerMetadata = {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  registration_endpoint: string;
  revocation_endpoint?: string;
  userinfo_endpoint?: string;
  scopes_supported?: string[];
  code_challenge_methods_supported?: string[];
  authorization_response_iss_parameter_supported?: boolean;
};

export type TokenResponse = {
  access_token: string;
  refresh_token?: string;
  expires_in?: number;
  scope?: string;
  token_type: string;
};

/** fetch, with "cannot reach" as the CLI's own failure instead of a TypeError. */
export async function reach(url: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: init.redirect ?? 'manual' });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new CliFailure(
      EXIT.unavailable,
      `Cannot reach ${new URL(url).origin}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
    );
  }
}

/** An OAuth error answer (RFC 6749 §5.2) as a failure, its error_description shown. */
export class OAuthError extends CliFailure {
  readonly error: string;
  constructor(status: number, body: { error?: string; error_description?: string }) {
    const code = status >= 500 ? EXIT.unavailable : EXIT.auth;
    super(
      code,
      body.error_description ? `${body.error_description} (${body.error})` : `${body.error ?? `HTTP ${status}`}`,
    );
    this.error = body.error ?? '';
  }
}

async function json<T>(response: Response): Promise<T> {
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    throw new CliFailure(
      EXIT.unavailable,
      `${response.url} answered ${response.status} with something other than JSON.`,
    );
  }
  if (!response.ok) throw new OAuthError(response.status, body as { error?: string });
  return body as T;
}

const form = (fields: Record<string, string | undefined>) => {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) body.set(k, v);
  return { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body };
};

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * The endpoints the CLI sends codes, tokens and its registration to must be https: (http: only on a loopback host, or
 * when the school's base URL is itself http:, as in development), so metadata cannot send them over plain HTTP.
 */
export function checkEndpoints(baseUrl: string, metadata: ServerMetadata) {
  const plainAllowed = new URL(baseUrl).protocol === 'http:';
  const named = {
    authorization_endpoint: metadata.authorization_endpoint,
    token_endpoint: metadata.token_endpoint,
    registration_endpoint: metadata.registration_endpoint,
    revocation_endpoint: metadata.revocation_endpoint,
    userinfo_endpoint: metadata.userinfo_endpoint,
  };
  for (const [field, value] of Object.entries(named)) {
    if (value === undefined && (field === 'revocation_endpoint' || field === 'userinfo_endpoint')) continue;
    let url: URL | undefined;
    try {
      url = new URL(String(value));
    } catch {
      url = undefined;
    }
    const fine =
      url?.protocol === 'https:' || (url?.protocol === 'http:' && (plainAllowed || LOOPBACK.has(url.hostname)));
    if (!fine)
      throw new CliFailure(
        EXIT.auth,
        `The authorization server of ${baseUrl} names ${field} ${JSON.stringify(value ?? null)}, which is not an https: address; refusing to sign in there.`,
      );
  }
}

/**
 * Finds the school's authorization server (RFC 8414) and checks it speaks for this base URL, does PKCE S256 and names
 * endpoints the CLI may send secrets to.
 */
export async function discover(baseUrl: string): Promise<ServerMetadata> {
  const response = await reach(`${baseUrl}/.well-known/oauth-authorization-server`);
  if (response.status === 404)
    throw new CliFailure(EXIT.apiError, `${baseUrl} is not a Lyceum school (no authorization server metadata).`);
  const metadata = await json<ServerMetadata>(response);
  if (metadata.issuer !== baseUrl)
    throw new CliFailure(
      EXIT.auth,
      `The authorization server of ${baseUrl} names another issuer (${metadata.issuer}); refusing to sign in there.`,
    );
  if (!metadata.code_challenge_methods_supported?.includes('S256'))
    throw new CliFailure(EXIT.auth, `The authorization server of ${baseUrl} does not support PKCE S256.`);
  checkEndpoints(baseUrl, metadata);
  return metadata;
}

/** Registers the CLI as a public native client with a loopback redirect (RFC 7591, RFC 8252). */
export async function register(metadata: ServerMetadata, redirectUri: string): Promise<string> {
  const response = await reach(metadata.registration_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Lyceum CLI',
      application_type: 'native',
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    }),
  });
  return (await json<{ client_id: string }>(response)).client_id;
}

export async function exchangeCode(
  metadata: ServerMetadata,
  fields: { code: string; redirect_uri: string; client_id: string; code_verifier: string; resource: string },
): Promise<TokenResponse> {
  return json(await reach(metadata.token_endpoint, form({ grant_type: 'authorization_code', ...fields })));
}

export async function refresh(
  tokenEndpoint: string,
  fields: { refresh_token: string; client_id: string; resource: string },
): Promise<TokenResponse> {
  return json(await reach(tokenEndpoint, form({ grant_type: 'refresh_token', ...fields })));
}

/** RFC 7009: the server answers 200 for a token it does not know too. */
export async function revoke(endpoint: string, fields: { token: string; token_type_hint: string; client_id: string }) {
  await json(await reach(endpoint, form(fields)));
}

export async function userinfo(endpoint: string, accessToken: string) {
  return json<{ sub: string; email?: string; name?: string }>(
    await reach(endpoint, { headers: { authorization: `Bearer ${accessToken}` } }),
  );
}
