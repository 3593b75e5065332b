/**
 * The Content-Security-Policy source that lets a page's form lead to an app's redirect URI. Browsers check
 * `form-action` against every hop of the redirect chain that follows a form POST, so the consent page must name where
 * the provider finally sends the user.
 *
 * A host name or IPv4 address is named exactly (its origin). An IPv6 literal cannot be: CSP's host-part grammar has
 * only letters, digits, dashes and dots, and Chromium drops `http://[::1]:8080` as an invalid source, which leaves
 * `form-action 'self'` and blocks the redirect. The narrowest expression that admits it is any host on that scheme
 * and port.
 */
export function formActionSourceFor(redirectUri: string): string {
  const url = new URL(redirectUri);
  if (!url.hostname.startsWith('[')) return url.origin;
  return `${url.protocol}//*${url.port ? `:${url.port}` : ''}`;
}

/** The policy with its `form-action` directive replaced by `'self'` plus the given sources. */
export function withFormAction(policy: string, sources: readonly string[]): string {
  const directive = ["form-action 'self'", ...sources].join(' ');
  const directives = policy
    .split(';')
    .map((d) => d.trim())
    .filter(Boolean);
  const at = directives.findIndex((d) => d.split(/\s+/)[0]?.toLowerCase() === 'form-action');
  if (at === -1) directives.push(directive);
  else directives[at] = directive;
  return directives.join('; ');
}
