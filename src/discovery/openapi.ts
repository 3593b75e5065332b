import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { OAUTH_PATHS } from '../security/oauth-endpoints.ts';
import { SCOPES } from '../security/scopes.ts';
import type { Clock } from '../time/clock.ts';
import { sendDocument } from './conditional.ts';
import { type GeneratedDocument, strongEtag } from './documents.ts';
import { markComponents, operationsOf, shapeOpenApi } from './openapi-shape.ts';

const IDEMPOTENCY_HEADER = {
  type: 'object',
  properties: {
    'idempotency-key': {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description:
        'A key of your choosing (1–255 visible ASCII characters), kept 24 hours: the same key with the same request replays the first answer (marked Idempotent-Replayed: true) instead of doing it again; with another request it is a 409.',
    },
  },
};

/**
 * OpenAPI 3.0, generated from the live route schemas by @fastify/swagger. Every API operation carries the oauth2
 * security requirement of its declared scope (and an empty alternative when anonymous callers get the public view);
 * pages, OAuth endpoints and other non-API routes are left out.
 */
export async function registerOpenApi(
  app: FastifyInstance,
  deps: { baseUrl: string; schoolName?: string; clock: Clock },
) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Lyceum API',
        version: '1',
        description: [
          `The HTTP API of this school. Authentication: ${deps.baseUrl}/auth.md. Requests without a token get the public view.`,
          `Every operation in one line each: ${deps.baseUrl}/operations.txt.`,
          'Timestamps (format date-time) are RFC 3339 in UTC. Money is integer minor units with an ISO 4217 currency.',
          'Lists are pages (ListPage): pass next_cursor as starting_after for the next one; limit is 1–100.',
          'Errors are {error, error_description}. A creating POST that lists Idempotency-Key runs once per key.',
        ].join(' '),
      },
      servers: [{ url: deps.baseUrl }],
      components: {
        securitySchemes: {
          oauth2: {
            type: 'oauth2',
            description:
              'Authorization code with PKCE (S256). Register your client at the registration endpoint first.',
            flows: {
              authorizationCode: {
                authorizationUrl: `${deps.baseUrl}${OAUTH_PATHS.authorization}`,
                tokenUrl: `${deps.baseUrl}${OAUTH_PATHS.token}`,
                refreshUrl: `${deps.baseUrl}${OAUTH_PATHS.token}`,
                scopes: Object.fromEntries(Object.entries(SCOPES).map(([scope, def]) => [scope, def.description])),
              },
            },
          },
        },
      },
    },
    transform: ({ schema, url, route }) => {
      const config = (route.config ?? {}) as {
        scope?: string;
        anonymous?: boolean;
        binary?: boolean;
        idempotent?: boolean;
      };
      if (!url.startsWith('/api/v1') || !config.scope) return { schema: { ...schema, hide: true }, url };
      const security = [{ oauth2: [config.scope] }, ...(config.anonymous ? [{}] : [])];
      // A raw-bytes route has no body schema (nothing parses it); the document still says what it takes. A GET
      // that answers with bytes takes no body (RFC 9110 §9.3.1).
      const raw: object =
        config.binary && ['POST', 'PUT', 'PATCH'].includes(String(route.method))
          ? { consumes: ['application/octet-stream'], body: { type: 'string', format: 'binary' } }
          : {};
      // The header is read by the idempotency hook, not validated by the route, so only the document declares it.
      const keyed: object = config.idempotent ? { headers: IDEMPOTENCY_HEADER } : {};
      const marked = markComponents(schema) as typeof schema;
      return {
        schema: { ...marked, ...raw, ...keyed, security, 'x-required-scope': config.scope } as typeof schema,
        url,
      };
    },
  });
  // The routes are fixed once the app is ready, so the documents and their ETags are made once (the CLI revalidates).
  let shaped: { paths?: unknown } | undefined;
  const made = (body: string): GeneratedDocument => ({
    body,
    etag: strongEtag(body),
    lastModified: new Date(Math.floor(deps.clock.now().getTime() / 1000) * 1000),
  });
  let document: GeneratedDocument | undefined;
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    shaped ??= shapeOpenApi(app.swagger() as { paths?: unknown });
    document ??= made(JSON.stringify(shaped));
    return sendDocument(request, reply, document, 'application/json; charset=utf-8');
  });
  let index: GeneratedDocument | undefined;
  app.get('/operations.txt', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    shaped ??= shapeOpenApi(app.swagger() as { paths?: unknown });
    index ??= made(operationIndex(shaped, deps.baseUrl));
    return sendDocument(request, reply, index, 'text/plain; charset=utf-8');
  });
}

/** Every operation in one line an agent can skim: operationId, method, path, scope and summary, by area. */
export function operationIndex(document: { paths?: unknown }, baseUrl: string): string {
  const rows = operationsOf(document).map(({ method, path, operation }) => ({
    tag: String((operation.tags as string[] | undefined)?.[0] ?? ''),
    line: `${operation.operationId} ${method.toUpperCase()} ${path} ${operation['x-required-scope']}${
      (operation.security as object[] | undefined)?.some((s) => Object.keys(s).length === 0) ? ' (or anonymous)' : ''
    } — ${String(operation.summary ?? '').replace(/\s+/g, ' ')}`,
  }));
  const lines = [
    '# API operations',
    '',
    `Every operation of ${baseUrl}/openapi.json in one line: operationId METHOD path scope — summary. Paths are under ${baseUrl}; the MCP tool and the lyceum CLI command have the same operationId. The full schema of one: /openapi.json, paths[path][method]; tokens: ${baseUrl}/auth.md.`,
  ];
  for (const tag of [...new Set(rows.map((r) => r.tag))].sort()) {
    lines.push('', `## ${tag || 'other'}`, '');
    for (const row of rows.filter((r) => r.tag === tag)) lines.push(row.line);
  }
  return `${lines.join('\n')}\n`;
}
