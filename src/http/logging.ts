import type { FastifyServerOptions } from 'fastify';

/** Query parameters whose values never reach a log line. */
const SECRET_PARAMS =
  /^(token|code|code_verifier|refresh_token|access_token|id_token|id_token_hint|client_secret|password|state|_csrf|signature)$/i;

/**
 * Paths that carry a secret themselves: a person's calendar feed is readable by whoever has its address, and a
 * certificate's code (its page and its PDF) shows whoever has it the person's name and what they completed.
 */
const SECRET_PATHS: [RegExp, string][] = [
  [/^\/calendar\/[^/?]+/, '/calendar/[redacted]'],
  [/^\/certificates\/[^/?]+/, '/certificates/[redacted]'],
];

export function redactUrl(raw: string): string {
  let url = raw;
  for (const [pattern, replacement] of SECRET_PATHS) url = url.replace(pattern, replacement);
  const q = url.indexOf('?');
  if (q === -1) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const key of [...params.keys()]) if (SECRET_PARAMS.test(key)) params.set(key, '[redacted]');
  return `${url.slice(0, q)}?${params.toString()}`;
}

/**
 * JSON logs with request ids. The request serializer writes method, redacted URL and address only: no headers, so
 * no `Authorization` or `Cookie` value can appear; `redact` guards the paths a handler might log by mistake.
 */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', '*.password', '*.token'],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; ip?: string; socket?: { remoteAddress?: string } }) => ({
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.ip ?? req.socket?.remoteAddress,
      }),
    },
  };
}
