/**
 * The one error table. Every error the server writes, OAuth and API alike, is RFC 6749 §5.2 shaped:
 * `{ error, error_description }`, plus `errors: [{ field, code, message }]` for validation failures.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  invalid_token: 401,
  invalid_csrf_token: 403,
  insufficient_scope: 403,
  access_denied: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  request_timeout: 408,
  payload_too_large: 413,
  range_not_satisfiable: 416,
  uri_too_long: 414,
  unsupported_media_type: 415,
  rate_limited: 429,
  request_header_fields_too_large: 431,
  server_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export type FieldError = { field: string; code: string; message: string };

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly fields: FieldError[] | undefined;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    description: string,
    options: { fields?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(description);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.fields = options.fields;
    this.headers = options.headers ?? {};
  }

  toBody(): { error: ErrorCode; error_description: string; errors?: FieldError[] } {
    return { error: this.code, error_description: this.message, ...(this.fields ? { errors: this.fields } : {}) };
  }
}

/** A wait as a person would say it, rounded up: "30 seconds", "1 minute", "59 minutes", "2 hours". */
export function waitInWords(seconds: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (seconds < 60) return plural(Math.max(1, Math.ceil(seconds)), 'second');
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return plural(minutes, 'minute');
  return plural(Math.ceil(minutes / 60), 'hour');
}

export const errors = {
  invalidRequest: (description: string, fields?: FieldError[]) =>
    new ApiError('invalid_request', description, { fields }),
  notFound: (what = 'resource') => new ApiError('not_found', `No such ${what}.`),
  conflict: (description: string) => new ApiError('conflict', description),
  accessDenied: (description: string) => new ApiError('access_denied', description),
  payloadTooLarge: (description: string, fields?: FieldError[]) =>
    new ApiError('payload_too_large', description, { fields }),
  rangeNotSatisfiable: (size: number) =>
    new ApiError('range_not_satisfiable', `The requested range is outside the file (${size} bytes).`, {
      headers: { 'content-range': `bytes */${size}` },
    }),
  methodNotAllowed: (method: string) =>
    new ApiError('method_not_allowed', `${method} is not allowed here; the Allow header lists what is.`),
  tooManySignUps: (retryAfterSeconds: number) =>
    new ApiError(
      'rate_limited',
      `Too many accounts have been created from your network recently. Please try again in ${waitInWords(retryAfterSeconds)}.`,
      { headers: { 'retry-after': String(retryAfterSeconds) } },
    ),
  rateLimited: (retryAfterSeconds: number) =>
    new ApiError('rate_limited', `Too many attempts; try again in ${retryAfterSeconds} seconds.`, {
      headers: { 'retry-after': String(retryAfterSeconds) },
    }),
  invalidCsrfToken: () =>
    new ApiError(
      'invalid_csrf_token',
      'The form has expired or did not come from this site; reload the page and try again.',
    ),
  nulCharacter: (where: 'URL' | 'body') =>
    new ApiError(
      'invalid_request',
      `The request's ${where} contains a NUL character (%00 or \\u0000), which no field accepts; remove it.`,
    ),
  serviceUnavailable: (description: string) => new ApiError('service_unavailable', description),
  /** A part the school cannot work without (its database, Redis) is unreachable for now: a restart, a failover. */
  temporarilyUnavailable: () =>
    new ApiError('service_unavailable', 'The school is temporarily unavailable; try again in a few seconds.', {
      headers: { 'retry-after': '5' },
    }),
  serverError: () => new ApiError('server_error', 'The server could not complete the request.'),
};
