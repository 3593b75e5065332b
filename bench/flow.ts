/**
 * One OAuth authorization code flow driven over HTTP like a browser that does not render: redirects are followed and
 * a page is answered by the form it carries, so the driver does not depend on which hops a server takes.
 */
import { formPost, pkce } from '../test/support/oauth.ts';
import type { WebClient } from '../test/support/web-client.ts';

const SCOPE = 'openid profile email courses:read';

/** An authorization server as the bench drives it. */
export type AuthorizationServer = {
  base: string;
  pid: number;
  clientId: string;
  redirectUri: string;
  paths: { authorize: string; token: string; introspect: string };
};
export type Account = { email: string; password: string };

const htmlText = (s: string) =>
  s.replace(
    /&(amp|quot|#39|lt|gt|#x2F);/g,
    (_, e: string) => ({ amp: '&', quot: '"', '#39': "'", lt: '<', gt: '>', '#x2F': '/' })[e] ?? '',
  );

/** The form of a page the flow can answer — a sign-in form (it asks for a password) or a consent form — if any. */
function answerableForm(html: string, account: Account) {
  for (const [, action, inner] of html.matchAll(/<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/g)) {
    const answer = inner.includes('name="password"')
      ? account
      : inner.includes('name="decision"')
        ? { decision: 'allow' }
        : undefined;
    if (!answer) continue;
    const hidden = inner.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g);
    return {
      action: htmlText(action),
      fields: { ...Object.fromEntries([...hidden].map(([, n, v]) => [n, htmlText(v)])), ...answer },
    };
  }
  return undefined;
}

/**
 * One authorization code flow in `web` (a browser: its cookies are its session), up to the tokens; returns them and
 * how many HTTP requests it took, the token request included.
 */
export async function codeFlow(as: AuthorizationServer, web: WebClient, account: Account) {
  const { verifier, challenge } = pkce();
  let at = new URL(as.paths.authorize, as.base);
  const params = { response_type: 'code', client_id: as.clientId, redirect_uri: as.redirectUri, scope: SCOPE };
  for (const [k, v] of Object.entries({ ...params, code_challenge: challenge, code_challenge_method: 'S256' }))
    at.searchParams.set(k, v);
  let response = await web.get(at.pathname + at.search);
  for (let requests = 1; requests < 20; requests++) {
    if (response.location) {
      const next = new URL(response.location, at);
      if (next.href.startsWith(as.redirectUri)) {
        const code = next.searchParams.get('code') ?? '';
        const token = await formPost(as.base, as.paths.token, {
          grant_type: 'authorization_code',
          code,
          redirect_uri: as.redirectUri,
          client_id: as.clientId,
          code_verifier: verifier,
        });
        if (token.status !== 200) throw new Error(`token: ${token.status} ${JSON.stringify(token.body)}`);
        return {
          accessToken: String(token.body.access_token),
          refreshToken: String(token.body.refresh_token),
          requests: requests + 1,
        };
      }
      at = next;
      response = await web.get(at.pathname + at.search);
      continue;
    }
    const form = answerableForm(response.text, account);
    if (!form) throw new Error(`flow stuck at ${at.pathname}: ${response.status} ${response.text.slice(0, 200)}`);
    at = new URL(form.action, at);
    response = await web.postForm(at.pathname + at.search, form.fields);
  }
  throw new Error('flow: too many requests');
}
