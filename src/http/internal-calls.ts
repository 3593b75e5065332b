import { randomBytes } from 'node:crypto';
import type { Principal } from './principal.ts';

/** The header an in-process call (app.inject) carries to name the principal it was issued for. */
export const INTERNAL_CALL_HEADER = 'x-lyceum-internal-call';

/**
 * Where an in-process call really came from: the MCP endpoint's or the admin's own HTTP request, whose address and
 * browser the audit log records (the injected request itself comes from nowhere).
 */
export type CallOrigin = { channel: 'mcp' | 'admin'; ip: string; userAgent?: string; requestId?: string };

export type IssuedCall = { principal: Principal; origin?: CallOrigin };

/**
 * Hands a principal already established elsewhere (the MCP endpoint verified the caller's token) to an API route run
 * in-process with app.inject, so the route applies its own scope, validation and principal rules unchanged. Each
 * ticket is 128 random bits, single-use and lives only in this process's memory while its call runs: a request from
 * outside cannot name one, and a header that names no ticket is ignored (the request is served as any other).
 */
export function internalCalls() {
  const tickets = new Map<string, IssuedCall>();
  return {
    issue(principal: Principal, origin?: CallOrigin): string {
      const ticket = randomBytes(16).toString('base64url');
      tickets.set(ticket, { principal, origin });
      return ticket;
    },
    take(ticket: string): IssuedCall | undefined {
      const issued = tickets.get(ticket);
      if (issued) tickets.delete(ticket);
      return issued;
    },
    /** Forgets a ticket whose call ended before a route took it (a 404 route, an unparsable request). */
    drop(ticket: string) {
      tickets.delete(ticket);
    },
  };
}

export type InternalCalls = ReturnType<typeof internalCalls>;
