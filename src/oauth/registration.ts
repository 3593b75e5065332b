import { errors } from 'oidc-provider';
import { DECEPTIVE, withoutDeceptive } from '../security/deceptive-text.ts';
import { ACCEPTED_FORM } from '../security/oauth-endpoints.ts';
import { isScope } from '../security/scopes.ts';

/**
 * Self-service registration admits only loopback redirect URIs (RFC 8252 §7.3): `http`, host 127.0.0.1 or [::1]
 * (and `localhost` when the operator allows it), an explicit port, a path, no fragment and no credentials. Returns the
 * reason a URI is refused, or undefined when it is accepted.
 */
export function loopbackRedirectProblem(uri: unknown, allowLocalhost: boolean): string | undefined {
  if (typeof uri !== 'string') return 'is not a string';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URI';
  }
  if (url.protocol === 'https:') return 'is an https URI';
  if (url.protocol !== 'http:') return `uses the ${url.protocol.replace(':', '')} scheme`;
  if (url.hostname === 'localhost' && !allowLocalhost)
    return 'uses localhost; use http://127.0.0.1:<port>/<path> instead (the same loopback address, without name resolution)';
  if (!['127.0.0.1', '[::1]'].includes(url.hostname) && !(allowLocalhost && url.hostname === 'localhost'))
    return 'is not a loopback address';
  if (url.username || url.password) return 'carries credentials';
  if (url.hash || uri.includes('#')) return 'has a fragment';
  if (!url.port) return 'has no port';
  if (url.port === '0') return 'has port 0; use the port your listener is on (1–65535)';
  if (!/^http:\/\/[^/?#]+\//i.test(uri)) return 'has no path';
  // Stored exactly as sent and compared as text later, so it must be the one spelling every URL parser agrees on:
  // not 127.1 or 0x7f000001, not HTTP://, no dot segments, backslashes, spaces or control characters.
  if (url.href !== uri) return `is not written in canonical form; send exactly ${JSON.stringify(url.href)}`;
  return undefined;
}

/** Whether a client_name (shown to the user, RFC 7591 §2) is absent or one that cannot pass for another app's. */
export const isHonestClientName = (name: unknown): boolean =>
  name === undefined || (typeof name === 'string' && name.trim() !== '' && name.length <= 100 && !DECEPTIVE.test(name));

/** A stored name as people see it: anything deceptive registered before names were checked is taken out. */
export const visibleClientName = (name: string | undefined, fallback: string): string =>
  (name === undefined ? '' : withoutDeceptive(name).trim()) || fallback;

export function assertHonestClientName(name: unknown): void {
  if (isHonestClientName(name)) return;
  throw new errors.InvalidClientMetadata(
    'client_name must be 1–100 characters with no control, zero-width or bidirectional-formatting characters (they can make one app look like another)',
  );
}

/**
 * A registration's scope is replaced by every scope there is (provider.ts), but one naming a scope that does not exist
 * is still refused, as any unknown input is.
 */
export function assertKnownScopes(scope: unknown): void {
  if (scope === undefined) return;
  const unknown = typeof scope === 'string' ? scope.split(' ').filter((s) => s && !isScope(s)) : [String(scope)];
  if (unknown.length === 0) return;
  throw new errors.InvalidClientMetadata(
    `scope names scopes this server does not define: ${unknown.join(' ')} (scopes_supported in the authorization server metadata lists those it does)`,
  );
}

/** Whether a URI is well formed but not on the user's machine (https, another scheme, another host). */
function isFixedCallback(uri: unknown): boolean {
  if (typeof uri !== 'string' || !URL.canParse(uri)) return false;
  const url = new URL(uri);
  return url.protocol !== 'http:' || !(/^127\./.test(url.hostname) || ['[::1]', 'localhost'].includes(url.hostname));
}

/**
 * Thrown with a description starting "redirect_uris", which oidc-provider answers as 400 invalid_redirect_uri. A
 * callback that is not on the user's machine is out of self-service altogether, so its refusal says where to ask for
 * a registered integration instead of how to fix the URI.
 */
export function assertLoopbackRedirects(
  redirectUris: unknown,
  policy: { allowLocalhost: boolean; docsUrl: string },
): void {
  const { allowLocalhost } = policy;
  const list = Array.isArray(redirectUris) ? redirectUris : [];
  if (list.length === 0) {
    throw new errors.InvalidClientMetadata(
      `redirect_uris must list at least one redirect URI of the form ${ACCEPTED_FORM}`,
    );
  }
  for (const uri of list) {
    const problem = loopbackRedirectProblem(uri, allowLocalhost);
    if (problem) {
      const integration = isFixedCallback(uri)
        ? `; any other callback (a fixed HTTPS one, another host or scheme) needs a registered integration: ask for one at ${policy.docsUrl}`
        : '';
      throw new errors.InvalidClientMetadata(
        `redirect_uris: ${JSON.stringify(uri)} ${problem}. Self-service registration accepts only ${ACCEPTED_FORM}${allowLocalhost ? ' (or http://localhost:<port>/<path>)' : ''}${integration}.`,
      );
    }
  }
}

/**
 * For Client ID Metadata Document clients: loopback redirect URIs as above, or https ones on the client_id's own origin.
 */
export function cimdRedirectsAllowed(
  clientId: string,
  redirectUris: readonly string[],
  allowLocalhost: boolean,
): boolean {
  const origin = new URL(clientId).origin;
  return (
    redirectUris.length > 0 &&
    redirectUris.every((uri) => {
      if (loopbackRedirectProblem(uri, allowLocalhost) === undefined) return true;
      try {
        const url = new URL(uri);
        return url.protocol === 'https:' && url.origin === origin && !url.hash;
      } catch {
        return false;
      }
    })
  );
}
