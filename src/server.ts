import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from './app.ts';
import { scheduleBackups } from './backup/schedule.ts';
import { invalidations } from './cluster/invalidations.ts';
import { type Config, listenOrigin } from './config.ts';
import { connectDatabase, type Database, SchemaAheadError } from './db/connect.ts';
import { migrationProvider } from './db/migrations/index.ts';
import { connectRedis, type RedisLog, whenReady } from './db/redis.ts';
import { requestWrites } from './db/request-writes.ts';
import { schoolMetrics } from './health/metrics.ts';
import { startTracing } from './health/tracing.ts';
import { startOauthHousekeeping } from './oauth/housekeeping.ts';
import { loadSigningKeys } from './oauth/keys.ts';
import { fallbackRateLimiter, memoryRateLimiter, redisRateLimiter } from './security/rate-limiter.ts';
import { loadOrCreateSecret } from './security/server-secrets.ts';
import { randomToken } from './security/tokens.ts';
import { type Clock, systemClock } from './time/clock.ts';
import { LYCEUM_VERSION } from './version.ts';

export type RunningServer = {
  url: string;
  app: Awaited<ReturnType<typeof buildApp>>['app'];
  services: Awaited<ReturnType<typeof buildApp>>['services'];
  routes: Awaited<ReturnType<typeof buildApp>>['routes'];
  /** The write routes whose writes carry an audit row. */
  auditedRoutes: Awaited<ReturnType<typeof buildApp>>['auditedRoutes'];
  database: Database;
  /**
   * The first step of a graceful stop: for `ms`, keeps serving while /readyz answers 503 and every response closes its
   * connection, so the load balancer stops sending requests here before `close` stops accepting them.
   */
  drain(ms: number): Promise<void>;
  /** Stops accepting, lets in-flight requests finish, then closes the database and Redis. */
  close(): Promise<void>;
};

/** config -> database (migrated) -> secrets -> app -> listen; logs the one-time setup link while the school has no owner. */
/** How often an instance on a schema behind its code looks whether the migrations ran. */
const SCHEMA_POLL_MS = 5_000;
/** How long a stopping instance waits for the job under way before handing it back to the queue. */
const JOB_STOP_GRACE_MS = 5_000;

const migrationCount = async () => Object.keys(await migrationProvider.getMigrations()).length;

