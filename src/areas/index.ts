import type { FastifyInstance } from 'fastify';
import type { EmailVerificationService } from '../identity/email-verification.ts';
import { invitations } from '../identity/invitations.ts';
import type { SessionService } from '../identity/sessions.ts';
import { userTokensStore } from '../identity/user-tokens-store.ts';
import { usersStore } from '../identity/users-store.ts';
import type { AccountMail } from '../mail/account-mail.ts';
import type { PaymentEventSink, PaymentProvider } from '../payments/provider.ts';
import type { RateLimiter } from '../security/rate-limiter.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import type { MediaUrls } from '../storage/media-urls.ts';
import { accountRoutes } from './account/routes.ts';
import { accountService } from './account/service.ts';
import { accountStore } from './account/store.ts';
import { addToRevenueRollup } from './analytics/revenue-rollup.ts';
import { analyticsRoutes } from './analytics/routes.ts';
import { analyticsService } from './analytics/service.ts';
import { analyticsStore } from './analytics/store.ts';
import { appearanceRoutes } from './appearance/routes.ts';
import { appearanceService } from './appearance/service.ts';
import { appearanceStore } from './appearance/store.ts';
import { auditRoutes } from './audit/routes.ts';
import { auditService } from './audit/service.ts';
import { auditStore } from './audit/store.ts';
import { certificatesRoutes } from './certificates/routes.ts';
import { certificatesService } from './certificates/service.ts';
import { certificatesStore } from './certificates/store.ts';
import { commentsRoutes } from './comments/routes.ts';
import { commentsService } from './comments/service.ts';
import { commentsStore } from './comments/store.ts';
import { couponsRoutes } from './coupons/routes.ts';
import { couponsService } from './coupons/service.ts';
import { couponsStore } from './coupons/store.ts';
import { coursesInEveryPlan } from './courses/in-every-plan.ts';
import { courseRoutes } from './courses/routes.ts';
import { coursesService } from './courses/service.ts';
import { coursesStore } from './courses/store.ts';
import { curriculumPublishing } from './curriculum/publishing.ts';
import { curriculumRoutes } from './curriculum/routes.ts';
import { curriculumService } from './curriculum/service.ts';
import { curriculumStore } from './curriculum/store.ts';
import type { AreaDeps } from './deps.ts';
import { digitalProductsRoutes } from './digital-products/routes.ts';
import { digitalProductsService } from './digital-products/service.ts';
import { digitalProductsStore } from './digital-products/store.ts';
import { attendancePage } from './events/attendance-facts.ts';
import { eventsRoutes } from './events/routes.ts';
import { eventsService } from './events/service.ts';
import { eventsStore } from './events/store.ts';
import { formsRoutes } from './forms/routes.ts';
import { formsService } from './forms/service.ts';
import { formsStore } from './forms/store.ts';
import { lecturersRoutes } from './lecturers/routes.ts';
import { lecturersService } from './lecturers/service.ts';
import { lecturersStore } from './lecturers/store.ts';
import { membersRoutes } from './members/routes.ts';
import { membersService } from './members/service.ts';
import { membersStore } from './members/store.ts';
import { includedCourseRows } from './membership-plans/included-courses.ts';
import { planProducts } from './membership-plans/plan-products.ts';
import { priceTerms } from './membership-plans/price-terms.ts';
import { membershipPlansRoutes } from './membership-plans/routes.ts';
import { plansService } from './membership-plans/service.ts';
import { plansStore } from './membership-plans/store.ts';
import type { ConnectedApps, OAuthPort } from './oauth-port.ts';
import { courseLedger } from './orders/course-ledger.ts';
import { renewalLedger } from './orders/ledger.ts';
import { receiptMail } from './orders/receipt.ts';
import { ordersRoutes } from './orders/routes.ts';
import { salesFacts } from './orders/sales-facts.ts';
import { ordersService } from './orders/service.ts';
import { ordersStore } from './orders/store.ts';
import { outboxRoutes } from './outbox/routes.ts';
import { outboxService } from './outbox/service.ts';
import { outboxReadStore } from './outbox/store.ts';
import { pagesRoutes } from './pages/routes.ts';
import { pagesService } from './pages/service.ts';
import { pagesStore } from './pages/store.ts';
import { personalDataPorts } from './personal-data.ts';
import { postsRoutes } from './posts/routes.ts';
import { postsService } from './posts/service.ts';
import { postsStore } from './posts/store.ts';
import { references } from './references.ts';
import { schoolRoutes } from './school/routes.ts';
import { schoolService } from './school/service.ts';
import { schoolStore } from './school/store.ts';
import { securityRoutes } from './security/routes.ts';
import { securityService } from './security/service.ts';
import { securityStore } from './security/store.ts';
import { staffRoutes } from './staff/routes.ts';
import { staffService } from './staff/service.ts';
import { staffStore } from './staff/store.ts';
import { assetFacts } from './storage/asset-facts.ts';
import { storageRoutes } from './storage/routes.ts';
import { storageService } from './storage/service.ts';
import { storageStore } from './storage/store.ts';
import { enrollmentFacts } from './students/enrollment-facts.ts';
import { enrollmentRules, givesAccess } from './students/enrollments.ts';
import { planEnrollments } from './students/plan-enrollments.ts';
import { progressFacts } from './students/progress-facts.ts';
import { studentsRoutes } from './students/routes.ts';
import { studentsService } from './students/service.ts';
import { studentsStore } from './students/store.ts';
import { planAccess } from './subscriptions/access.ts';
import { membershipRule } from './subscriptions/memberships.ts';
import { recurringFacts } from './subscriptions/recurring-facts.ts';
import { subscriptionsRoutes } from './subscriptions/routes.ts';
import { subscriptionsService } from './subscriptions/service.ts';
import { subscriptionsStore } from './subscriptions/store.ts';

