import type { Generated, Kysely, Transaction } from 'kysely';

/** The two database engines a school can run on. */
export type Engine = 'sqlite' | 'postgres';

/** Timestamps are RFC 3339 UTC strings of fixed width (`Date#toISOString`), so text order is time order on both engines. */
export type Timestamp = string;
/** Booleans are stored as 0/1 integers on both engines. */
export type Flag = 0 | 1;

export type UsersTable = {
  id: string;
  email: string;
  name: string;
  role: 'owner' | 'staff' | 'student';
  status: 'active' | 'suspended';
  password_hash: string;
  locale: string | null;
  /** 1 once the person opened a link sent to this address; changing the address sets it back to 0. */
  email_verified: Generated<Flag>;
  created_at: Timestamp;
  updated_at: Timestamp;
};

/** Single-use links sent by mail; only the SHA-256 of the secret is stored. */
export type UserTokensTable = {
  token_hash: string;
  /** `email_change`: `email` is the new address, which the account moves to when the link is opened. */
  purpose: 'reset' | 'invite' | 'verify' | 'email_change';
  user_id: string;
  /** The address the link was sent to: it proves that address only, not one the account changed to since. */
  email: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
};

/** Every message the school sends: queued for SMTP, or held here when no SMTP server is configured. */
export type OutboxTable = {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  kind: string;
  status: 'queued' | 'sent' | 'failed' | 'held';
  attempts: number;
  last_error: string | null;
  sent_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type SessionsTable = {
  id: string;
  user_id: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
};

export type ServerSecretsTable = {
  name: string;
  value: string;
  created_at: Timestamp;
};

export type SetupTokensTable = {
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
};

export type SchoolTable = {
  id: string;
  name: string;
  description: string;
  default_currency: string;
  timezone: string;
  locale: string;
  support_email: string | null;
  terms_url: string | null;
  privacy_url: string | null;
  signup_enabled: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type BlockedClientsTable = { client_id: string; blocked_at: Timestamp; blocked_by: string | null };

export type SignInEventsTable = {
  id: string;
  at: Timestamp;
  user_id: string | null;
  email: string;
  outcome: 'success' | 'wrong_password' | 'unknown_email' | 'suspended' | 'rate_limited';
  ip: string | null;
  user_agent: string | null;
};

export type AuditLogTable = {
  id: string;
  at: Timestamp;
  actor_id: string | null;
  actor_email: string | null;
  actor_role: string | null;
  client_id: string | null;
  client_name: string | null;
  channel: string;
  operation: string;
  method: string;
  path: string;
  object_type: string | null;
  object_id: string | null;
  /** JSON array of the body field names the request sent (never their values). */
  fields: string;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
};

export type OauthModelsTable = {
  model: string;
  id: string;
  payload: string;
  grant_id: string | null;
  uid: string | null;
  account_id: string | null;
  client_id: string | null;
  expires_at: Timestamp | null;
  consumed_at: Timestamp | null;
  created_at: Timestamp;
};

export type IdempotencyKeysTable = {
  owner: string;
  key: string;
  route: string;
  request_hash: string;
  status: number;
  response: string;
  /** 1 while the answer is provisional: a provider call follows the write, and its answer replaces this one. */
  pending: Flag;
  created_at: Timestamp;
};

export type LecturersTable = {
  id: string;
  name: string;
  title: string;
  bio: string;
  avatar_url: string | null;
  /** The asset shown in place of the URL column (optional in writes: absent is null). */
  avatar_asset_id?: string | null;
  email: string | null;
  user_id: string | null;
  status: 'active' | 'archived';
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type CoursesTable = {
  id: string;
  title: string;
  slug: string;
  subtitle: string;
  description: string;
  cover_url: string | null;
  /** The asset shown in place of the URL column (optional in writes: absent is null). */
  cover_asset_id?: string | null;
  /** JSON array of lecturer ids. */
  lecturer_ids: string;
  price_amount: number | null;
  price_currency: string | null;
  status: 'draft' | 'published' | 'archived';
  visibility: 'public' | 'unlisted' | 'private';
  enrollment_open: Flag;
  /** The course page's lists, JSON arrays of strings (optional in writes: absent is empty). */
  outcomes?: string;
  audience?: string;
  requirements?: string;
  /** A video shown in place of the cover on the course page. */
  trailer_url?: string | null;
  published_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type SectionsTable = {
  id: string;
  course_id: string;
  title: string;
  position: number;
  drip_type: 'none' | 'days_after_enrollment' | 'on_date';
  drip_days: number | null;
  drip_date: Timestamp | null;
  status: 'draft' | 'published';
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type LessonsTable = {
  id: string;
  course_id: string;
  section_id: string;
  title: string;
  type: 'text' | 'video' | 'audio' | 'pdf' | 'download' | 'embed' | 'quiz';
  body: string;
  asset_url: string | null;
  /** The asset shown in place of the URL column (optional in writes: absent is null). */
  asset_id?: string | null;
  duration_s: number | null;
  is_preview: Flag;
  position: number;
  status: 'draft' | 'published';
  /** JSON (curriculum/quiz.ts QuizInput) on quiz lessons, else null. */
  quiz: string | null;
  /** JSON: the caption files, [{ asset_id, language, label }]; null for none (optional in writes). */
  captions?: string | null;
  /** The image a video shows before it plays (optional in writes: absent is null). */
  poster_asset_id?: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

/** Where a student stopped in a video or audio lesson, in whole seconds, to resume there. */
export type PlaybackPositionsTable = {
  user_id: string;
  lesson_id: string;
  position_s: number;
  duration_s: number;
  updated_at: Timestamp;
};

export type QuizAttemptsTable = {
  id: string;
  lesson_id: string;
  user_id: string;
  /** JSON: for each question, the indexes of the choices picked. */
  answers: string;
  score_percent: number;
  passed: Flag;
  created_at: Timestamp;
};

export type EnrollmentsTable = {
  id: string;
  course_id: string;
  user_id: string;
  source: 'manual' | 'order' | 'subscription' | 'import';
  status: 'active' | 'completed' | 'expired' | 'revoked';
  enrolled_at: Timestamp;
  expires_at: Timestamp | null;
  completed_at: Timestamp | null;
  progress_percent: number;
};

/** A lesson a person completed (the students area derives progress from these rows). */
export type LessonProgressTable = {
  user_id: string;
  lesson_id: string;
  course_id: string;
  completed_at: Timestamp;
};

export type PagesTable = {
  id: string;
  title: string;
  slug: string;
  draft_body: string;
  published_body: string | null;
  seo_title: string | null;
  seo_description: string | null;
  status: 'draft' | 'published';
  published_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type FormsTable = {
  id: string;
  page_id: string | null;
  title: string;
  /** JSON: the fields, in order (areas/forms/schema.ts FormField). */
  fields: string;
  success_message: string;
  /** JSON: a list of addresses; empty means the school's default recipients. */
  notify_emails: string;
  status: 'active' | 'closed';
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type FormSubmissionsTable = {
  id: string;
  form_id: string;
  user_id: string | null;
  /** The value of the form's first e-mail field, lower-cased (null when it has none or it was left empty). */
  email: string | null;
  /** JSON: the values by field name. */
  values: string;
  /** The text answers, one per line (what `q` searches). */
  search_text: string;
  created_at: Timestamp;
};

export type PostsTable = {
  id: string;
  title: string;
  slug: string;
  body: string;
  excerpt: string;
  cover_url: string | null;
  /** JSON array of strings. */
  tags: string;
  visibility: 'public' | 'members' | 'plans';
  /** JSON array of plan ids (visibility "plans"). */
  plan_ids: string;
  status: 'draft' | 'scheduled' | 'published';
  scheduled_at: Timestamp | null;
  published_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type CommentsTable = {
  id: string;
  target_type: 'post' | 'lesson';
  target_id: string;
  user_id: string;
  parent_id: string | null;
  body: string;
  status: 'visible' | 'hidden' | 'deleted';
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type AppearanceTable = {
  id: string;
  logo_url: string | null;
  /** The asset shown in place of the URL column (optional in writes: absent is null). */
  logo_asset_id?: string | null;
  /** JSON objects. */
  colors: string;
  fonts: string;
  navigation: string;
  /** JSON: the footer's links; [] keeps the default footer. */
  footer: string;
  custom_css: string;
  /** A built-in theme's name (optional in writes: absent is the default). */
  theme?: string;
  /** JSON: the home page's hero and parts (optional in writes: absent is {}, the defaults). */
  home?: string;
  updated_at: Timestamp;
};

export type JobsTable = {
  id: string;
  kind: string;
  /** JSON. */
  payload: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  attempts: number;
  max_attempts: number;
  run_at: Timestamp;
  locked_by: string | null;
  locked_until: Timestamp | null;
  /** JSON, written by the running job. */
  progress: string | null;
  /** JSON, what the job returned. */
  result: string | null;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type CertificatesTable = {
  id: string;
  /** The secret part of the public verification URL. */
  code: string;
  user_id: string;
  course_id: string;
  /** As they were when the certificate was issued. */
  recipient_name: string;
  course_title: string;
  issued_at: Timestamp;
  revoked_at: Timestamp | null;
  revoked_reason: string | null;
  created_at: Timestamp;
};

export type AssetsTable = {
  id: string;
  purpose: 'image' | 'video' | 'audio' | 'pdf' | 'download' | 'captions';
  filename: string;
  /** As declared while pending; once ready, the type sniffed from the bytes (what the file is served as). */
  content_type: string;
  byte_size: number;
  sha256: string | null;
  /** The SHA-256 the uploader declared, checked against the bytes. */
  expected_sha256: string | null;
  status: 'pending' | 'ready' | 'failed';
  failure_reason: string | null;
  /** Where the bytes are in the blob store; set when ready. */
  storage_key: string | null;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** An image's size in pixels, turned upright; set with its variants (optional in writes, as the next three). */
  width?: number | null;
  height?: number | null;
  /** An image's ~16 px blurred copy as a data: URI; null for images with transparency. */
  placeholder?: string | null;
  /** An image's variants: null until made, 'made', or 'unreadable' (its bytes could not be decoded). */
  variants?: 'made' | 'unreadable' | null;
};

/** One variant of an uploaded image: a width in one format, under a name that is a hash of its bytes. */
export type ImageVariantsTable = {
  asset_id: string;
  /** "640-3f9a1c2b7d4e.avif": the width, the first 12 hex digits of the bytes' SHA-256, the format's extension. */
  name: string;
  format: 'avif' | 'webp' | 'jpeg' | 'png';
  width: number;
  height: number;
  byte_size: number;
  storage_key: string;
  created_at: Timestamp;
};

/** Money columns are integer minor units beside an ISO 4217 currency code, never a float. */
export type MembershipPlansTable = {
  id: string;
  name: string;
  slug: string;
  description: string;
  /** JSON array of strings. */
  benefits: string;
  visibility: 'public' | 'hidden';
  status: 'active' | 'archived';
  /** 1: every published course (public or unlisted) is included, present and future, besides plan_courses. */
  includes_all_courses?: Flag;
  archived_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};
/** `position` (migration 013) keeps the order staff listed them in; absent in a write is 0. */
export type PlanCoursesTable = { plan_id: string; course_id: string; position?: number };
export type PlanProductsTable = { plan_id: string; product_id: string; position?: number };
/** Prices are created and archived, never edited: an order or subscription always names the price it was sold at. */
export type PlanPricesTable = {
  id: string;
  plan_id: string;
  amount: number;
  currency: string;
  interval: 'month' | 'year' | 'one_time';
  trial_days: number;
  status: 'active' | 'archived';
  /** The provider's own price id (Stripe `price_…`), once the adapter made one. */
  provider_price_id: string | null;
  archived_at: Timestamp | null;
  created_at: Timestamp;
};
export type ProductsTable = {
  id: string;
  title: string;
  slug: string;
  description: string;
  price_amount: number | null;
  price_currency: string | null;
  /** Its picture's address (an uploaded image's public one, or one elsewhere). */
  image_url: string | null;
  status: 'draft' | 'published' | 'archived';
  published_at: Timestamp | null;
  archived_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};
export type ProductFilesTable = { product_id: string; asset_id: string; position: number };
export type ProductGrantsTable = {
  id: string;
  product_id: string;
  user_id: string;
  source: 'order' | 'manual';
  order_id: string | null;
  granted_at: Timestamp;
  revoked_at: Timestamp | null;
};
export type CouponsTable = {
  id: string;
  /** Upper case; codes are matched without regard to case. */
  code: string;
  percent_off: number | null;
  amount_off: number | null;
  /** The currency of amount_off. */
  currency: string | null;
  /** JSON: { "all": true } or { "course_ids": [], "plan_ids": [], "product_ids": [] }. */
  applies_to: string;
  starts_at: Timestamp | null;
  expires_at: Timestamp | null;
  max_redemptions: number | null;
  /** Redemptions held by pending orders and taken by paid ones; a failed or canceled order gives its one back. */
  times_redeemed: Generated<number>;
  disabled_at: Timestamp | null;
  /** The prefix of a bulk-created batch. */
  batch: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};
export type CouponRedemptionsTable = {
  id: string;
  coupon_id: string;
  order_id: string;
  user_id: string;
  /** The discount it gave. */
  amount: number;
  currency: string;
  status: 'held' | 'redeemed' | 'released';
  created_at: Timestamp;
};
export type OrdersTable = {
  id: string;
  /** Sequential, from the counters table, taken in the order's transaction. */
  number: number;
  user_id: string;
  /** A checkout by a person, or a subscription's renewal charge. */
  kind: 'purchase' | 'renewal';
  status: 'pending' | 'paid' | 'failed' | 'canceled' | 'refunded' | 'partially_refunded';
  currency: string;
  subtotal: number;
  discount: number;
  total: number;
  refunded_amount: Generated<number>;
  coupon_id: string | null;
  coupon_code: string | null;
  /** Who took the money: nobody for a free order. */
  provider: 'none' | 'test' | 'stripe';
  /** The provider's checkout (Stripe Checkout Session id, the test page's session). */
  provider_ref: string | null;
  subscription_id: string | null;
  failure_reason: string | null;
  paid_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};
/** What was bought, as it was when bought: the title and price stay whatever the catalog says later. */
export type OrderItemsTable = {
  id: string;
  order_id: string;
  item_type: 'course' | 'plan' | 'product';
  /** The course, plan or product id. */
  item_id: string;
  /** The plan price bought (item_type plan). */
  price_id: string | null;
  title: string;
  unit_amount: number;
  discount: number;
  amount: number;
  currency: string;
};
/** The money ledger: every charge and refund, dated when it happened (revenue is read from here). */
export type PaymentsTable = {
  id: string;
  order_id: string;
  kind: 'charge' | 'refund';
  /** Positive for both kinds. */
  amount: number;
  currency: string;
  provider: 'test' | 'stripe';
  provider_ref: string | null;
  created_at: Timestamp;
};
/** A refund staff asked for: counted against what is left to refund while pending, until reported or refused. */
export type RefundRequestsTable = {
  id: string;
  order_id: string;
  amount: number;
  currency: string;
  status: 'pending' | 'applied' | 'failed';
  /** The provider's reference of the refund, once it answered. */
  provider_ref: string | null;
  requested_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};
export type SubscriptionsTable = {
  id: string;
  user_id: string;
  plan_id: string;
  price_id: string;
  status: 'trialing' | 'active' | 'past_due' | 'paused' | 'canceled';
  trial_end: Timestamp | null;
  current_period_start: Timestamp;
  /** Null for a one-time price: a membership for life that never renews. */
  current_period_end: Timestamp | null;
  cancel_at_period_end: Generated<Flag>;
  canceled_at: Timestamp | null;
  paused_at: Timestamp | null;
  /** A plan change waiting for the next period. */
  next_price_id: string | null;
  provider: 'none' | 'test' | 'stripe';
  provider_ref: string | null;
  /** The provider time of the newest state applied; an older event does not overwrite a newer one. */
  provider_synced_at: Timestamp | null;
  /**
   * What the school counts renewal periods from (migration 013): period n ends n intervals after it, the day of the
   * month clamped in short months. Null where the provider counts (stripe) or nothing renews (one-time).
   */
  billing_anchor?: Timestamp | null;
  order_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};
/** A person's member profile (a user view): status is derived from subscriptions and the comp. */
export type MembersTable = {
  user_id: string;
  /** JSON array of strings. */
  labels: string;
  newsletter_opt_in: Flag;
  note: string;
  comp_plan_id: string | null;
  comp_until: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};
/** Provider events already applied: inserted in the applying transaction, so each applies once. */
export type PaymentEventsTable = { provider: string; event_id: string; type: string; received_at: Timestamp };
export type CountersTable = { name: string; value: number };
/** The payment ledger summed per currency and 15-minute UTC slot (`YYYY-MM-DDTHH:MM`), for the revenue series. */
export type RevenueSlotsTable = { slot: string; currency: string; charged: number; refunded: number };

export type EventsTable = {
  id: string;
  title: string;
  slug: string;
  description: string;
  starts_at: Timestamp;
  ends_at: Timestamp;
  /** The IANA zone it is held in. */
  timezone: string;
  address: string | null;
  join_url: string | null;
  join_opens_minutes: number;
  capacity: number | null;
  course_id: string | null;
  plan_id: string | null;
  visibility: 'public' | 'unlisted';
  /** Raised by each change calendars must pick up (a move, a cancel): the iCalendar SEQUENCE. */
  sequence: number;
  canceled_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};
export type EventLecturersTable = { event_id: string; lecturer_id: string; position: number };
export type EventRegistrationsTable = {
  id: string;
  event_id: string;
  user_id: string;
  status: 'registered' | 'waitlisted' | 'canceled';
  attended: Flag | null;
  registered_at: Timestamp;
  promoted_at: Timestamp | null;
  canceled_at: Timestamp | null;
  /** Why it was canceled: the person (or staff) unregistered it, or the event was canceled. */
  cancel_reason: 'unregistered' | 'event_canceled' | null;
  /** When the reminder for the event's current start went out; a move clears it. */
  reminded_at: Timestamp | null;
};
/** A person's private calendar feed: the URL's secret is derived from `nonce`; only its hash is looked up. */
export type CalendarFeedsTable = { user_id: string; nonce: string; token_hash: string; created_at: Timestamp };

export type Tables = {
  events: EventsTable;
  event_lecturers: EventLecturersTable;
  event_registrations: EventRegistrationsTable;
  calendar_feeds: CalendarFeedsTable;
  membership_plans: MembershipPlansTable;
  plan_courses: PlanCoursesTable;
  plan_products: PlanProductsTable;
  plan_prices: PlanPricesTable;
  products: ProductsTable;
  product_files: ProductFilesTable;
  product_grants: ProductGrantsTable;
  coupons: CouponsTable;
  coupon_redemptions: CouponRedemptionsTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  payments: PaymentsTable;
  refund_requests: RefundRequestsTable;
  subscriptions: SubscriptionsTable;
  members: MembersTable;
  payment_events: PaymentEventsTable;
  counters: CountersTable;
  revenue_slots: RevenueSlotsTable;
  assets: AssetsTable;
  image_variants: ImageVariantsTable;
  certificates: CertificatesTable;
  quiz_attempts: QuizAttemptsTable;
  outbox: OutboxTable;
  user_tokens: UserTokensTable;
  jobs: JobsTable;
  idempotency_keys: IdempotencyKeysTable;
  lecturers: LecturersTable;
  courses: CoursesTable;
  sections: SectionsTable;
  lessons: LessonsTable;
  enrollments: EnrollmentsTable;
  lesson_progress: LessonProgressTable;
  playback_positions: PlaybackPositionsTable;
  pages: PagesTable;
  forms: FormsTable;
  form_submissions: FormSubmissionsTable;
  posts: PostsTable;
  comments: CommentsTable;
  appearance: AppearanceTable;
  oauth_models: OauthModelsTable;
  audit_log: AuditLogTable;
  blocked_clients: BlockedClientsTable;
  sign_in_events: SignInEventsTable;
  users: UsersTable;
  sessions: SessionsTable;
  server_secrets: ServerSecretsTable;
  setup_tokens: SetupTokensTable;
  school: SchoolTable;
};

export type Db = Kysely<Tables>;
/** A store function takes either the database or a transaction. */
export type Executor = Kysely<Tables> | Transaction<Tables>;
