import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { WebClient } from './web-client.ts';
import { csrfOf } from './web-client.ts';

export type RegisteredClient = {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
  [k: string]: unknown;
};

export async function register(base: string, metadata: Record<string, unknown>) {
  const response = await fetch(`${base}/api/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(metadata),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & RegisteredClient };
}

export async function registerClient(
  base: string,
  port: number,
  extra: Record<string, unknown> = {},
): Promise<RegisteredClient> {
  const { status, body } = await register(base, {
    client_name: 'Test CLI',
    application_type: 'native',
    redirect_uris: [`http://127.0.0.1:${port}/callback`],
    token_endpoint_auth_method: 'none',
    ...extra,
  });
  if (status !== 201) throw new Error(`registration failed: ${status} ${JSON.stringify(body)}`);
  return body;
}

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

export function authorizeUrl(base: string, params: Record<string, string | undefined>): string {
  const url = new URL('/oauth/authorize', base);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

/**
 * Walks an authorization request through the school's real pages over HTTP (no browser): follows redirects, signs in
 * when asked, answers the consent form. Returns the URL the browser would finally be sent to (the app's redirect URI
 * or an error page on the school).
 */
export async function authorizeThroughForms(
  client: WebClient,
  url: string,
  opts: {
    email?: string;
    password?: string;
    decision?: 'allow' | 'deny';
    onConsent?: (html: string, headers: Headers) => void;
  } = {},
): Promise<{ location: URL; status: number; text: string }> {
  let next = new URL(url);
  for (let hop = 0; hop < 20; hop++) {
    if (next.origin !== new URL(client.base).origin) return { location: next, status: 302, text: '' };
    const response = await client.get(next.pathname + next.search);
    if (response.status >= 300 && response.status < 400 && response.location) {
      next = new URL(response.location, next);
      continue;
    }
    // The sign-in form is shown on /signin, or in place by the authorization's interaction page.
    if (response.status === 200 && response.text.includes('<form method="post" action="/signin">')) {
      const posted = await client.postForm('/signin', {
        _csrf: csrfOf(response.text),
        email: opts.email ?? '',
        password: opts.password ?? '',
        return_to: /name="return_to" value="([^"]*)"/.exec(response.text)?.[1]?.replaceAll('&amp;', '&') ?? '/',
      });
      if (!posted.location) return { location: next, status: posted.status, text: posted.text };
      next = new URL(posted.location, next);
      continue;
    }
    if (next.pathname.startsWith('/oauth/interaction/') && response.status === 200) {
      opts.onConsent?.(response.text, response.headers);
      const reauthAfter = /name="reauth_after" value="([^"]+)"/.exec(response.text)?.[1];
      const posted = await client.postForm(`${next.pathname}/consent`, {
        _csrf: csrfOf(response.text),
        decision: opts.decision ?? 'allow',
        ...(reauthAfter ? { reauth_after: reauthAfter } : {}),
      });
      if (!posted.location) return { location: next, status: posted.status, text: posted.text };
      next = new URL(posted.location, next);
      continue;
    }
    return { location: next, status: response.status, text: response.text };
  }
  throw new Error('too many redirects');
}

export async function tokenRequest(base: string, form: Record<string, string | undefined>) {
  const response = await formPost(base, '/api/oauth/token', form);
  return { ...response, body: response.body as Record<string, string & number> };
}

export async function formPost(
  base: string,
  path: string,
  form: Record<string, string | undefined>,
  headers: Record<string, string> = {},
) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) if (v !== undefined) body.set(k, v);
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
  };
}

/**
 * A real loopback listener, as a CLI would run, capturing the redirect the browser is sent to; on 127.0.0.1 or, with
 * `host: '::1'`, on the IPv6 loopback. `origin` is how a redirect URI names it.
 */
export async function loopbackListener(host: '127.0.0.1' | '::1' = '127.0.0.1'): Promise<{
  port: number;
  origin: string;
  next(): Promise<URL>;
  close(): Promise<void>;
}> {
  const waiting: ((url: URL) => void)[] = [];
  const received: URL[] = [];
  let origin = '';
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><title>Done</title><p>You can close this window.</p>');
    const waiter = waiting.shift();
    if (waiter) waiter(url);
    else received.push(url);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as { port: number }).port;
  origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    port,
    origin,
    next: () => {
      const ready = received.shift();
      return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
