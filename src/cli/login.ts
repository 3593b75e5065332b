import { createHash, randomBytes } from 'node:crypto';
import { storeForLogin, storeOf } from './credentials.ts';
import { CliFailure, EXIT } from './exit-codes.ts';
import { type Io, say } from './io.ts';
import { loopbackRedirect } from './loopback.ts';
import { discover, exchangeCode, reach, register, revoke, type ServerMetadata, userinfo } from './oauth-client.ts';
import { commandCache } from './openapi-cache.ts';
import { defaultProfileName, normalizeBaseUrl, type Profile, profileStore } from './profiles.ts';
import { tokensOf } from './session.ts';

/** Who you are: asked for on every login. */
const IDENTITY = ['openid', 'profile', 'email'];

/** A write scope comes with its area's read scope, so what is written can be read back (as the MCP sign-in asks). */
const withReads = (scopes: string[], supported: string[]) =>
  scopes.flatMap((s) => {
    const read = s.replace(/:write$/, ':read');
    return read !== s && supported.includes(read) ? [read, s] : [s];
  });

const splitScopes = (values: string[]) => values.flatMap((v) => v.split(/[\s,]+/)).filter(Boolean);

function withTimeout<T>(promise: Promise<T>, seconds: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new CliFailure(EXIT.auth, `No answer from the browser within ${seconds} seconds; not signed in.`)),
      seconds * 1000,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Sees whether the school still knows a client registered earlier (it removes clients unused for a day). */
async function clientKnown(metadata: ServerMetadata, clientId: string, redirectUri: string) {
  const url = new URL(metadata.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid',
  }).toString();
  const response = await reach(url.toString());
  await response.body?.cancel();
  return response.status < 400;
}

/**
 * `lyceum login <base_url>`: discovery (RFC 8414), registration (RFC 7591, a loopback redirect on an ephemeral port),
 * the browser, the redirect checked for state and iss (RFC 9207), the code exchanged with PKCE S256 and resource
 * (RFC 8707). Asks for every scope of the school (the role decides), or with --scope only those and the ones granted before.
 */
