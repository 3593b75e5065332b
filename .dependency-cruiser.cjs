// The layer rules of src/, checked by `npm run lint`; README.md sums them up (its paragraph on `npm run lint`).
// The floors, lowest first; a room imports only from its own floor or below:
//   config.ts, time/ (Clock), text/ (the html template, money for people)
//   db/ -> security/ (roles, scopes, tokens, the authorization server's endpoints) -> http/
//   jobs/, mail/, storage/, payments/, identity/ -> areas/
//   operations/ (the route table as operations, the in-process caller) and the surfaces: oauth/, web/, mcp/,
//   discovery/, cli/ -> app.ts (the one composition root), server.ts, main.ts
// Type-only imports count: a type import is still a dependency on the module that declares the type.

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Modules that import each other, even only for types, can no longer be understood or moved one at a time.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment:
        'Every import resolves. This also guards the check itself: an import it cannot follow is one it cannot judge.',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
    {
      name: 'db-is-the-bottom',
      severity: 'error',
      comment: 'db/ (connection, tables, migrations, query helpers) is below everything and imports only config.ts.',
      from: { path: '^src/db/' },
      to: { path: '^src/', pathNot: ['^src/db/', '^src/config[.]ts$'] },
    },
    {
      name: 'time-is-the-floor',
      severity: 'error',
      comment:
        'time/ (the one Clock every service, cache, limiter and job takes) is used from security/ up, so it imports ' +
        'nothing of the school.',
      from: { path: '^src/time/' },
      to: { path: '^src/', pathNot: '^src/time/' },
    },
    {
      name: 'text-is-the-floor',
      severity: 'error',
      comment:
        'text/ (the escaping `html` template, money for people) is written by mail/, the areas and every surface ' +
        'alike, so it imports nothing of the school.',
      from: { path: '^src/text/' },
      to: { path: '^src/', pathNot: '^src/text/' },
    },
    {
      name: 'security-is-below-the-layers',
      severity: 'error',
      comment:
        'security/ (passwords, tokens, the scope table, what a token says) is shared by the API, the authorization ' +
        'server and the pages, so it imports none of them: only the floor beneath it (db/, time/, config.ts). The ' +
        'roles a person can hold (security/roles.ts) live here for that reason, not in identity/.',
      from: { path: '^src/security/' },
      to: { path: '^src/', pathNot: ['^src/(security|db|time)/', '^src/config[.]ts$'] },
    },
    {
      name: 'jobs-run-below-the-areas',
      severity: 'error',
      comment:
        'jobs/ is the durable queue the areas hand work to; each area registers its handlers at the composition ' +
        'root, so the queue imports no area, page or HTTP code.',
      from: { path: '^src/jobs/' },
      to: { path: ['^src/(http|web|oauth|areas|mcp|discovery|health|cluster|demo)/', '^src/(app|server|main)[.]ts$'] },
    },
    {
      name: 'http-knows-no-pages-or-oauth',
      severity: 'error',
      comment:
        'http/ is the plumbing every route uses: it imports neither the pages (web/) nor the authorization server ' +
        '(oauth/) nor what is built on it; the composition root passes in what it needs (the HTML error page, the ' +
        'token verifier). It stands on security/, db/ and time/ only: a principal carries a role from ' +
        'security/roles.ts, not from identity/.',
      from: { path: '^src/http/' },
      to: { path: '^src/', pathNot: ['^src/(http|security|db|time)/', '^src/config[.]ts$'] },
    },
    {
      name: 'only-pages-and-consent-render-html',
      severity: 'error',
      comment:
        'The views (web/) are used by the pages themselves, the authorization server (login, consent and its own ' +
        'error pages) and the composition root; nothing under them imports them. What the mail messages share ' +
        'with the pages, the escaping `html` template, lives on the floor in text/html.ts.',
      from: { path: '^src/', pathNot: ['^src/web/', '^src/oauth/', '^src/app[.]ts$'] },
      to: { path: '^src/web/' },
    },
    {
      name: 'mail-is-below-the-areas',
      severity: 'error',
      comment:
        'mail/ (messages and their delivery) is used by identity/ and the areas, so it imports none of them and no ' +
        'surface: a message is a pure function of typed data, written with text/html.ts like a view.',
      from: { path: '^src/mail/' },
      to: {
        path: [
          '^src/(web|oauth|areas|mcp|discovery|operations|health|cluster|demo|cli)/',
          '^src/(app|server|main)[.]ts$',
        ],
      },
    },
    {
      name: 'pages-read-through-services',
      severity: 'error',
      comment: 'Pages read the school through its services, never a store or the database directly.',
      from: { path: '^src/web/' },
      to: { path: ['^src/db/', '(^|/)store[.]ts$', '-store[.]ts$'] },
    },
    {
      name: 'identity-storage-and-payments-are-below-the-areas',
      severity: 'error',
      comment:
        'identity/ (people, sessions, sign-in, setup), storage/ (asset bytes) and payments/ (the provider adapters) ' +
        'are used by the areas and the pages, so they import neither. What sign-in and setup need of the school ' +
        'row they name in their own deps type, and the composition root passes the school store in.',
      from: { path: '^src/(identity|storage|payments)/' },
      to: {
        path: [
          '^src/(areas|web|oauth|mcp|discovery|operations|cli|health|demo|cluster)/',
          '^src/(app|server|main)[.]ts$',
        ],
      },
    },
    {
      name: 'areas-are-below-the-surfaces',
      severity: 'error',
      comment:
        'The areas hold the school; the surfaces (the authorization server oauth/, the pages web/, mcp/, discovery/, ' +
        'operations/, the CLI) are built on them. What an area needs from one comes in from the composition root ' +
        'through a port (areas/oauth-port.ts: revoking a grant, the connected apps); a shared helper moves down ' +
        '(http/etag.ts, text/money.ts).',
      from: { path: '^src/areas/' },
      to: {
        path: ['^src/(web|oauth|mcp|discovery|operations|cli|health|demo|cluster)/', '^src/(app|server|main)[.]ts$'],
      },
    },
    {
      name: 'areas-meet-through-services-and-ports',
      severity: 'error',
      comment:
        'An area reaches another only through what that area publishes: its service (the type, from service.ts) and ' +
        'its schemas (the shapes of its API, schema.ts). Anything else it needs of another area (a rule, a query, a ' +
        'write in the same transaction) it declares as a port (orders/ports.ts, subscriptions/ports.ts) that the ' +
        "composition root (areas/index.ts) fills from the owning area, so no area reads another one's store, " +
        'helpers or tables.',
      from: { path: '^src/areas/([^/]+)/' },
      to: { path: '^src/areas/[^/]+/', pathNot: ['^src/areas/$1/', '^src/areas/[^/]+/(service|schema)[.]ts$'] },
    },
    {
      name: 'other-areas-services-are-types',
      severity: 'error',
      comment:
        "Of another area's service an area imports only the type: the service object itself comes from the " +
        'composition root, so areas are built in one place and none can start another.',
      from: { path: '^src/areas/([^/]+)/' },
      to: { path: '^src/areas/[^/]+/service[.]ts$', pathNot: '^src/areas/$1/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'services-know-no-http',
      severity: 'error',
      comment:
        'An area service holds the rules and transactions and knows nothing of HTTP: no Fastify, no routes, and of ' +
        'http/ only the error table and the principal.',
      from: { path: '^src/areas/[^/]+/service[.]ts$' },
      to: {
        path: ['^src/http/', '(^|/)node_modules/fastify/', '/routes[.]ts$'],
        pathNot: '^src/http/(errors|principal)[.]ts$',
      },
    },
    {
      name: 'stores-are-kysely-only',
      severity: 'error',
      comment: 'A store is queries (Kysely) over a transaction or the db: it imports no services, routes or HTTP.',
      from: { path: ['^src/areas/[^/]+/store[.]ts$', '^src/[^/]+/[^/]+-store[.]ts$'] },
      to: {
        path: ['^src/(http|web|oauth|mcp|discovery|health)/', '/(service|routes)[.]ts$', '(^|/)node_modules/fastify/'],
      },
    },
    {
      name: 'operations-serve-the-surfaces',
      severity: 'error',
      comment:
        'operations/ (the route table as operations, and the one in-process caller) is the door the admin, the ' +
        'checkout and MCP all run API operations through, so it imports none of the surfaces built on it.',
      from: { path: '^src/operations/' },
      to: { path: ['^src/(web|mcp|discovery|oauth|cli|demo|health)/', '^src/(app|server|main)[.]ts$'] },
    },
    {
      name: 'web-shared-serves-every-audience',
      severity: 'error',
      comment:
        'web/shared/ (layout, page context, viewer, CSRF and form helpers, error page, the small views every page ' +
        'uses) is what the public site, the account pages and the admin stand on, so it imports none of them.',
      from: { path: '^src/web/shared/' },
      to: { path: '^src/web/(site|account|admin)/' },
    },
    {
      name: 'pages-do-not-reach-into-mcp',
      severity: 'error',
      comment:
        'web/ and mcp/ are two surfaces over the same operations: what both need lives in operations/, not in either.',
      from: { path: '^src/web/' },
      to: { path: '^src/mcp/' },
    },
    {
      name: 'documents-describe-oauth-from-the-floor',
      severity: 'error',
      comment:
        'discovery/ and mcp/ describe the authorization server (auth.md, openapi.json, the protected-resource ' +
        'challenge) but are not built on it: its endpoints, resource identifiers and redirect-URI form come from ' +
        'security/oauth-endpoints.ts, which oauth/ itself reads, so the documents cannot drift from the server.',
      from: { path: '^src/(discovery|mcp)/' },
      to: { path: '^src/oauth/' },
    },
    {
      name: 'one-composition-root',
      severity: 'error',
      comment: 'app.ts builds everything from its dependencies; only server.ts (and main.ts, through it) imports it.',
      from: { path: '^src/', pathNot: '^src/(main|server)[.]ts$' },
      to: { path: '^src/(app|server|main)[.]ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Also the imports TypeScript erases (`import type`): they are dependencies as much as any other.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      // Packages such as typebox and kysely/migration are found through their package.json "exports".
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.d.ts', '.json'],
    },
    skipAnalysisNotInRules: true,
  },
};
