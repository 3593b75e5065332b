import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The security headers helmet would set, worked out once: with no per-request nonce they are the same on every
 * response, and rebuilding them per request (as the plugin does) was measurable on the cheapest routes.
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return headers;
}

/** Sets the headers on every response; a route may still replace one (the consent page widens form-action). */
export function installSecurityHeaders(app: FastifyInstance, options: HelmetOptions) {
  const headers = securityHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/**
 * The headers of every answer of the school: a Content-Security-Policy of this origin only (lesson media and embeds
 * excepted), no referrer, no framing, and HSTS when the school is served over https.
 */
export const schoolSecurityHeaders = (https: boolean): HelmetOptions => ({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      imgSrc: ["'self'", 'data:', 'https:'],
      // Lesson media and embeds may live elsewhere (a video host); embed code runs in a sandboxed frame (/embeds).
      mediaSrc: ["'self'", 'https:'],
      frameSrc: ["'self'", 'https:'],
      objectSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      ...(https ? { upgradeInsecureRequests: [] } : {}),
    },
  },
  referrerPolicy: { policy: 'no-referrer' },
  strictTransportSecurity: https ? { maxAge: 31536000, includeSubDomains: false } : false,
  crossOriginResourcePolicy: { policy: 'same-origin' },
  frameguard: { action: 'deny' },
});
