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
  purpose: 'reset' | 'invite' | 'verify';
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
  created_at: Timestamp;
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
  custom_css: string;
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
  purpose: 'image' | 'video' | 'audio' | 'pdf' | 'download';
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
};

export type Tables = {
  assets: AssetsTable;
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
  pages: PagesTable;
  posts: PostsTable;
  comments: CommentsTable;
  appearance: AppearanceTable;
  oauth_models: OauthModelsTable;
  users: UsersTable;
  sessions: SessionsTable;
  server_secrets: ServerSecretsTable;
  setup_tokens: SetupTokensTable;
  school: SchoolTable;
};

export type Db = Kysely<Tables>;
/** A store function takes either the database or a transaction. */
export type Executor = Kysely<Tables> | Transaction<Tables>;
