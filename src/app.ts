import { randomBytes, randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController } from 'fastify';
import type { Redis } from 'ioredis';
import type { JWK } from 'oidc-provider';
import { registerApiSurface } from './areas/api-surface.ts';
import { buildAreas } from './areas/index.ts';
import { schoolStore } from './areas/school/store.ts';
import { mediaRoutes } from './areas/storage/routes.ts';
import type { Invalidations } from './cluster/invalidations.ts';
import type { Config } from './config.ts';
import type { Database } from './db/connect.ts';
import type { RequestWrites } from './db/request-writes.ts';
import { catalogStore } from './discovery/catalog-store.ts';
import { discoveryDocuments } from './discovery/documents.ts';
import { registerOpenApi } from './discovery/openapi.ts';
import { registerDiscoveryRoutes } from './discovery/routes.ts';
import { draining } from './health/draining.ts';
import { type SchoolMetrics, schoolMetrics, watchSchool } from './health/metrics.ts';
import { registerHealthRoutes, registerMetricsRoute } from './health/routes.ts';
import type { Tracing } from './health/tracing.ts';
import { installCompression } from './http/compression.ts';
import { clientErrorHandler, frameworkErrorHandler, installErrorHandlers } from './http/error-handler.ts';
import { requireRouteDeclarations } from './http/guard.ts';
import { internalCalls } from './http/internal-calls.ts';
import { loggerOptions } from './http/logging.ts';
import { installNulGuard } from './http/nul-guard.ts';
import { responseCache } from './http/response-cache.ts';
import { installSecurityHeaders, schoolSecurityHeaders } from './http/security-headers.ts';
import { serializerController } from './http/validation.ts';
import { emailVerificationService } from './identity/email-verification.ts';
import { passwordResetService } from './identity/password-reset.ts';
import { sessionService } from './identity/sessions.ts';
import { setupService } from './identity/setup.ts';
import { signInService } from './identity/signin.ts';
import { userTokensStore } from './identity/user-tokens-store.ts';
import { usersStore } from './identity/users-store.ts';
import { jobQueue } from './jobs/queue.ts';
import { accountMail } from './mail/account-mail.ts';
import { mailOutbox } from './mail/outbox.ts';
import { smtpTransport } from './mail/smtp.ts';
import { agentDocuments } from './mcp/documents.ts';
import { registerMcpSurface } from './mcp/surface.ts';
import { accessTokenVerifier } from './oauth/access-tokens.ts';
import { revokeGrant, revokeGrantsOf } from './oauth/adapter.ts';
import { connectedAppsService } from './oauth/connected-apps.ts';
import { keySetReader } from './oauth/keys.ts';
import { createProvider } from './oauth/provider.ts';
import { memoryShortLivedStore, redisShortLivedStore } from './oauth/short-lived-store.ts';
import { signingKeyKeeper } from './oauth/signing-key-keeper.ts';
import { registerOAuthSurface } from './oauth/surface.ts';
import { tokenCache } from './oauth/token-cache.ts';
import { operationCaller } from './operations/operation-calls.ts';
import { operationTools } from './operations/operation-tools.ts';
import { stripeClient } from './payments/stripe/client.ts';
import { stripeProvider } from './payments/stripe/provider.ts';
import { registerStripeWebhook } from './payments/stripe/webhook-route.ts';
import { type TestProvider, testProvider } from './payments/test-provider.ts';
import { addressKeyer } from './security/address-key.ts';
import type { RateLimiter } from './security/rate-limiter.ts';
import { loadOrCreateSecret } from './security/server-secrets.ts';
import { configuredBlobStore } from './storage/configured-blob-store.ts';
import { mediaUrls } from './storage/media-urls.ts';
import type { Clock } from './time/clock.ts';
import { registerAssetRoutes } from './web/shared/assets.ts';
import { renderErrorPage } from './web/shared/error-page.ts';
import { registerFaviconRoutes } from './web/shared/favicon.ts';
import { pageRenderer, pageWriter, requestPageContext } from './web/shared/page-context.ts';
import { pictureSource } from './web/shared/pictures.ts';
import { shareImages } from './web/shared/share-images.ts';
import { sharedPages, WEB_CACHE } from './web/shared/shared-pages.ts';
import { defaultLinksCache, defaultLinksOf } from './web/shared/site-links.ts';
import { registerThemeRoute, siteLook } from './web/shared/theme.ts';
import { browserSessions, sessionCookie } from './web/shared/viewer.ts';
import { registerSitemap } from './web/site/sitemap-page.ts';
import { registerPageSurface } from './web/surface.ts';

