import { parse as parseForm } from 'node:querystring';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from './errors.ts';

/** Whether a parsed value holds a NUL anywhere: in a string, or in the name of a field at any depth. */
export function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value && typeof value === 'object' && !Buffer.isBuffer(value))
    return Object.entries(value).some(([key, field]) => key.includes('\0') || holdsNul(field));
  return false;
}

/**
 * A body some scope left as text or bytes (MCP reads JSON-RPC as a string, the authorization server its forms as
 * bytes) is judged as the JSON or form it says it is; any other body (an upload's bytes) may hold anything.
 */
function rawBodyHoldsNul(request: FastifyRequest, body: string | Buffer): boolean {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const text = body.toString();
  if (type === 'application/x-www-form-urlencoded') return holdsNul(parseForm(text));
  if (type === 'application/json' || type.endsWith('+json')) {
    try {
      return holdsNul(JSON.parse(text));
    } catch {
      // Not JSON at all: the route answers that, as it always has.
      return false;
    }
  }
  return false;
}

/**
 * No text the school keeps may hold a NUL: PostgreSQL refuses one in any text value (SQLite would store it and cut it
 * short elsewhere), so one reaching a query turned into a 500 and a stack trace. It is refused once, here at the edge,
 * for every surface — the URL's path and query (where `%00` decodes to NUL), form and JSON bodies — before any route
 * reads them: 400 invalid_request, as a page for pages and in the error shape elsewhere (the error handler decides).
 * Header values need no check: Node's HTTP parser refuses a NUL in one before a request exists.
 */
export function installNulGuard(app: FastifyInstance) {
  app.addHook('onRequest', async (request) => {
    if (/%00|\0/i.test(request.url)) throw errors.nulCharacter('URL');
  });
  app.addHook('preValidation', async (request) => {
    const body = request.body;
    const refused = typeof body === 'string' || Buffer.isBuffer(body) ? rawBodyHoldsNul(request, body) : holdsNul(body);
    if (refused) throw errors.nulCharacter('body');
  });
}
