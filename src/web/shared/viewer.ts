import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ANONYMOUS, type Principal } from '../../http/principal.ts';
import type { User } from '../../identity/schema.ts';
import type { SessionService } from '../../identity/sessions.ts';
import { clearProviderSession } from '../../oauth/provider-session.ts';

declare module 'fastify' {
  interface FastifyRequest {
    viewer: User | undefined;
    sessionId: string | undefined;
    /** When the browser session was created, i.e. when the user last entered their password. */
    sessionCreatedAt: string | undefined;
  }
}

export type SessionCookie = {
  name: string;
  set(reply: FastifyReply, token: string, expiresAt: Date): void;
  clear(reply: FastifyReply): void;
  read(request: FastifyRequest): string | undefined;
};

/** The first-party session cookie: signed, HttpOnly, SameSite=Lax, Secure (and `__Host-`) when the origin is https. */
export function sessionCookie(secure: boolean): SessionCookie {
  const name = secure ? '__Host-lyceum_session' : 'lyceum_session';
  const base = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure, signed: true };
  return {
    name,
    set: (reply, token, expiresAt) => reply.setCookie(name, token, { ...base, expires: expiresAt }),
    clear: (reply) => reply.clearCookie(name, base),
    read(request) {
      const raw = request.cookies[name];
      if (!raw) return undefined;
      const unsigned = request.unsignCookie(raw);
      return unsigned.valid && unsigned.value ? unsigned.value : undefined;
    },
  };
}

/** Resolves the signed-in user of page routes from the session cookie. API routes never read it. */
export function registerViewer(app: FastifyInstance, deps: { sessions: SessionService; cookie: SessionCookie }) {
  app.decorateRequest('viewer', undefined);
  app.decorateRequest('sessionId', undefined);
  app.decorateRequest('sessionCreatedAt', undefined);
  app.addHook('preHandler', async (request) => {
    const token = deps.cookie.read(request);
    if (!token) return;
    const resolved = await deps.sessions.resolve(token);
    request.viewer = resolved?.user;
    request.sessionId = resolved?.sessionId;
    request.sessionCreatedAt = resolved?.createdAt;
  });
}

/**
 * Who is signed in in this browser changes only here: signing in replaces any earlier session, and both signing in
 * and out also forget the authorization server's own browser session, so an authorization never resumes under the
 * previous person.
 */
export function browserSessions(deps: { sessions: SessionService; cookie: SessionCookie }) {
  const end = async (request: FastifyRequest, reply: FastifyReply) => {
    const token = deps.cookie.read(request);
    if (token) await deps.sessions.destroy(token);
    deps.cookie.clear(reply);
    clearProviderSession(reply);
  };
  return {
    async start(request: FastifyRequest, reply: FastifyReply, userId: string) {
      await end(request, reply);
      const session = await deps.sessions.create(userId);
      deps.cookie.set(reply, session.token, session.expiresAt);
    },
    end,
  };
}

export type BrowserSessions = ReturnType<typeof browserSessions>;

/** The visitor of the school's pages as a principal: a browser session, not an app, so no client and no scopes. */
export const viewerPrincipal = (viewer: User | undefined): Principal =>
  viewer ? { kind: 'user', userId: viewer.id, role: viewer.role, clientId: '', scopes: new Set() } : ANONYMOUS;