const APP_VERSION = '0.1.0';

export type AppDeps = {
  config: Config;
  database: Database;
  limiter: RateLimiter;
  clock: Clock;
  /** Tells every instance what to drop from its caches (through Redis when configured). */
  invalidations: Invalidations;
  /** The Redis command connection (db/redis.ts), when REDIS_URL is set: the short-lived records and /readyz use it. */
  redis?: Redis;
  /** Cookie signing keys, newest first; generated on first start and kept in the database. */
  cookieKeys: string[];
  /** ID-token signing keys (private JWKs), generated on first start and kept in the database. */
  signingKeys: JWK[];
  /** Keys that sign the authorization server's own cookies. */
  oidcCookieKeys: string[];
  /** Where JSON log lines go; standard output when absent. */
  logStream?: NodeJS.WritableStream;
  /**
   * The request write contexts the database was connected with: each API write's audit row, and its Idempotency-Key's
   * answer, are written in its transaction.
   */
  requestWrites: RequestWrites;
  /** The figures /metrics shows; the database was connected with its query timer. Made here when absent. */
  metrics?: SchoolMetrics;
  /** OpenTelemetry traces, when an OTLP endpoint is configured (health/tracing.ts). */
  tracing?: Tracing;
};

/** The composition root of the HTTP application: every service is built here from its dependencies. */
export async function buildApp(deps: AppDeps) {
  const { config, database, clock, limiter } = deps;
  const db = database.db;
  const https = config.BASE_URL.startsWith('https:');

  const app = Fastify({
    logger: loggerOptions(config.LOG_LEVEL, deps.logStream),
    // One line per request, written when it completes (Fastify's default writes two).
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy:
      typeof config.TRUST_PROXY === 'number'
        ? (_address: string, hop: number) => hop < (config.TRUST_PROXY as number)
        : config.TRUST_PROXY === false
          ? false
          : config.TRUST_PROXY.split(','),
    bodyLimit: config.BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    return503OnClosing: true,
    // Slugs are up to 120 characters; the router's default (100) would refuse the longest before validation does.
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 256 },
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    schemaController: serializerController,
  }).withTypeProvider<TypeBoxTypeProvider>();

  // The 404 page's context is built below with the page services; it is first asked for once the app is serving.
  installErrorHandlers(app, { pageContext: (request) => pageContext(request), renderErrorPage });
  installNulGuard(app);
  /** Every route the app registers, as declared (the contract test and generated documents read it). */
  const routes = requireRouteDeclarations(app);
  await installCompression(app);
  await registerOpenApi(app, { baseUrl: config.BASE_URL, clock });
  const stopping = draining();
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (stopping.on) reply.header('connection', 'close');
  });
  // Before any other hook logs: every line of a traced request carries its trace and span ids.
  deps.tracing?.install(app);
  // At debug level a request is also logged as it arrives: a request that never completes is then visible.
  app.addHook('onRequest', async (request) => {
    request.log.debug({ req: request }, 'request received');
  });
  const metrics = deps.metrics ?? schoolMetrics();
  watchSchool(metrics, { db, clock, pool: database.pool });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      { req: request, statusCode: reply.statusCode, responseTime: reply.elapsedTime },
      'request completed',
    );
    // The route's pattern, never the path asked for: a label per URL would grow without end.
    metrics.request(
      request.routeOptions.url ?? 'unmatched',
      request.method,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });

  installSecurityHeaders(app, schoolSecurityHeaders(https));
  await app.register(cookie, { secret: deps.cookieKeys });
  await app.register(formbody);
  await app.register(csrf, {
    sessionPlugin: '@fastify/cookie',
    cookieKey: config.COOKIE_SECURE ? '__Host-lyceum_csrf' : 'lyceum_csrf',
    cookieOpts: { path: '/', httpOnly: true, sameSite: 'lax', secure: config.COOKIE_SECURE, signed: true },
    getToken: (request) => (request.body as { _csrf?: string } | undefined)?._csrf,
  });

  const users = usersStore();
  const school = schoolStore();
  const sessions = sessionService({ db, clock, ttlHours: config.SESSION_TTL_HOURS });
  const jobs = jobQueue({
    db,
    engine: config.database.engine,
    clock,
    log: (message, fields) => app.log.warn(fields, message),
  });
  const transport = config.SMTP_URL ? smtpTransport(config.SMTP_URL) : undefined;
  if (transport) app.addHook('onClose', async () => transport.close());
  const mailHost = new URL(config.BASE_URL).hostname;
  const outbox = mailOutbox({
    db,
    clock,
    jobs,
    transport,
    from: async () =>
      config.MAIL_FROM || {
        name: (await school.get(db))?.name ?? 'Lyceum',
        address: `no-reply@${mailHost}`,
      },
    log: (message, fields) => app.log.warn(fields, message),
  });
  const userTokens = userTokensStore();
  const mail = accountMail({
    outbox,
    tokens: userTokens,
    clock,
    baseUrl: config.BASE_URL,
    schoolName: async (ex) => (await school.get(ex))?.name,
  });
  const passwordReset = passwordResetService({ db, clock, users, tokens: userTokens, mail, sessions, limiter });
  const verification = emailVerificationService({ db, clock, users, tokens: userTokens, mail });
  const setup = setupService({ db, clock, users, school, mail });
  const signin = signInService({
    db,
    clock,
    users,
    school,
    limiter,
    limits: config,
    mail,
  });
  const cookie_ = sessionCookie(config.COOKIE_SECURE);
  const browser = browserSessions({ sessions, cookie: cookie_ });

  const tokens = tokenCache({
    ttlMs: config.TOKEN_CACHE_SECONDS * 1000,
    now: () => clock.now().getTime(),
    onLookup: (hit) => metrics.cacheLookup('tokens', hit),
  });
  const verifyAccessToken = accessTokenVerifier({ db, clock, cache: tokens });
  // Short-lived authorization records: in Redis when instances share one, in this process when the school is one
  // process (SQLite), else in SQL with everything else (PostgreSQL without Redis: instances share only the database).
  const shortLived = deps.redis
    ? redisShortLivedStore(deps.redis, `${config.REDIS_PREFIX}oidc:`)
    : config.database.engine === 'sqlite'
      ? memoryShortLivedStore({ now: () => clock.now().getTime() })
      : undefined;
  if (shortLived) app.addHook('onClose', () => shortLived.close());
  const signingKeys = signingKeyKeeper({
    db,
    clock,
    keys: deps.signingKeys,
    rotateEveryDays: config.SIGNING_KEY_ROTATE_DAYS,
    log: (message, fields) => app.log.info(fields, message),
    make: (keys) =>
      createProvider({
        shortLived,
        config,
        db,
        clock,
        users,
        signingKeys: keys,
        cookieKeys: deps.oidcCookieKeys,
        logError: (error, context) => app.log.error({ err: error }, context),
        logUnavailable: (fields, context) => app.log.warn(fields, context),
        onRevoke: () => deps.invalidations.publish('tokens'),
      }),
  });
  app.addHook('onClose', async () => signingKeys.stop());
  const provider = signingKeys.provider;
  const connectedApps = connectedAppsService({ db, onRevoke: () => deps.invalidations.publish('tokens') });

  const responses = responseCache({
    ttlMs: config.LIST_CACHE_MS,
    onLookup: (hit) => metrics.cacheLookup('responses', hit),
  });
  const blobs = await configuredBlobStore(config, app.log);
  app.addHook('onClose', () => blobs.close());
  const media = mediaUrls({
    baseUrl: config.BASE_URL,
    key: await loadOrCreateSecret(db, clock, 'media_url_key', () => randomBytes(32).toString('base64url')),
    ttlSeconds: config.MEDIA_URL_TTL_SECONDS,
  });
  /** The built-in test provider, when it is the configured one (its page is served below). */
  let testPayments: TestProvider | undefined;
  const stripe = config.PAYMENTS_PROVIDER === 'stripe' ? await stripeClient(config) : undefined;
  const areas = buildAreas({
    writes: deps.requestWrites,
    blobs,
    mediaUrls: media,
    db,
    clock,
    config,
    jobs,
    sessions,
    connectedApps,
    oauth: { revokeGrant, revokeGrantsOf },
    onCatalogChange: () => deps.invalidations.publish('catalog'),
    onAccessChange: () => deps.invalidations.publish('tokens'),
    mail,
    verification,
    limiter,
    addressKey: addressKeyer(
      await loadOrCreateSecret(db, clock, 'address_key', () => randomBytes(32).toString('base64url')),
    ),
    paymentProvider: (sink) => {
      if (config.PAYMENTS_PROVIDER === 'test')
        testPayments = testProvider({ db, clock, baseUrl: config.BASE_URL, sink });
      if (stripe) return stripeProvider({ stripe, db, log: (message, fields) => app.log.warn(fields, message) });
      return testPayments;
    },
  });

  const schoolName = async () => (await school.get(db))?.name;
  const defaultLinks = defaultLinksCache(() => defaultLinksOf(areas), {
    ttlMs: config.DOCS_CACHE_SECONDS * 1000,
    now: () => clock.now().getTime(),
  });
  // The pages' language is the school's locale (<html lang>), read with the school's name.
  const look = siteLook(areas.appearance, defaultLinks.get, async () => (await school.get(db))?.locale);
  const write = pageWriter({ schoolName, look });
  const render = pageRenderer({ write });
  const pageContext = requestPageContext({ schoolName, look, sessions, cookie: cookie_ });
  const site = {
    areas,
    baseUrl: config.BASE_URL,
    pages: sharedPages({ write, cache: responses }),
    pictures: pictureSource({ images: areas.storage.images, assetOf: media.assetOf }),
    share: shareImages({ areas, schoolName, baseUrl: config.BASE_URL, assetOf: media.assetOf }),
  };

  registerHealthRoutes(app, { database, redis: deps.redis, stopping });
  registerMetricsRoute(app, { metrics, token: config.METRICS_TOKEN });
  await registerOAuthSurface(app, {
    provider,
    limiter,
    config,
    clock,
    verify: verifyAccessToken,
    jwks: keySetReader(db, clock),
  });
  const documents = discoveryDocuments({
    db,
    clock,
    baseUrl: config.BASE_URL,
    school,
    store: catalogStore(),
    ttlMs: config.DOCS_CACHE_SECONDS * 1000,
    takesPayments: areas.orders.takesPayments,
    upcomingEvents: (limit) => areas.events.upcomingPublic(limit),
  });
  deps.invalidations.on('tokens', () => tokens.clear());
  const sitemap = registerSitemap(app, {
    ...site,
    now: () => clock.now().getTime(),
    ttlMs: config.DOCS_CACHE_SECONDS * 1000,
  });
  deps.invalidations.on('catalog', () => {
    responses.clear('courses');
    responses.clear('mcp');
    responses.clear(WEB_CACHE);
    documents.invalidate();
    sitemap.invalidate();
    defaultLinks.invalidate();
  });
  registerDiscoveryRoutes(app, { config, db, school, documents });
  registerAssetRoutes(app);
  mediaRoutes(app, areas.storage);
  registerThemeRoute(app, { appearance: areas.appearance });
  registerFaviconRoutes(app, { appearance: areas.appearance, schoolName });
  if (stripe) await registerStripeWebhook(app, { db, clock, config, stripe, sink: areas.orders.sink });
  const internal = internalCalls();
  const auditedRoutes = await registerApiSurface(app, {
    areas,
    db,
    clock,
    engine: config.database.engine,
    requestWrites: deps.requestWrites,
    verify: verifyAccessToken,
    baseUrl: config.BASE_URL,
    internalCalls: internal,
    responses,
    onWrite: () => deps.invalidations.publish('catalog'),
  });
  // Every API operation is an MCP tool and an admin screen, derived from the routes registered just above.
  const operations = operationTools(routes);
  const callOperation = operationCaller({ app, internalCalls: internal });
  const mcp = await registerMcpSurface(app, {
    baseUrl: config.BASE_URL,
    version: APP_VERSION,
    areas,
    operations,
    documents: agentDocuments({ config, db, school, documents }),
    callOperation,
    verify: verifyAccessToken,
    responses,
  });
  await registerPageSurface(app, {
    areas,
    site,
    render,
    write,
    schoolName,
    school: () => school.get(db),
    sessions,
    cookie: cookie_,
    browser,
    setup,
    signin,
    passwordReset,
    verification,
    provider,
    connectedApps,
    testPayments,
    operations,
    callOperation,
    internalCalls: internal,
    clock,
    config,
  });

  return {
    app,
    services: {
      setup,
      sessions,
      signin,
      users,
      school,
      provider,
      signingKeys,
      verifyAccessToken,
      connectedApps,
      areas,
      mcp,
      documents,
      jobs,
      /** Account messages for other areas: invitations and enrollment confirmations (see mail/account-mail.ts). */
      mail,
      outbox,
      passwordReset,
      verification,
      invalidations: deps.invalidations,
    },
    routes,
    auditedRoutes,
    stopping,
  };
}

export type App = Awaited<ReturnType<typeof buildApp>>;
