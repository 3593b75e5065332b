import { randomBytes, scryptSync } from 'node:crypto';
import { newId } from '../../src/db/ids.ts';
import type { Role } from '../../src/security/roles.ts';
import { authorizeThroughForms, authorizeUrl, pkce, registerClient, tokenRequest } from './oauth.ts';
import type { TestServer } from './server.ts';
import { completeSetup, OWNER, WebClient } from './web-client.ts';

export type Person = { id: string; email: string; password: string; name: string; role: Role };

/**
 * A password hash in the school's stored format (`scrypt$N$r$p$salt$hash`) at a test-only cost, N = 1024 instead of
 * the school's 16384. Sign-in verifies with the parameters stored in the hash, so the people tests create straight in
 * the database sign in at 1/16 of the CPU (each sign-in and each user cost ~50 ms of scrypt otherwise, hundreds of
 * times per run). Hashes the school makes itself (setup, sign-up, password change and reset) keep the production
 * cost, which test/security/passwords.test.ts asserts.
 */
export function testPasswordHash(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password, salt, 32, { N: 1024, r: 8, p: 1 });
  return ['scrypt', 1024, 8, 1, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** Creates a user straight in the database (staff accounts have no sign-up page). */
export async function createUser(
  server: Pick<TestServer, 'database'>,
  role: Role,
  name = `${role} ${Math.random().toString(36).slice(2, 7)}`,
): Promise<Person> {
  const person = {
    id: newId('usr'),
    email: `${name.replace(/\W+/g, '.').toLowerCase()}@school.test`,
    password: 'a test password 1',
    name,
    role,
  };
  const now = new Date().toISOString();
  await server.database.db
    .insertInto('users')
    .values({
      id: person.id,
      email: person.email,
      name,
      role,
      status: 'active',
      password_hash: testPasswordHash(person.password),
      locale: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return person;
}

/**
 * Connects an app for a person through the real authorization flow (forms over HTTP), with exactly `scope`
 * requested; returns the app's client id and its access token.
 */
export async function connectApp(
  server: Pick<TestServer, 'url'>,
  person: { email: string; password: string },
  scope: string,
  options: { clientName?: string; resource?: string; metadata?: Record<string, unknown> } = {},
): Promise<{ clientId: string; token: string; tokens: Record<string, unknown> }> {
  const client = await registerClient(server.url, 44000, {
    client_name: options.clientName ?? 'API test client',
    ...options.metadata,
  });
  const { verifier, challenge } = pkce();
  const redirect = 'http://127.0.0.1:44000/callback';
  const result = await authorizeThroughForms(
    new WebClient(server.url),
    authorizeUrl(server.url, {
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: redirect,
      scope,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: options.resource,
    }),
    person,
  );
  const code = result.location.searchParams.get('code');
  if (!code) throw new Error(`no code for ${person.email}: ${result.location} ${result.text.slice(0, 300)}`);
  const tokens = await tokenRequest(server.url, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirect,
    client_id: client.client_id,
    code_verifier: verifier,
  });
  if (tokens.status !== 200) throw new Error(`token failed: ${JSON.stringify(tokens.body)}`);
  return { clientId: client.client_id, token: String(tokens.body.access_token), tokens: tokens.body };
}

/** An access token for a person, with exactly `scope` requested (see connectApp). */
export async function tokenFor(
  server: Pick<TestServer, 'url'>,
  person: { email: string; password: string },
  scope: string,
  resource?: string,
): Promise<string> {
  return (await connectApp(server, person, scope, { resource })).token;
}

/** The exact WWW-Authenticate challenge of a token lacking `scope`. */
export const insufficientScopeChallenge = (scope: string) =>
  new RegExp(
    `^Bearer error="insufficient_scope", error_description="[^"]+", scope="${scope}", ` +
      'resource_metadata="http://127\\.0\\.0\\.1:\\d+/\\.well-known/oauth-protected-resource"$',
  );

/** A school with an owner, a staff member and a student, ready for API tests. */
export async function schoolWithPeople(server: TestServer) {
  await completeSetup(server.url, server.setupUrl ?? '');
  const owner: Person = { ...OWNER, id: '', role: 'owner' };
  const staff = await createUser(server, 'staff', 'Stella Staff');
  const student = await createUser(server, 'student', 'Stu Dent');
  return { owner, staff, student };
}

export type ApiResponse<T = Record<string, unknown>> = { status: number; headers: Headers; body: T };

/** JSON API calls, with or without a bearer token. */
export function apiClient(base: string, token?: string) {
  const call = async <T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse<T>> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : null) as T };
  };
  return {
    get: <T = Record<string, unknown>>(path: string, headers?: Record<string, string>) =>
      call<T>('GET', path, undefined, headers),
    post: <T = Record<string, unknown>>(path: string, body?: unknown, headers?: Record<string, string>) =>
      call<T>('POST', path, body ?? {}, headers),
    patch: <T = Record<string, unknown>>(path: string, body: unknown) => call<T>('PATCH', path, body),
    put: <T = Record<string, unknown>>(path: string, body: unknown) => call<T>('PUT', path, body),
    delete: <T = Record<string, unknown>>(path: string) => call<T>('DELETE', path),
    call,
  };
}

/** Every item of a list endpoint, following next_cursor. */
export async function listAll<T extends { id: string }>(
  client: ReturnType<typeof apiClient>,
  path: string,
  limit = 100,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const page: ApiResponse<{ data: T[]; next_cursor: string | null }> = await client.get(
      `${path}${separator}limit=${limit}${cursor ? `&starting_after=${cursor}` : ''}`,
    );
    if (page.status !== 200) throw new Error(`list ${path}: ${page.status} ${JSON.stringify(page.body)}`);
    items.push(...page.body.data);
    cursor = page.body.next_cursor;
  } while (cursor);
  return items;
}