/** The one list of API areas: each is built from its store and service here and registers its routes. */
export function buildAreas(
  deps: AreaDeps & {
    sessions: SessionService;
    connectedApps: ConnectedApps;
    oauth: OAuthPort;
    onCatalogChange: () => void;
    /** Whose tokens are valid changed (a student suspended): drop the validated-token caches. */
    onAccessChange: () => void;
    mail: AccountMail;
    verification: EmailVerificationService;
    blobs: BlobStore;
    mediaUrls: MediaUrls;
    /** The configured payment provider, made from the sink its reports go to; undefined when none is configured. */
    paymentProvider: (sink: PaymentEventSink) => PaymentProvider | undefined;
    /** Counters of the public forms' submissions per sender. */
    limiter: RateLimiter;
    /** A client address as a keyed hash (security/address-key.ts): what rate limits count under. */
    addressKey: (address: string) => string;
  },
) {
  // Another area's objects named in an input are checked with their owners (areas/references.ts).
  const people = usersStore();
  const refs = references({
    course: coursesStore().existingIds,
    plan: plansStore().existingIds,
    product: digitalProductsStore().existingIds,
    lecturer: lecturersStore().existingIds,
    user: people.existingIds,
    page: pagesStore().existingIds,
  });
  const school = schoolService({ ...deps, store: schoolStore() });
  const memberRows = membersStore();
  const memberships = membershipRule(deps.config.SUBSCRIPTION_GRACE_DAYS, { held: memberRows.compsHeld });
  const invites = invitations({ clock: deps.clock, users: usersStore(), mail: deps.mail });
  const subscriptionRows = subscriptionsStore();
  const ordersData = ordersStore({ revenue: { add: addToRevenueRollup } });
  const plansRows = plansStore();
  const sales = salesFacts();
  const access = planAccess({
    ...deps,
    rule: memberships,
    store: subscriptionRows,
    plans: { planCourses: includedCourseRows(coursesInEveryPlan) },
    courses: { findByIds: coursesStore().findByIds },
    comps: { holders: memberRows.compHolders },
    enrollments: {
      ...enrollmentRules({
        ...deps,
        store: studentsStore(),
        mail: deps.mail,
        courses: { facts: coursesStore().facts },
      }),
      givesAccess,
      ofPlanAccess: planEnrollments,
    },
  });
  const membershipPlans = plansService({
    ...deps,
    store: plansRows,
    access,
    courses: coursesInEveryPlan,
    records: {
      sold: (ex, id) => sales.namesItem(ex, 'plan', id),
      subscribed: subscriptionRows.anyToPlan,
      comped: memberRows.anyCompOf,
    },
    references: refs,
  });
  const subscriptions = subscriptionsService({
    ...deps,
    store: subscriptionRows,
    orders: renewalLedger(ordersData),
    members: { ensure: memberRows.insert },
    access,
    plans: membershipPlans,
    // The provider is made by the orders area (from the sink its reports go to), below; asked for when a change is made.
    provider: () => orders.provider,
  });
  const storage = storageService({ ...deps, store: storageStore(), blobs: deps.blobs, urls: deps.mediaUrls });
  // What an area asks of another's rows beyond its service (the asking area's ports.ts), answered by the owner's store.
  const courseRows = coursesStore();
  const courseFacts = { facts: courseRows.facts };
  const enrollmentRows = enrollmentFacts();
  const courses = coursesService({
    ...deps,
    store: coursesStore(),
    onChange: deps.onCatalogChange,
    onStatusChange: membershipPlans.courseStatusChanged,
    storage,
    enrollments: enrollmentRows,
    contents: curriculumPublishing(curriculumStore()),
    references: refs,
  });
  // Comments point at posts and lessons by id: deleting either deletes its comments, in the same transaction.
  const commentRows = commentsStore();
  const commentsCleanup = { removeFor: commentRows.deleteFor };
  const curriculum = curriculumService({
    ...deps,
    store: curriculumStore(),
    courses,
    courseRows: { findById: courseRows.findById, findByIdOrSlug: courseRows.findByIdOrSlug },
    enrollments: enrollmentRows,
    storage,
    comments: commentsCleanup,
  });
  const lecturers = lecturersService({
    ...deps,
    store: lecturersStore(),
    storage,
    courses: { idsListingLecturer: courseRows.idsListingLecturer },
  });
  const appearance = appearanceService({ ...deps, store: appearanceStore(), storage, references: refs });
  const pages = pagesService({ ...deps, store: pagesStore() });
  const forms = formsService({ ...deps, store: formsStore(), mail: deps.mail, school, references: refs });
  const posts = postsService({
    ...deps,
    store: postsStore(),
    onChange: deps.onCatalogChange,
    memberships,
    comments: commentsCleanup,
  });
  const comments = commentsService({ ...deps, store: commentRows, posts, curriculum });
  const certificates = certificatesService({ ...deps, store: certificatesStore(), courses: courseFacts });
  const students = studentsService({
    ...deps,
    store: studentsStore(),
    courses,
    courseFacts,
    curriculum,
    certificates,
    mail: deps.mail,
    invitations: invites,
    onAccessChange: deps.onAccessChange,
  });
  const members = membersService({
    ...deps,
    store: memberRows,
    rule: memberships,
    access,
    people: students,
    plans: plansRows,
    subscriptions: subscriptionRows,
  });
  const outbox = outboxService({ ...deps, store: outboxReadStore() });
  const audit = auditService({ ...deps, store: auditStore() });
  const security = securityService({
    ...deps,
    store: securityStore(),
    oauth: deps.oauth,
    onAccessChange: deps.onAccessChange,
  });
  const staff = staffService({
    ...deps,
    store: staffStore(),
    invitations: invites,
    oauth: deps.oauth,
    onAccessChange: deps.onAccessChange,
  });
  // What analytics counts of the other areas, each answered by its owner over its own tables.
  const analytics = analyticsService({
    ...deps,
    store: analyticsStore(),
    school,
    courses: { find: coursesStore().findById, list: courses.list },
    enrollments: progressFacts(),
    subscriptions: recurringFacts(),
    prices: priceTerms,
    ledger: courseLedger(),
    events: attendancePage,
  });
  const coupons = couponsService({ ...deps, store: couponsStore(), references: refs, orders: sales });
  const digitalProducts = digitalProductsService({
    ...deps,
    store: digitalProductsStore(),
    storage,
    memberships,
    assets: assetFacts(),
    plans: planProducts(),
    sales,
  });
  const events = eventsService({
    ...deps,
    store: eventsStore(),
    mail: deps.mail,
    memberships,
    students,
    references: refs,
    school,
  });
  const account = accountService({
    ...deps,
    store: accountStore(),
    sessions: deps.sessions,
    connectedApps: deps.connectedApps,
    mail: deps.mail,
    verification: deps.verification,
    tokens: userTokensStore(),
    oauth: deps.oauth,
    onAccessChange: deps.onAccessChange,
    // After events: deleting an account gives its seats at upcoming events to the next in line.
    ...personalDataPorts({ releaseEventSeats: events.releaseSeatsOf }),
  });
  const orders = ordersService({
    ...deps,
    store: ordersData,
    courses,
    students,
    plans: membershipPlans,
    products: digitalProducts,
    coupons,
    subscriptions,
    users: usersStore(),
    school,
    receipt: receiptMail({ store: ordersData, school, mail: deps.mail }),
    provider: deps.paymentProvider,
  });
  return {
    orders,
    storage,
    courses,
    curriculum,
    lecturers,
    school,
    appearance,
    pages,
    forms,
    posts,
    comments,
    certificates,
    account,
    students,
    outbox,
    audit,
    staff,
    security,
    analytics,
    membershipPlans,
    subscriptions,
    members,
    /** Who holds which plan now (posts, products and the checkout go by it). */
    memberships,
    coupons,
    digitalProducts,
    events,
  };
}