export async function startServer(
  config: Config,
  options: { clock?: Clock; logStream?: NodeJS.WritableStream } = {},
): Promise<RunningServer> {
  const clock = options.clock ?? systemClock;
  // Each API write's audit row and Idempotency-Key answer ride its request's write context into its transaction.
  const writes = requestWrites();
  // The connections report their failures (the database or Redis restarting) to the app's logger once it exists;
  // before that, a failure stops the start anyway.
  let log: FastifyBaseLogger | undefined;
  const metrics = schoolMetrics();
  const tracing = await startTracing(config, {
    engine: config.database.engine,
    version: LYCEUM_VERSION,
    log: (level, message, fields) => log?.[level](fields, message),
  });
  const database = connectDatabase(config.database, {
    poolSize: config.DATABASE_POOL_SIZE,
    requestWrites: writes,
    onQuery: (seconds, query) => {
      metrics.query(seconds);
      tracing?.query(seconds, query);
    },
    onConnectionError: (error) =>
      log?.warn(
        { err: { message: error.message, code: (error as { code?: string }).code } },
        'database connection lost',
      ),
  });
  let behind = false;
  if (config.MIGRATE_ON_START === 'true') await database.migrate();
  else {
    const { pending, unknown } = await database.schema();
    if (unknown.length) throw new SchemaAheadError(unknown);
    if (pending.length === (await migrationCount()))
      throw new SchemaAheadError([], 'The database has no schema yet: run npm run migrate first.');
    behind = pending.length > 0;
  }
  const redisLog: RedisLog = (level, message, fields) => log?.[level](fields ?? {}, message);
  const redis = config.REDIS_URL ? connectRedis(config.REDIS_URL, { log: redisLog }) : undefined;
  const memoryLimiter = memoryRateLimiter(() => clock.now().getTime());
  // While Redis is away, rate limits count in this instance's memory (the reasons are at fallbackRateLimiter).
  const limiter = redis
    ? fallbackRateLimiter(redisRateLimiter(redis, `${config.REDIS_PREFIX}rl:`), memoryLimiter, (to) =>
        to === 'fallback'
          ? log?.warn('Redis unreachable: rate limits are counted in this instance until it is back')
          : log?.info('Redis back: rate limits are shared again'),
      )
    : memoryLimiter;
  const bus = invalidations({
    redisUrl: config.REDIS_URL,
    channel: `${config.REDIS_PREFIX}invalidations`,
    log: redisLog,
  });
  const cookieKey = await loadOrCreateSecret(database.db, clock, 'cookie_key', () => randomToken(32));
  const oidcCookieKey = await loadOrCreateSecret(database.db, clock, 'oidc_cookie_key', () => randomToken(32));
  const signingKeys = await loadSigningKeys(database.db, clock);
  const { app, services, routes, auditedRoutes, stopping } = await buildApp({
    config,
    database,
    requestWrites: writes,
    limiter,
    clock,
    invalidations: bus,
    redis,
    cookieKeys: [cookieKey],
    oidcCookieKeys: [oidcCookieKey],
    signingKeys,
    logStream: options.logStream,
    metrics,
    tracing,
  });
  log = app.log;
  const housekeeping = startOauthHousekeeping({
    db: database.db,
    clock,
    log: (msg, counts) => app.log.info(counts, msg),
  });
  const backups = config.BACKUP_DIR
    ? scheduleBackups({ config, db: database.db, clock, jobs: services.jobs, version: LYCEUM_VERSION })
    : undefined;
  /** The background work: on a schema behind the code it waits for the migrations (it would fail jobs meanwhile). */
  const background = async () => {
    await housekeeping.run();
    await backups?.start();
    // Scheduled posts queue a job due at their time; this catches any that fell due before the jobs existed.
    await services.areas.posts.publishDue();
    // Images uploaded before variants were made get theirs now, once, in the background.
    await services.areas.storage.queueMissingVariants();
    services.jobs.start(config.JOBS_POLL_MS);
  };
  let waiting: NodeJS.Timeout | undefined;
  if (!behind) await background();
  else {
    waiting = setInterval(() => {
      void database.schema().then(
        async ({ pending }) => {
          if (pending.length || !waiting) return;
          clearInterval(waiting);
          waiting = undefined;
          app.log.info('the migrations ran: background work starts');
          await background();
        },
        () => undefined,
      );
    }, SCHEMA_POLL_MS);
    waiting.unref();
  }
  app.addHook('onClose', async () => {
    clearInterval(waiting);
    housekeeping.stop();
    // Within the 10 s a stop is given (main.ts), after the requests in flight: a job still running is handed back.
    await services.jobs.stop({ graceMs: JOB_STOP_GRACE_MS });
    await limiter.close();
    await bus.close();
    await redis?.quit().catch(() => redis.disconnect());
    await database.close();
    await tracing?.close();
  });
  if (redis && !(await whenReady(redis, 3_000))) {
    app.log.warn(
      'Redis is not reachable yet: /readyz and the authorization flows answer 503 until it is; the school connects by itself when it comes up',
    );
  }
  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (error) {
    // A taken port: close what was opened (database, Redis, timers) so the caller can retry or exit cleanly.
    await app.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  if (['127.0.0.1', '[::1]'].includes(new URL(config.BASE_URL).hostname)) {
    // Cookies are not separated by port (RFC 6265 §8.5), and loopback apps receive their redirects on this host.
    app.log.warn(
      "BASE_URL is a loopback IP address: browsers send this school's cookies to the apps' loopback redirect listeners too. Fine on your own machine; for shared use, serve the school under a host name (BASE_URL=https://school.example).",
    );
  }
  const base = config.BASE_URL.replace(/:0$/, `:${port}`);
  if (!services.outbox.delivers) {
    app.log.warn(
      { outbox_url: `${base}/admin/outbox` },
      `Mail is not being delivered: SMTP_URL is not set. Messages (password resets, invitations, confirmations) are kept in the outbox; the owner reads them, links whole, at ${base}/admin/outbox`,
    );
  }
  const setupToken = await services.setup.issueToken();
  if (setupToken) {
    app.log.warn(
      { setup_url: `${base}/setup?token=${setupToken}` },
      'The school is not set up yet: open the setup link once to create it',
    );
  }
  await services.sessions.purgeExpired();
  return {
    url: listenOrigin(config.HOST, port),
    app,
    services,
    routes,
    auditedRoutes,
    database,
    drain: async (ms) => {
      stopping.begin();
      if (ms > 0) await sleep(ms);
    },
    close: () => app.close(),
  };
}
