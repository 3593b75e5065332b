/**
 * A part the school cannot work without (its database, or Redis for what has no other home) is unreachable right now:
 * a restart, a failover, a network blip. Such a failure is not a bug of the request, and it passes: callers answer
 * 503 (try again shortly) instead of 500, and log it as a warning without a stack trace.
 */
export type Dependency = 'database' | 'redis';
/** What is unreachable: a dependency, or (a socket error alone does not say whose) some server the school talks to. */
export type Unreachable = Dependency | 'network';

/** Thrown where a part's own failure is recognised and wrapped (Redis commands; see db/redis.ts). */
export class UnavailableError extends Error {
  readonly dependency: Dependency;
  constructor(dependency: Dependency, options: { cause?: unknown } = {}) {
    super(`${dependency === 'database' ? 'The database' : 'Redis'} is not reachable right now.`, options);
    this.name = 'UnavailableError';
    this.dependency = dependency;
  }
}

/**
 * SQLSTATEs of a connection that was refused, lost or ended by the server (PostgreSQL's appendix A): class 08
 * (connection exception), 57P01 admin_shutdown (a fast stop ends every session), 57P02 crash_shutdown, 57P03
 * cannot_connect_now (starting up, shutting down, in recovery), 53300 too_many_connections.
 */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;

/** Socket errors of a connection to a server that is down, restarting, or cut off. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * What node-postgres says of a connection it lost or could not get, in words only (these errors carry no code):
 * the server closed the socket, a query was sent on a client whose connection had failed, or no connection could be
 * made within the pool's connection timeout.
 */
const PG_MESSAGES = [
  /^Connection terminated/,
  /^Client has encountered a connection error and is not queryable/,
  /^timeout exceeded when trying to connect/,
  /^Connection terminated due to connection timeout/,
];

/**
 * What is unreachable, when `error` (or an error it was caused by) says something is; undefined for every other
 * failure. SQL errors of a reachable database (a constraint, a syntax error) are not this. A refused or reset socket
 * is most often the database's, but may be another server's (S3, SMTP): 'network' says only that.
 */
export function unavailableDependency(error: unknown): Unreachable | undefined {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof UnavailableError) return e.dependency;
    const { code, message, errors } = e as { code?: unknown; message?: unknown; errors?: unknown };
    if (typeof code === 'string' && UNAVAILABLE_SQLSTATE.test(code)) return 'database';
    if (typeof message === 'string' && PG_MESSAGES.some((pattern) => pattern.test(message))) return 'database';
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return 'network';
    // A host name with several addresses fails with an AggregateError of one socket error each.
    if (Array.isArray(errors) && errors.some((inner) => unavailableDependency(inner))) return 'network';
  }
  return undefined;
}
