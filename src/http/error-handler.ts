import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { unavailableDependency } from '../db/unavailable.ts';
import { prefersHtml } from './accept.ts';
import { ApiError, errors, type FieldError } from './errors.ts';

type ValidationItem = { instancePath?: string; message?: string; keyword?: string; params?: Record<string, unknown> };

/**
 * A field that takes one of a few words fails once per word (a `const` each) and once more for the union (`anyOf`);
 * the caller gets one sentence naming the words instead.
 */
function oneOfWords(items: ValidationItem[]): ValidationItem[] {
  const words = new Map<string, string[]>();
  for (const item of items)
    if (item.keyword === 'const') {
      const path = item.instancePath ?? '';
      words.set(path, [...(words.get(path) ?? []), String(item.params?.allowedValue)]);
    }
  if (words.size === 0) return items;
  const out: ValidationItem[] = [];
  for (const item of items) {
    const allowed = words.get(item.instancePath ?? '');
    if (!allowed || (item.keyword !== 'const' && item.keyword !== 'anyOf' && item.keyword !== 'type')) out.push(item);
    else if (item.keyword === 'anyOf')
      out.push({ ...item, keyword: 'enum', message: `must be one of: ${allowed.join(', ')}` });
  }
  return out;
}

function fieldErrors(items: ValidationItem[], context: string | undefined): FieldError[] {
  return oneOfWords(items).map((item) => {
    const base = (item.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
    if (item.keyword === 'additionalProperties') {
      const extra = String(item.params?.additionalProperty ?? '');
      const field = base ? `${base}.${extra}` : extra;
      return { field, code: 'unknown_field', message: `Unknown field "${field}"; remove it.` };
    }
    if (item.keyword === 'required') {
      const missing = String(item.params?.missingProperty ?? '');
      const field = base ? `${base}.${missing}` : missing;
      return { field, code: 'required', message: `"${field}" is required.` };
    }
    return {
      field: base || String(context ?? 'body'),
      code: item.keyword ?? 'invalid',
      message: item.message ?? 'is invalid',
    };
  });
}

/** Maps any thrown error to the one error table. */
export function toApiError(error: FastifyError | ApiError | Error): ApiError {
  if (error instanceof ApiError) return error;
  // The database (or Redis) restarting, failing over, or cut off: not this request's fault, and it passes.
  if (unavailableDependency(error)) return errors.temporarilyUnavailable();
  const fe = error as FastifyError & { validation?: ValidationItem[]; validationContext?: string };
  if (fe.validation) {
    const fields = fieldErrors(fe.validation, fe.validationContext);
    const first = fields[0];
    return new ApiError('invalid_request', first ? `${first.field}: ${first.message}` : 'The request is invalid.', {
      fields,
    });
  }
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('payload_too_large', 'The request body is too large.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('unsupported_media_type', 'This content type is not accepted here; send JSON.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('invalid_request', 'The request body is not valid JSON.');
    case 'FST_CSRF_MISSING_SECRET':
    case 'FST_CSRF_INVALID_TOKEN':
      return new ApiError(
        'invalid_csrf_token',
        'The form has expired or did not come from this site; reload the page and try again.',
      );
  }
  const status = fe.statusCode ?? 500;
  if (status === 404) return new ApiError('not_found', 'No such resource.');
  if (status === 405) return new ApiError('method_not_allowed', 'This method is not allowed here.');
  if (status === 413) return new ApiError('payload_too_large', 'The request body is too large.');
  if (status === 415) return new ApiError('unsupported_media_type', 'This content type is not accepted here.');
  if (status === 429) return new ApiError('rate_limited', 'Too many requests.');
  if (status >= 400 && status < 500) return new ApiError('invalid_request', fe.message);
  return new ApiError('server_error', 'The server could not complete the request.');
}

const PAGE_INPUT_REFUSED = new ApiError(
  'invalid_request',
  'This page was asked for with something it does not understand, perhaps a changed or shortened link, or a form ' +
    'from an older version of the page. Go back, reload the page and try again.',
);

function wantsHtml(request: FastifyRequest): boolean {
  return Boolean((request.routeOptions.config as { page?: boolean } | undefined)?.page);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The HTML error page of a page route, as installErrorHandlers was given it. */
    renderErrorPage: (error: ApiError) => string;
  }
}

