import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The gate of a page or form for signed-in people: a signed-out visitor is sent to sign in and brought back to
 * `pageOf(request)` — by default the address asked for. A form posted after its session ended has no page at its
 * own address, so its route names the page the form is on (`formPage` for the usual `<page>/<action>` shape).
 */
export const signInGate =
  (pageOf: (request: FastifyRequest) => string = (request) => request.url) =>
  async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.viewer) return reply.redirect(`/signin?return_to=${encodeURIComponent(pageOf(request))}`, 303);
  };

/** The page a `<page>/<action>` form is on: its address without the action. */
export const formPage = (request: FastifyRequest) => (request.url.split('?')[0] ?? '/').replace(/\/[^/]+$/, '') || '/';
