import { randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import { buildAreas } from '../areas/index.ts';
import { schoolStore } from '../areas/school/store.ts';
import type { Config } from '../config.ts';
import { requestWrites } from '../db/request-writes.ts';
import type { Db, Tables } from '../db/tables.ts';
import { emailVerificationService } from '../identity/email-verification.ts';
import { sessionService } from '../identity/sessions.ts';
import { setupService } from '../identity/setup.ts';
import { signInService } from '../identity/signin.ts';
import { userTokensStore } from '../identity/user-tokens-store.ts';
import { usersStore } from '../identity/users-store.ts';
import { jobQueue } from '../jobs/queue.ts';
import { accountMail } from '../mail/account-mail.ts';
import { mailOutbox } from '../mail/outbox.ts';
import { addressKeyer } from '../security/address-key.ts';
import { memoryRateLimiter } from '../security/rate-limiter.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { mediaUrls } from '../storage/media-urls.ts';
import type { Clock } from '../time/clock.ts';

/** A clock the demo sets to the moment each step happened (a course made four months ago, a lesson done last week). */
export type DemoClock = Clock & { set(ms: number): void };

export function demoClock(startMs: number): DemoClock {
  let at = startMs;
  return {
    now: () => new Date(at),
    set: (ms) => {
      at = ms;
    },
  };
}

/**
 * The one transaction of the demo, handed to the services as their database: a service that opens a transaction of
 * its own runs it inside this one, so the whole demo is still written, or not, at once.
 */
function boundTo(trx: Transaction<Tables>): Db {
  const inside = { execute: <T>(fn: (t: Transaction<Tables>) => Promise<T>) => fn(trx) };
  return new Proxy(trx, {
    get(target, property) {
      if (property === 'transaction') return () => inside;
      // Kysely keeps its state in private fields: its methods run on the transaction itself, not on this proxy.
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as unknown as Db;
}

/**
 * The services the demo writes through: the areas as the composition root builds them (areas/index.ts buildAreas), on
 * the demo's transaction and clock: every demo object passes the same rules as an API call. No worker runs here; the jobs they queue (a post's publication, the mail) run once the school
 * is started. Nothing is sent either: without SMTP the outbox keeps the messages, as the school itself would.
 */
export function demoServices(trx: Transaction<Tables>, clock: Clock, config: Config, blobs: BlobStore) {
  const db = boundTo(trx);
  const jobs = jobQueue({ db, engine: config.database.engine, clock, log: () => {} });
  const deps = { db, clock, config, jobs };
  const users = usersStore();
  const school = schoolStore();
  const outbox = mailOutbox({
    db,
    clock,
    jobs,
    transport: undefined,
    from: async () => ({ name: 'Lyceum', address: 'no-reply@localhost' }),
    log: () => {},
  });
  const mail = accountMail({
    outbox,
    tokens: userTokensStore(),
    clock,
    baseUrl: config.BASE_URL,
    schoolName: async (ex) => (await school.get(ex))?.name,
  });
  const limiter = memoryRateLimiter(() => clock.now().getTime());
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
  // The addresses the storage area answers an upload with are not kept: a key of the demo's own spares reading the
  // school's secret.
  const areas = buildAreas({
    ...deps,
    // The demo is no request: nothing it writes carries an audit row or an Idempotency-Key.
    writes: requestWrites(),
    sessions: sessionService({ db, clock, ttlHours: config.SESSION_TTL_HOURS }),
    connectedApps: {
      list: async () => [],
      revoke: async () => {
        throw new Error('the demo revokes no app');
      },
    },
    oauth: {
      revokeGrant: async () => {
        throw new Error('the demo revokes no grant');
      },
      revokeGrantsOf: async () => {
        throw new Error('the demo revokes no grant');
      },
    },
    onCatalogChange: () => {},
    onAccessChange: () => {},
    mail,
    verification: emailVerificationService({ db, clock, users, tokens: userTokensStore(), mail }),
    blobs,
    mediaUrls: mediaUrls({
      baseUrl: config.BASE_URL,
      key: randomBytes(32).toString('base64url'),
      ttlSeconds: config.MEDIA_URL_TTL_SECONDS,
    }),
    paymentProvider: () => undefined,
    limiter,
    addressKey: addressKeyer(randomBytes(32).toString('base64url')),
  });
  return { setup, signin, ...areas };
}

export type DemoServices = ReturnType<typeof demoServices>;
