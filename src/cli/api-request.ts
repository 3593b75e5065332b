import { CliFailure, EXIT } from './exit-codes.ts';
import { reach } from './oauth-client.ts';
import { loginCommand, type Session } from './session.ts';

/**
 * The school a command talks to, and the signed-in session (none: anonymous, the public view); `roleScopes`: every
 * scope the person's role may hold there, when a login has learnt it.
 */
export type Target = {
  baseUrl: string;
  profileName: string;
  session: Session | undefined;
  roleScopes?: string[];
  /** Scopes a login was refused because of the person's role. */
  roleRefused?: string[];
};

type ApiErrorBody = {
  error?: string;
  error_description?: string;
  errors?: { field?: string; message?: string }[];
};

/** The scope a 403's challenge names (RFC 6750 §3). */
const challengedScope = (header: string | null) => /[\s,]scope="([^"]*)"/.exec(header ?? '')?.[1];

/** Why signing in again cannot help: the role may never hold the scope (as the MCP 403 says it). */
export const roleCannotHold = (scope: string, roleScopes: string[] | undefined) =>
  `Your role at this school can never hold ${scope} (signing in again will not change that).${roleScopes ? ` Your role may grant: ${roleScopes.join(' ')}.` : ''}`;

/** Turns an API error answer into the CLI's failure: the server's error_description, and what to run next. */
export async function apiFailure(response: Response, target: Target): Promise<CliFailure> {
  const text = await response.text();
  let body: ApiErrorBody = {};
  try {
    body = JSON.parse(text) as ApiErrorBody;
  } catch {
    body = { error: `HTTP ${response.status}`, error_description: text.slice(0, 200) };
  }
  const fields = (body.errors ?? []).map((e) => `\n  ${e.field ?? ''}: ${e.message ?? ''}`).join('');
  const message = `${body.error_description ?? response.statusText} (${body.error ?? response.status})${fields}`;
  if (response.status === 403 && body.error === 'insufficient_scope') {
    const challenge = response.headers.get('www-authenticate');
    const scope = challengedScope(challenge);
    // A challenge without error="insufficient_scope" is one the school says stepping up cannot answer (the MCP 403
    // for a role that can never hold the scope); a scope outside what the role was granted is the same, known here.
    const { roleScopes, roleRefused } = target;
    const beyondRole = (scope?.split(' ') ?? []).filter(
      (s) => roleRefused?.includes(s) || (roleScopes && !roleScopes.includes(s)),
    );
    if (beyondRole.length && target.session)
      return new CliFailure(EXIT.auth, `${message}\n${roleCannotHold(beyondRole.join(' '), roleScopes)}`);
    if (challenge && !/error="insufficient_scope"/.test(challenge)) return new CliFailure(EXIT.auth, message);
    return new CliFailure(EXIT.auth, message, `Run: ${loginCommand(target.baseUrl, target.profileName, scope)}`);
  }
  if (response.status === 401)
    return new CliFailure(EXIT.auth, message, `Run: ${loginCommand(target.baseUrl, target.profileName)}`);
  if (response.status >= 500 || response.status === 429) return new CliFailure(EXIT.unavailable, message);
  return new CliFailure(EXIT.apiError, message);
}

/**
 * Sends a request with the session's token, refreshing it once when the API says it is no longer valid. The token goes
 * only to the school's own origin: a URL the school's answer names (a job's Location, an upload_url) elsewhere is
 * requested without it.
 */
export async function sendWithSession(target: Target, url: string, init: () => RequestInit): Promise<Response> {
  const attempt = async (token: string | undefined) => {
    const request = init();
    const headers = new Headers(request.headers);
    if (!headers.has('accept')) headers.set('accept', 'application/json');
    if (token) headers.set('authorization', `Bearer ${token}`);
    return reach(url, { ...request, headers });
  };
  const ours = new URL(url).origin === new URL(target.baseUrl).origin;
  const token = ours ? await target.session?.accessToken() : undefined;
  const response = await attempt(token);
  if (response.status !== 401 || !token || !target.session) return response;
  await response.body?.cancel();
  const renewed = await target.session.renew(token);
  return renewed ? attempt(renewed) : response;
}

export async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

/** GETs one API path with the session (for commands that compose operations, like `storage upload`). */
export async function callJson(target: Target, path: string, init: RequestInit = {}) {
  const response = await sendWithSession(target, `${target.baseUrl}${path}`, () => init);
  if (!response.ok) throw await apiFailure(response, target);
  return (await readBody(response)) as Record<string, unknown>;
}
