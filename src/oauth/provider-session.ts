import type { FastifyReply } from 'fastify';

const NAMES = ['lyceum_oidc_session', 'lyceum_oidc_session.sig'];

/**
 * Forgets the authorization server's own browser session. Called whenever the school identity of the browser changes
 * (sign-in, sign-up, sign-out), so an authorization never resumes under the previous person's provider session.
 */
export function clearProviderSession(reply: FastifyReply) {
  for (const name of NAMES) reply.clearCookie(name, { path: '/' });
}
