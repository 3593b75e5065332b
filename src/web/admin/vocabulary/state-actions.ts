import { isDeletedAccount } from '../../../identity/deleted-account.ts';

/**
 * Which of an object's actions its state allows, by operationId, so a page offers only what the API would do: a
 * draft offers Publish, not Unpublish; a refunded order offers no refund. An action not named here is always offered
 * (the API still judges it, and says why when it refuses).
 */
type Row = Record<string, unknown>;
type Allowed = (object: Row) => boolean;

const statusIn =
  (...states: string[]): Allowed =>
  (object) =>
    states.includes(String(object.status));
const stateIn =
  (...states: string[]): Allowed =>
  (object) =>
    states.includes(String(object.state));
const isSet =
  (field: string): Allowed =>
  (object) =>
    object[field] !== null && object[field] !== undefined;
const notSet =
  (field: string): Allowed =>
  (object) =>
    !isSet(field)(object);

const LIVE_SUBSCRIPTION = ['trialing', 'active', 'past_due', 'paused'];

export const ALLOWED_IN_STATE: Record<string, Allowed> = {
  publishCourse: statusIn('draft', 'archived'),
  // Offered on the course's drafts screen, which names what it will publish and each lesson it cannot.
  publishCourseWithContents: () => false,
  unpublishCourse: statusIn('published'),
  archiveCourse: statusIn('draft', 'published'),
  deleteCourse: statusIn('draft'),
  publishSection: statusIn('draft'),
  unpublishSection: statusIn('published'),
  publishLesson: statusIn('draft'),
  unpublishLesson: statusIn('published'),
  deleteLesson: statusIn('draft'),
  archiveLecturer: statusIn('active'),
  restoreLecturer: statusIn('archived'),
  // A published page is published again to put its draft changes on the site.
  publishPage: statusIn('draft', 'published'),
  unpublishPage: statusIn('published'),
  deletePage: statusIn('draft'),
  schedulePost: statusIn('draft'),
  publishPost: statusIn('draft', 'scheduled'),
  unpublishPost: statusIn('published', 'scheduled'),
  deletePost: statusIn('draft', 'scheduled'),
  hideComment: statusIn('visible'),
  restoreComment: statusIn('hidden'),
  deleteComment: statusIn('visible', 'hidden'),
  revokeCertificate: statusIn('valid'),
  suspendStudent: statusIn('active'),
  // A deleted account stays suspended for good: its row is kept only for the records that point at it.
  reactivateStudent: (o) => statusIn('suspended')(o) && !isDeletedAccount({ id: String(o.id), email: String(o.email) }),
  refundOrder: statusIn('paid', 'partially_refunded'),
  archiveMembershipPlan: statusIn('active'),
  createPlanPrice: statusIn('active'),
  cancelSubscription: (o) => LIVE_SUBSCRIPTION.includes(String(o.status)) && o.cancel_at_period_end !== true,
  resumeSubscription: (o) => o.status === 'paused' || (o.status !== 'canceled' && o.cancel_at_period_end === true),
  pauseSubscription: statusIn('active'),
  changeSubscriptionPlan: statusIn(...LIVE_SUBSCRIPTION),
  disableCoupon: stateIn('scheduled', 'active', 'expired', 'exhausted'),
  enableCoupon: stateIn('disabled'),
  deleteCoupon: (o) => o.times_redeemed === 0,
  publishDigitalProduct: statusIn('draft'),
  archiveDigitalProduct: statusIn('draft', 'published'),
  deleteDigitalProduct: statusIn('draft'),
  grantDigitalProduct: statusIn('published'),
  cancelEvent: statusIn('scheduled'),
  deleteEvent: statusIn('scheduled', 'canceled'),
  createEventRegistration: statusIn('scheduled', 'live'),
  recordEventAttendance: statusIn('live', 'ended'),
  removeMemberComp: isSet('comp'),
  blockOAuthClient: notSet('blocked_at'),
  unblockOAuthClient: isSet('blocked_at'),
  removeStaff: (o) => o.role === 'staff',
};

/** Whether an object in its present state offers an action. */
export const allowedInState = (operation: string, object: Row) => ALLOWED_IN_STATE[operation]?.(object) ?? true;