export async function login(
  io: Io,
  options: { baseUrl: string; profile?: string; scopes: string[]; browser: boolean },
): Promise<void> {
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  const profiles = profileStore(io.env);
  const name = options.profile ?? io.env.LYCEUM_PROFILE ?? defaultProfileName(baseUrl);
  const previous = profiles.read().profiles[name];
  const earlier = previous?.base_url === baseUrl ? previous : undefined;

  const metadata = await discover(baseUrl);
  const supported = metadata.scopes_supported ?? [];
  const asked = splitScopes(options.scopes).filter((s) => s !== 'all');
  // Without --scope, every scope the school has: its consent and the person's role decide what is granted, so the
  // grant is exactly what the role may hold, reading and writing, and the first write needs no second consent.
  const everything = !asked.length;
  const wanted = everything
    ? [...new Set([...IDENTITY, ...supported])]
    : [...new Set([...IDENTITY, ...splitScopes([earlier?.scope ?? '']), ...withReads(asked, supported)])];
  const unknown = wanted.filter((s) => supported.length && !supported.includes(s));
  if (unknown.length) throw new CliFailure(EXIT.usage, `${baseUrl} has no scope ${unknown.join(', ')}.`);

  // Decided before the browser step, so a missing keyring is known (and said) before anyone signs in.
  const store = await storeForLogin(io.env, (line) => say(io.stderr, line));
  const loopback = await loopbackRedirect();
  try {
    let clientId = earlier?.client_id;
    if (!clientId || !(await clientKnown(metadata, clientId, loopback.redirectUri)))
      clientId = await register(metadata, loopback.redirectUri);
    const verifier = randomBytes(32).toString('base64url');
    const state = randomBytes(16).toString('base64url');
    const url = new URL(metadata.authorization_endpoint);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: loopback.redirectUri,
      scope: wanted.join(' '),
      state,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      resource: baseUrl,
    }).toString();

    if (options.browser) {
      say(io.stderr, `Opening your browser to sign in to ${baseUrl}…`);
      say(io.stderr, `If it does not open, visit:\n  ${url}`);
      await io
        .openBrowser(url.toString())
        .catch((error: Error) => say(io.stderr, `(The browser could not be opened: ${error.message})`));
    } else {
      say(io.stderr, `Open this address in a browser to sign in to ${baseUrl}:\n  ${url}`);
    }
    say(io.stderr, 'Waiting for the browser…');

    const callback = await withTimeout(loopback.received, Number(io.env.LYCEUM_LOGIN_TIMEOUT_SECONDS) || 300);
    const iss = callback.searchParams.get('iss');
    if (iss !== null ? iss !== metadata.issuer : metadata.authorization_response_iss_parameter_supported)
      throw new CliFailure(
        EXIT.auth,
        `The answer came from another issuer (${iss ?? 'none named'}), not ${metadata.issuer}; not signed in.`,
      );
    if (callback.searchParams.get('state') !== state)
      throw new CliFailure(EXIT.auth, 'The answer does not belong to this login (state differs); not signed in.');
    const error = callback.searchParams.get('error');
    if (error)
      throw new CliFailure(
        EXIT.auth,
        `Not signed in: ${callback.searchParams.get('error_description') ?? error} (${error})`,
      );
    const code = callback.searchParams.get('code');
    if (!code) throw new CliFailure(EXIT.auth, 'The school sent no authorization code; not signed in.');

    const response = await exchangeCode(metadata, {
      code,
      redirect_uri: loopback.redirectUri,
      client_id: clientId,
      code_verifier: verifier,
      resource: baseUrl,
    });
    const tokens = tokensOf(response, io.now());
    const user = metadata.userinfo_endpoint
      ? await userinfo(metadata.userinfo_endpoint, tokens.access_token)
      : { sub: '' };
    // A profile that moves to the other store must not leave its old tokens behind.
    if (earlier && earlier.token_store !== store.kind) await (await storeOf(earlier.token_store, io.env)).delete(name);
    await store.set(name, tokens);
    const granted = tokens.scope.split(' ').filter(Boolean);
    // Consent is all or nothing, so a scope asked for and not granted is one the school dropped: the role cannot hold
    // it. A login that asked for everything has learnt all the role may hold; a narrower one keeps what was learnt.
    const sameUser = earlier?.user.sub === user.sub;
    const roleScopes = everything ? tokens.scope : sameUser ? earlier?.role_scopes : undefined;
    const refused = wanted.filter((s) => !granted.includes(s));
    // A role can change: what a login grants is no longer refused, and a login that asked for everything starts afresh.
    const before = sameUser && !everything ? splitScopes([earlier?.role_refused ?? '']) : [];
    const roleRefused = [...new Set([...before.filter((s) => !granted.includes(s)), ...refused])];
    const profile: Profile = {
      base_url: baseUrl,
      client_id: clientId,
      scope: tokens.scope,
      ...(roleScopes !== undefined ? { role_scopes: roleScopes } : {}),
      ...(roleRefused.length ? { role_refused: roleRefused.join(' ') } : {}),
      user: { sub: user.sub, email: user.email, name: user.name },
      endpoints: {
        token: metadata.token_endpoint,
        revocation: metadata.revocation_endpoint,
        userinfo: metadata.userinfo_endpoint,
      },
      token_store: store.kind,
    };
    profiles.save(name, profile);
    await commandCache(io.env, baseUrl, (line) => say(io.stderr, line)).revalidate();

    say(
      io.stdout,
      `Signed in to ${baseUrl} as ${user.name ?? user.sub}${user.email ? ` <${user.email}>` : ''} (profile ${name}).`,
    );
    say(io.stdout, `Granted: ${granted.join(' ')}`);
    const refusedAsked = refused.filter((s) => asked.includes(s));
    if (refusedAsked.length)
      // Said as a failure, without advice to log in again: asking again would loop, as the role never changes here.
      throw new CliFailure(
        EXIT.auth,
        `Your role at ${baseUrl} can never hold ${refusedAsked.join(' ')}, so it was not granted (signing in again will not change that).`,
      );
    if (refused.length) say(io.stdout, `Not granted (your role can never hold them): ${refused.join(' ')}`);
  } finally {
    loopback.close();
  }
}

/**
 * `lyceum logout`: revokes the refresh token (ending its grant) and the access token, then forgets both — forgets them
 * even when the school cannot be reached or refuses, saying so.
 */
export async function logout(io: Io, name: string, profile: Profile) {
  const store = await storeOf(profile.token_store, io.env);
  const tokens = await store.get(name);
  if (!tokens) {
    say(io.stdout, `Not signed in to ${profile.base_url} (profile ${name}).`);
    return;
  }
  const endpoint = profile.endpoints.revocation;
  let revoked = false;
  try {
    if (endpoint) {
      if (tokens.refresh_token)
        await revoke(endpoint, {
          token: tokens.refresh_token,
          token_type_hint: 'refresh_token',
          client_id: profile.client_id,
        });
      await revoke(endpoint, {
        token: tokens.access_token,
        token_type_hint: 'access_token',
        client_id: profile.client_id,
      });
      revoked = true;
    }
  } catch (error) {
    say(io.stderr, `Warning: the school did not revoke the tokens (${(error as Error).message}).`);
  } finally {
    await store.delete(name);
  }
  const at = `${profile.base_url} (profile ${name})`;
  if (revoked) say(io.stdout, `Signed out of ${at}; its tokens are revoked and forgotten.`);
  else if (endpoint)
    say(
      io.stdout,
      `Signed out of ${at}: its tokens are forgotten here, but may stay valid at the school until they expire.`,
    );
  else say(io.stdout, `Signed out of ${at}: its tokens are forgotten here (the school offers no revocation).`);
}