export type Areas = ReturnType<typeof buildAreas>;

export function registerAreaRoutes(api: FastifyInstance, areas: Areas) {
  courseRoutes(api, areas.courses);
  curriculumRoutes(api, areas.curriculum);
  lecturersRoutes(api, areas.lecturers);
  schoolRoutes(api, areas.school);
  appearanceRoutes(api, areas.appearance);
  pagesRoutes(api, areas.pages);
  formsRoutes(api, areas.forms);
  postsRoutes(api, areas.posts);
  commentsRoutes(api, areas.comments);
  certificatesRoutes(api, areas.certificates);
  accountRoutes(api, areas.account);
  studentsRoutes(api, areas.students);
  outboxRoutes(api, areas.outbox);
  auditRoutes(api, areas.audit);
  staffRoutes(api, areas.staff);
  securityRoutes(api, areas.security);
  ordersRoutes(api, areas.orders);
  storageRoutes(api, areas.storage);
  analyticsRoutes(api, areas.analytics);
  membershipPlansRoutes(api, areas.membershipPlans);
  subscriptionsRoutes(api, areas.subscriptions);
  membersRoutes(api, areas.members);
  couponsRoutes(api, areas.coupons);
  digitalProductsRoutes(api, areas.digitalProducts);
  eventsRoutes(api, areas.events);
}
