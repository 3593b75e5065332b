import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import type { Configuration } from 'oidc-provider';
import { Agent, buildConnector, fetch } from 'undici';
import { isIpLiteral, isPublicAddress } from '../security/public-address.ts';

/** The addresses a name resolves to (every one of them, as the system resolver gives them). */
export type Resolve = (hostname: string) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (hostname) => lookup(hostname, { all: true, order: 'verbatim' });

/** Why an outbound connection was not made; the caller sees it as a failed fetch, the same as a closed port. */
export class NotPublicError extends Error {
  readonly code = 'ERR_NOT_PUBLIC_ADDRESS';
}

/**
 * A `lookup` for sockets that resolves a name once and hands the socket only addresses it has checked: if any address
 * the name resolves to is not public, none is used. The socket connects to exactly what was checked, so a name that
 * answers a public address to a first query and a private one to the next (DNS rebinding) gains nothing.
 */
export function publicOnlyLookup(resolve: Resolve = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (resolved) => {
        const refused = resolved.find((a) => !isPublicAddress(a.address));
        if (resolved.length === 0 || refused) {
          callback(
            new NotPublicError(`${hostname} resolves to ${refused?.address ?? 'nothing'}, not a public address`),
            '',
          );
          return;
        }
        const family = options.family === 4 || options.family === 6 ? options.family : undefined;
        const usable = family ? resolved.filter((a) => a.family === family) : resolved;
        const first = usable[0];
        if (!first) callback(new NotPublicError(`${hostname} has no IPv${family} address`), '');
        else if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

/**
 * A connection pool that reaches public hosts named by DNS only: an IP literal is refused before any socket is opened
 * (a socket given an address never calls `lookup`), and every name is resolved through publicOnlyLookup. It holds for
 * redirects too, since each hop opens its connection here.
 */
export function publicOnlyAgent(resolve?: Resolve): Agent {
  const connect = buildConnector({ lookup: publicOnlyLookup(resolve) });
  return new Agent({
    connect: (options, callback) => {
      if (isIpLiteral(options.hostname))
        return callback(new NotPublicError(`${options.hostname} is an IP address, not a public host name`), null);
      return connect(options, callback);
    },
  });
}

/**
 * The authorization server's `fetch` (client_id metadata documents, a client's jwks_uri): oidc-provider's own guard
 * looks at the peer's address only after the connection is made, which already tells an open port from a closed one
 * and delivers a TLS handshake to it. This one never opens a connection to a non-public address.
 */
export function publicOnlyFetch(agent: Agent = publicOnlyAgent()): NonNullable<Configuration['fetch']> {
  return (async (input: string | URL, init: Record<string, unknown> = {}) =>
    fetch(input, { ...init, dispatcher: agent })) as unknown as NonNullable<Configuration['fetch']>;
}
