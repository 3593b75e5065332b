import type { FastifyRequest } from 'fastify';
import type { AccessTokenVerifier } from '../security/token-principal.ts';
import { ApiError } from './errors.ts';
import { ANONYMOUS, type Principal, tokenPrincipal } from './principal.ts';

/** The bearer token of a request, read only from the Authorization header (RFC 6750 §2.1). */
export function bearerToken(authorization: string | undefined): { token?: string; malformed?: boolean } {
  if (authorization === undefined) return {};
  const match = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i.exec(authorization.trim());
  return match ? { token: match[1] } : { malformed: true };
}

/** Whether a request tries to pass an access token in its query or body (RFC 6750 §2.2–2.3), which is refused. */
export function tokenOutsideHeader(request: FastifyRequest): boolean {
  const query = request.query as Record<string, unknown> | undefined;
  const body = request.body as Record<string, unknown> | undefined;
  return query?.access_token !== undefined || (!!body && typeof body === 'object' && 'access_token' in body);
}

export const tokenOutsideHeaderError = () =>
  new ApiError(
    'invalid_request',
    'Send the access token in the Authorization header ("Bearer <token>"), never in the query or body.',
  );

/** Who a request's bearer token says is calling, or why it says nothing usable. */
export type BearerOutcome =
  | { principal: Principal }
  /** A token in the query or body: refused as a bad request, with no challenge. */
  | { refused: ApiError }
  /** A malformed header, or a token that is invalid, expired, revoked or bound to another resource: 401. */
  | { invalid: string };

/**
 * The one reading of a bearer token, for every resource that takes one (the REST API, MCP): no Authorization header
 * is the anonymous principal (never a 401); a token must be active, unrevoked, unexpired, and bound to one of
 * `audiences` (RFC 8707) — `requestWith` is the resource identifier a client should ask for instead.
 */
export function bearerResolver(deps: {
  verify: AccessTokenVerifier;
  audiences: readonly string[];
  requestWith: string;
  /** What the resource is called in the refusal: "this API", "this server". */
  called: string;
}) {
  return async (request: FastifyRequest): Promise<BearerOutcome> => {
    if (tokenOutsideHeader(request)) return { refused: tokenOutsideHeaderError() };
    const { token, malformed } = bearerToken(request.headers.authorization);
    if (malformed) return { invalid: 'The Authorization header must be "Bearer <access token>".' };
    if (!token) return { principal: ANONYMOUS };
    const verified = await deps.verify(token);
    if (!verified) return { invalid: 'The access token is invalid, expired or revoked.' };
    if (!deps.audiences.includes(verified.audience))
      return { invalid: `The access token is not for ${deps.called}; request it with resource=${deps.requestWith}.` };
    return { principal: tokenPrincipal(verified) };
  };
}
