import { randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import { appearanceService } from '../areas/appearance/service.ts';
import { appearanceStore } from '../areas/appearance/store.ts';
import { certificatesService } from '../areas/certificates/service.ts';
import { certificatesStore } from '../areas/certificates/store.ts';
import { commentsService } from '../areas/comments/service.ts';
import { commentsStore } from '../areas/comments/store.ts';
import { couponsService } from '../areas/coupons/service.ts';
import { couponsStore } from '../areas/coupons/store.ts';
import { coursesService } from '../areas/courses/service.ts';
import { coursesStore } from '../areas/courses/store.ts';
import { curriculumService } from '../areas/curriculum/service.ts';
import { curriculumStore } from '../areas/curriculum/store.ts';
import { eventsService } from '../areas/events/service.ts';
import { eventsStore } from '../areas/events/store.ts';
import { formsService } from '../areas/forms/service.ts';
import { formsStore } from '../areas/forms/store.ts';
import { lecturersService } from '../areas/lecturers/service.ts';
import { lecturersStore } from '../areas/lecturers/store.ts';
import { plansService } from '../areas/membership-plans/service.ts';
import { plansStore } from '../areas/membership-plans/store.ts';
import { pagesService } from '../areas/pages/service.ts';
import { pagesStore } from '../areas/pages/store.ts';
import { postsService } from '../areas/posts/service.ts';
import { postsStore } from '../areas/posts/store.ts';
import { schoolService } from '../areas/school/service.ts';
import { schoolStore } from '../areas/school/store.ts';
import { staffService } from '../areas/staff/service.ts';
import { staffStore } from '../areas/staff/store.ts';
import { storageService } from '../areas/storage/service.ts';
import { storageStore } from '../areas/storage/store.ts';
import { enrollmentRules } from '../areas/students/enrollments.ts';
import { studentsService } from '../areas/students/service.ts';
import { studentsStore } from '../areas/students/store.ts';
import { planAccess } from '../areas/subscriptions/access.ts';
import { membershipRule } from '../areas/subscriptions/memberships.ts';
import { subscriptionsStore } from '../areas/subscriptions/store.ts';
import type { Config } from '../config.ts';
import type { Db, Tables } from '../db/tables.ts';
import { invitations } from '../identity/invitations.ts';
import { setupService } from '../identity/setup.ts';
import { signInService } from '../identity/signin.ts';
import { userTokensStore } from '../identity/user-tokens-store.ts';
import { usersStore } from '../identity/users-store.ts';
import { jobQueue } from '../jobs/queue.ts';
import { accountMail } from '../mail/account-mail.ts';
import { mailOutbox } from '../mail/outbox.ts';
import { addressKeyer } from '../security/address-key.ts';
import { memoryRateLimiter } from '../security/rate-limiter.ts';
import { localBlobStore } from '../storage/local-blob-store.ts';
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
 * The services the demo writes through, built by the same factories and from the same dependencies as the composition
 * root (app.ts and areas/index.ts) builds them, on the demo's transaction and clock: every demo object passes the same
 * rules as an API call. No worker runs here; the jobs they queue (a post's publication, the mail) run once the school
 * is started. Nothing is sent either: without SMTP the outbox keeps the messages, as the school itself would.
 */
export function demoServices(trx: Transaction<Tables>, clock: Clock, config: Config) {
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
    maxFailures: config.SIGNIN_MAX_FAILURES,
    windowSeconds: config.SIGNIN_WINDOW_SECONDS,
    signupMaxPerAddress: config.SIGNUP_MAX_PER_ADDRESS,
    signupWindowSeconds: config.SIGNUP_WINDOW_SECONDS,
    mail,
  });
  // The demo uploads no file, so no media URL is ever signed: a key of its own spares writing the school's secret.
  const storage = storageService({
    ...deps,
    store: storageStore(),
    blobs: localBlobStore(config.STORAGE_DIR),
    urls: mediaUrls({
      baseUrl: config.BASE_URL,
      key: randomBytes(32).toString('base64url'),
      ttlSeconds: config.MEDIA_URL_TTL_SECONDS,
    }),
  });
  const memberships = membershipRule(config.SUBSCRIPTION_GRACE_DAYS);
  const access = planAccess({
    ...deps,
    rule: memberships,
    store: subscriptionsStore(),
    enrollments: enrollmentRules({ ...deps, store: studentsStore(), mail }),
  });
  const membershipPlans = plansService({ ...deps, store: plansStore(), access });
  const courses = coursesService({
    ...deps,
    store: coursesStore(),
    onChange: () => {},
    onStatusChange: membershipPlans.courseStatusChanged,
    storage,
  });
  const curriculum = curriculumService({ ...deps, store: curriculumStore(), courses, storage });
  const posts = postsService({ ...deps, store: postsStore(), onChange: () => {}, memberships });
  const invites = invitations({ clock, users, mail });
  const noOAuth = {
    revokeGrant: async () => {
      throw new Error('the demo revokes no grant');
    },
  };
  return {
    setup,
    signin,
    staff: staffService({
      ...deps,
      store: staffStore(),
      invitations: invites,
      oauth: noOAuth,
      onAccessChange: () => {},
    }),
    school: schoolService({ ...deps, store: school }),
    appearance: appearanceService({ ...deps, store: appearanceStore(), storage }),
    lecturers: lecturersService({ ...deps, store: lecturersStore(), storage }),
    courses,
    curriculum,
    students: studentsService({
      ...deps,
      store: studentsStore(),
      courses,
      curriculum,
      certificates: certificatesService({ ...deps, store: certificatesStore() }),
      mail,
      invitations: invites,
      onAccessChange: () => {},
    }),
    membershipPlans,
    coupons: couponsService({ ...deps, store: couponsStore() }),
    events: eventsService({ ...deps, store: eventsStore(), mail, memberships }),
    pages: pagesService({ ...deps, store: pagesStore() }),
    forms: formsService({
      ...deps,
      store: formsStore(),
      mail,
      limiter,
      addressKey: addressKeyer(randomBytes(32).toString('base64url')),
    }),
    posts,
    comments: commentsService({ ...deps, store: commentsStore(), posts, curriculum }),
  };
}

export type DemoServices = ReturnType<typeof demoServices>;
