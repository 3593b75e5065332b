import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../identity/schema.ts';
import type { SessionService } from '../identity/sessions.ts';

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