export function sendError(request: FastifyRequest, reply: FastifyReply, apiError: ApiError) {
  reply.code(apiError.status).headers(apiError.headers);
  if (wantsHtml(request)) {
    return reply.type('text/html; charset=utf-8').send(request.server.renderErrorPage(apiError));
  }
  return reply.type('application/json; charset=utf-8').send(apiError.toBody());
}

/**
 * The pages (web/) render the HTML error page and know its context; http/ only passes the context along, so it does
 * not import the views.
 */
export type ErrorHandlerDeps<PageContext> = {
  /** The school's name and the signed-in user, for the HTML 404 page. */
  pageContext: (request: FastifyRequest) => Promise<PageContext>;
  /** The error page in the school's look; without a context (undefined), a plain one. */
  renderErrorPage: (error: ApiError, ctx?: PageContext) => string;
};

export function installErrorHandlers<PageContext>(app: FastifyInstance, deps: ErrorHandlerDeps<PageContext>) {
  app.decorate('renderErrorPage', (error: ApiError) => deps.renderErrorPage(error));
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const apiError = toApiError(error);
    const unreachable = unavailableDependency(error);
    // Every request fails the same way while a dependency is away: one line each, without a stack trace.
    if (unreachable)
      request.log.warn(
        { unreachable, err: { message: error.message, code: error.code } },
        'request failed: unreachable',
      );
    else if (apiError.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ error: apiError.code }, 'request refused');
    if (wantsHtml(request) && apiError.status < 500) {
      // A page's refusal (a draft course is 404) in the school's look, like the 404 of an unknown address below. A
      // page's schema refusing the address or a form is told in words: its field names and patterns are for the API.
      const shown = (error as { validation?: unknown }).validation ? PAGE_INPUT_REFUSED : apiError;
      const ctx = await deps.pageContext(request).catch(() => undefined);
      return reply
        .code(apiError.status)
        .headers(apiError.headers)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(deps.renderErrorPage(shown, ctx));
    }
    return sendError(request, reply, apiError);
  });
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const api = path === '/api' || path.startsWith('/api/');
    if (!api && prefersHtml(request.headers.accept)) {
      // A mistyped address in a browser: a page in the school's look, not JSON. A database failure only costs the
      // school's name and the account links here; the answer is still the 404 page.
      const ctx = await deps.pageContext(request).catch(() => undefined);
      return reply
        .code(404)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(deps.renderErrorPage(new ApiError('not_found', `There is no page at ${path}.`), ctx));
    }
    return sendError(request, reply, new ApiError('not_found', `No route for ${request.method} ${path}.`));
  });
}

/**
 * Errors Fastify raises before any route or hook runs (a path that does not decode, a path parameter longer than the
 * router takes): the same error shape as everything else, written directly (there is no route to ask about pages).
 */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const apiError =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new ApiError('uri_too_long', 'A path segment of this URL is too long.')
      : new ApiError('invalid_request', 'The URL is not valid: check its percent-encoding (%XX).');
  return reply.code(apiError.status).type('application/json; charset=utf-8').send(apiError.toBody());
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers or URL too large, malformed HTTP, a request
 * that took too long to arrive): answered on the socket in the same error shape, then the connection is closed.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const apiError =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new ApiError('request_header_fields_too_large', 'The request headers (or its URL) are too large.')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new ApiError('request_timeout', 'The request took too long to arrive.')
        : new ApiError('invalid_request', 'The request is not valid HTTP.');
  const body = JSON.stringify(apiError.toBody());
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
