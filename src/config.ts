import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import Type, { type Static, type TSchema } from 'typebox';
import { Value } from 'typebox/value';

/**
 * Every setting of the server, keyed by its environment variable. The configuration table of docs/operations.md is generated
 * from this schema (`npm run docs:config`) and a test fails when the two drift.
 */
export const ConfigSchema = Type.Object(
  {
    PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000, description: 'TCP port to listen on.' }),
    HOST: Type.String({ minLength: 1, default: '127.0.0.1', description: 'Address to listen on.' }),
    BASE_URL: Type.String({
      default: '',
      pattern: '^(https?://[^/?#\\s]+)?$',
      description:
        'Public origin of the school (scheme, host, port; no path). Defaults to `http://HOST:PORT`. It is the OAuth issuer.',
    }),
    DOCS_URL: Type.String({
      default: '',
      description:
        'The platform documentation or support page: where an integrator asks for what self-service does not offer (a registered integration with a fixed HTTPS callback). Named where registration refuses a non-loopback redirect URI, and in `/auth.md`. Defaults to `BASE_URL/auth.md`, the walkthrough of this origin.',
    }),
    DATABASE_URL: Type.String({
      minLength: 1,
      default: './data/lyceum.sqlite',
      description: 'A SQLite file path (or `sqlite:<path>`), or a `postgres://` / `postgresql://` URL.',
    }),
    DATABASE_POOL_SIZE: Type.Integer({
      minimum: 1,
      maximum: 100,
      default: 10,
      description: 'Connections in the PostgreSQL pool (ignored for SQLite).',
    }),
    REDIS_URL: Type.String({
      default: '',
      pattern: '^(rediss?://\\S+)?$',
      description:
        "Optional `redis://` URL; when set, rate-limit counters and the authorization server's short-lived records (interactions, codes, its sessions) are shared by every instance, and revocations and catalog changes are published to every instance, which apply them as the message arrives. Several instances need it.",
    }),
    REDIS_PREFIX: Type.String({
      default: 'lyceum:',
      pattern: '^[A-Za-z0-9:_.-]{1,64}$',
      description:
        'Prefix of every Redis key and channel this school uses, so several schools (or test runs) can share one Redis without sharing counters or invalidations.',
    }),
    LOG_LEVEL: Type.Union(
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((level) => Type.Literal(level)),
      { default: 'info', description: 'Log level of the JSON logs.' },
    ),
    COOKIE_SECURE: Type.Union([Type.Literal('auto'), Type.Literal('true'), Type.Literal('false')], {
      default: 'auto',
      description: 'Mark cookies `Secure`; `auto` means yes exactly when BASE_URL is https.',
    }),
    TRUST_PROXY: Type.String({
      default: 'false',
      pattern: '^(false|[1-9][0-9]?|[0-9a-fA-F:.]+(/[0-9]{1,3})?(,[0-9a-fA-F:.]+(/[0-9]{1,3})?)*)$',
      description:
        'Reverse proxies whose `X-Forwarded-*` headers are trusted: `false`, a hop count (`1`), or proxy addresses/CIDRs (`10.0.0.1,10.1.0.0/16`). Never trust every hop: clients could then choose their own address.',
    }),
    BODY_LIMIT_BYTES: Type.Integer({
      minimum: 1024,
      maximum: 104857600,
      default: 1048576,
      description: 'Largest request body accepted, in bytes.',
    }),
    SESSION_TTL_HOURS: Type.Integer({
      minimum: 1,
      maximum: 8760,
      default: 336,
      description: 'Lifetime of a browser session, in hours.',
    }),
    SIGNIN_MAX_FAILURES: Type.Integer({
      minimum: 1,
      maximum: 1000,
      default: 5,
      description: 'Failed sign-ins allowed per account (and 4x that per address) in one window before a 429.',
    }),
    SIGNIN_WINDOW_SECONDS: Type.Integer({
      minimum: 1,
      maximum: 86400,
      default: 900,
      description: 'Length of the sign-in failure window, in seconds.',
    }),
    SIGNUP_MAX_PER_ADDRESS: Type.Integer({
      minimum: 1,
      maximum: 100000,
      default: 20,
      description:
        'Sign-up attempts accepted from one client address in one window before a 429 (raise it for a class that creates its accounts together from one network).',
    }),
    SIGNUP_WINDOW_SECONDS: Type.Integer({
      minimum: 1,
      maximum: 86400,
      default: 3600,
      description: 'Length of the sign-up window, in seconds.',
    }),
    FORM_SUBMISSIONS_PER_WINDOW: Type.Integer({
      minimum: 1,
      maximum: 10000,
      default: 5,
      description: 'Submissions one client address may send to one form in a window before a 429.',
    }),
    FORM_SUBMISSION_WINDOW_SECONDS: Type.Integer({
      minimum: 1,
      maximum: 86400,
      default: 600,
      description: 'Length of the form-submission window, in seconds.',
    }),
    OAUTH_ALLOW_LOCALHOST_REDIRECTS: Type.Union([Type.Literal('true'), Type.Literal('false')], {
      default: 'false',
      description:
        'Also admit `http://localhost:<port>/<path>` redirect URIs at self-service registration (some agents register localhost).',
    }),
    OAUTH_CODE_TTL_SECONDS: Type.Integer({
      minimum: 10,
      maximum: 600,
      default: 60,
      description: 'Lifetime of an authorization code, in seconds.',
    }),
    OAUTH_ACCESS_TOKEN_TTL_SECONDS: Type.Integer({
      minimum: 60,
      maximum: 86400,
      default: 3600,
      description: 'Lifetime of an access token, in seconds.',
    }),
    OAUTH_REFRESH_TOKEN_TTL_SECONDS: Type.Integer({
      minimum: 3600,
      maximum: 31536000,
      default: 2592000,
      description: 'Lifetime of a refresh token, in seconds (each rotation issues a new one with this lifetime).',
    }),
    OAUTH_REUSE_GRACE_SECONDS: Type.Integer({
      minimum: 0,
      maximum: 60,
      default: 2,
      description:
        'A code or refresh token presented again within this many seconds of its first use (a retry, two tabs) is refused without revoking its grant; later it counts as a replay and revokes the grant.',
    }),
    TOKEN_CACHE_SECONDS: Type.Integer({
      minimum: 0,
      maximum: 60,
      default: 5,
      description:
        'How long a validated access token is remembered by an instance (0 turns the cache off). A revocation clears it at once on the instance that revoked, and on every other instance as the Redis message arrives; without Redis (or while it is unreachable) other instances see it within this many seconds.',
    }),
    LIST_CACHE_MS: Type.Integer({
      minimum: 0,
      maximum: 60000,
      default: 1000,
      description:
        "Micro-cache of the catalog list, of read-only MCP tool answers (for anonymous callers and staff) and of the public website's pages as signed-out visitors see them, in milliseconds (0 turns it off). A change on an instance clears its cache at once; other instances show it within this time.",
    }),
    JOBS_POLL_MS: Type.Integer({
      minimum: 50,
      maximum: 60000,
      default: 1000,
      description:
        'How often each instance looks for due background jobs (e-mail delivery, bulk enrollment, scheduled posts), in milliseconds. Jobs are rows in the database: any instance may run one, exactly one does.',
    }),
    SMTP_URL: Type.String({
      default: '',
      pattern: '^(smtps?://\\S+)?$',
      description:
        'Where e-mail is sent: `smtp://user:pass@host:587` (STARTTLS when the server offers it) or `smtps://…:465` (TLS). Unset: nothing is delivered; every message is kept in the outbox, which the owner reads at `/admin/outbox` (or `GET /api/v1/outbox`), and the server says so at start.',
    }),
    MAIL_FROM: Type.String({
      default: '',
      pattern: '^([^<>\\r\\n]*<[^\\s@<>]+@[^\\s@<>]+>|[^\\s@<>]+@[^\\s@<>]+)?$',
      description:
        "Sender of the school's e-mail: `school@example.org` or `Example School <school@example.org>`. Defaults to the school's name and `no-reply@` the host of BASE_URL.",
    }),
    MIGRATE_ON_START: Type.Union([Type.Literal('true'), Type.Literal('false')], {
      default: 'true',
      description:
        'Whether an instance applies pending migrations when it starts. `false` for rolling upgrades: migrations are their own step (`npm run migrate`), and until they have run `/readyz` answers 503.',
    }),
    STOP_DRAIN_SECONDS: Type.Integer({
      minimum: 0,
      maximum: 120,
      default: 0,
      description:
        'Seconds an instance keeps serving after SIGTERM while `/readyz` answers 503 and each response closes its connection, so a load balancer takes it out of rotation before it stops accepting. Behind one with health checks, about twice their interval (Caddy `health_interval 1s`: 2); alone, 0.',
    }),
    SIGNING_KEY_ROTATE_DAYS: Type.Integer({
      minimum: 0,
      maximum: 3650,
      default: 90,
      description:
        'Days an ID-token signing key signs before the school rotates it by itself (a new key published a quarter of an hour before it signs; every instance moves onto it within a minute). 0: only `npm run rotate-keys` rotates.',
    }),
    BACKUP_DIR: Type.String({
      default: '',
      description:
        "Where scheduled backups go (`npm run backup` on a schedule, as a durable job): a folder, or `s3://bucket/prefix` (reached with the school's S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY and S3_FORCE_PATH_STYLE; S3_BUCKET need not be set); each backup in a folder named by its time. Empty: no scheduled backups.",
    }),
    BACKUP_EVERY_HOURS: Type.Integer({
      minimum: 1,
      maximum: 8760,
      default: 24,
      description: 'Hours between scheduled backups.',
    }),
    BACKUP_KEEP: Type.Integer({
      minimum: 1,
      maximum: 1000,
      default: 7,
      description:
        'How many scheduled backups are kept in BACKUP_DIR (folder or bucket); older ones are deleted after each new one.',
    }),
    METRICS_TOKEN: Type.String({
      default: '',
      pattern: '^$|^[A-Za-z0-9._~+/=-]{24,200}$',
      description:
        'Turns on `/metrics` (the Prometheus text format) for scrapers sending `Authorization: Bearer <this token>`: at least 24 characters (e.g. `openssl rand -hex 32`). Empty: `/metrics` is not served.',
    }),
    OTEL_EXPORTER_OTLP_ENDPOINT: Type.String({
      default: '',
      pattern: '^(https?://[^?#\\s]+)?$',
      description:
        "Turns on OpenTelemetry traces: the OTLP/HTTP collector's base URL (`http://collector:4318`); spans go to its `/v1/traces`. The SDK's own variables apply too (OTEL_SERVICE_NAME, OTEL_EXPORTER_OTLP_HEADERS, OTEL_TRACES_SAMPLER, …). Empty: no traces, and no part of OpenTelemetry is loaded.",
    }),
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: Type.String({
      default: '',
      pattern: '^(https?://[^?#\\s]+)?$',
      description:
        'The full URL spans are sent to (`http://collector:4318/v1/traces`), used as given; takes the place of OTEL_EXPORTER_OTLP_ENDPOINT for traces, and turns them on by itself.',
    }),
    DOCS_CACHE_SECONDS: Type.Integer({
      minimum: 0,
      maximum: 3600,
      default: 60,
      description:
        'How long an instance keeps a generated /llms.txt, /llms-full.txt or /pricing.md (0 regenerates on every request). A write through the API on an instance clears them at once; other instances show it within this time.',
    }),
    OAUTH_REGISTRATIONS_PER_HOUR: Type.Integer({
      minimum: 1,
      maximum: 100000,
      default: 30,
      description: 'Client registrations accepted per address per hour.',
    }),
    OAUTH_AUTHORIZATIONS_PER_MINUTE: Type.Integer({
      minimum: 1,
      maximum: 1000000,
      default: 300,
      description:
        'Authorization requests (`GET /oauth/authorize`) accepted per address per minute; each stores an interaction for 10 minutes.',
    }),
    STORAGE_DIR: Type.String({
      default: '',
      description:
        'Folder of uploaded files when no S3 bucket is configured. Defaults to `files/` beside the SQLite database (`./data/files` with PostgreSQL).',
    }),
    S3_BUCKET: Type.String({
      default: '',
      description:
        'An S3-compatible bucket for uploaded files; when set, files go there instead of STORAGE_DIR (the bucket must exist).',
    }),
    S3_ENDPOINT: Type.String({
      default: '',
      pattern: '^(https?://\\S+)?$',
      description: "The S3-compatible service's URL (MinIO, R2, …); unset means AWS S3 itself.",
    }),
    S3_REGION: Type.String({ default: 'us-east-1', minLength: 1, description: 'Region of the bucket.' }),
    S3_ACCESS_KEY_ID: Type.String({
      default: '',
      description: "Access key of the bucket; unset means the AWS SDK's usual sources (environment, instance role).",
    }),
    S3_SECRET_ACCESS_KEY: Type.String({ default: '', description: 'Secret of S3_ACCESS_KEY_ID.' }),
    S3_FORCE_PATH_STYLE: Type.Union([Type.Literal('true'), Type.Literal('false')], {
      default: 'false',
      description:
        'Address the bucket as `ENDPOINT/BUCKET/key` rather than `BUCKET.ENDPOINT/key` (MinIO and most self-hosted services need it).',
    }),
    PAYMENTS_PROVIDER: Type.Union([Type.Literal('none'), Type.Literal('test'), Type.Literal('stripe')], {
      default: 'none',
      description:
        'Who takes payments: `stripe` (Checkout Sessions and signed webhooks; needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET), `test` (a built-in payment page marked as a test, for demos and tests; refused when BASE_URL is https unless PAYMENTS_TEST_ALLOW_HTTPS is true) or `none` (only free items can be taken).',
    }),
    PAYMENTS_TEST_ALLOW_HTTPS: Type.Union([Type.Literal('true'), Type.Literal('false')], {
      default: 'false',
      description:
        'Let the `test` payment provider run on an https BASE_URL (a staging site). Never on a school that sells for real: its page marks any order paid.',
    }),
    STRIPE_SECRET_KEY: Type.String({
      default: '',
      pattern: '^((sk|rk)_(test|live)_\\S+)?$',
      description: "The school's Stripe secret (or restricted) API key, `sk_live_…` or `sk_test_…`.",
    }),
    STRIPE_WEBHOOK_SECRET: Type.String({
      default: '',
      pattern: '^(whsec_\\S+)?$',
      description:
        'The signing secret (`whsec_…`) of the Stripe webhook endpoint pointed at `{BASE_URL}/webhooks/stripe`; events whose signature does not match it are refused.',
    }),
    STRIPE_API_URL: Type.String({
      default: '',
      pattern: '^(https?://\\S+)?$',
      description:
        "Where the Stripe API is reached; unset means Stripe itself (`https://api.stripe.com`). For a local stand-in of Stripe's API in tests.",
    }),
    SUBSCRIPTION_GRACE_DAYS: Type.Integer({
      minimum: 0,
      maximum: 60,
      default: 7,
      description:
        "Days a past-due subscription keeps its plan's courses open after the period it paid for ended, while the renewal payment is retried.",
    }),
    MEDIA_URL_TTL_SECONDS: Type.Integer({
      minimum: 60,
      maximum: 86400,
      default: 3600,
      description:
        'Lifetime of the signed URL of lesson media (video, audio, PDF, downloads) handed to a caller entitled to the lesson. A player keeps working this long after the lesson was loaded.',
    }),
    UPLOAD_LIMIT_IMAGE_BYTES: Type.Integer({
      minimum: 1024,
      maximum: 5_000_000_000,
      default: 10_000_000,
      description: 'Largest image upload (covers, avatars, logos), in bytes.',
    }),
    UPLOAD_LIMIT_VIDEO_BYTES: Type.Integer({
      minimum: 1024,
      maximum: 5_000_000_000,
      default: 2_000_000_000,
      description: 'Largest video upload, in bytes.',
    }),
    UPLOAD_LIMIT_AUDIO_BYTES: Type.Integer({
      minimum: 1024,
      maximum: 5_000_000_000,
      default: 500_000_000,
      description: 'Largest audio upload, in bytes.',
    }),
    UPLOAD_LIMIT_PDF_BYTES: Type.Integer({
      minimum: 1024,
      maximum: 5_000_000_000,
      default: 100_000_000,
      description: 'Largest PDF upload, in bytes.',
    }),
    UPLOAD_LIMIT_DOWNLOAD_BYTES: Type.Integer({
      minimum: 1024,
      maximum: 5_000_000_000,
      default: 1_000_000_000,
      description: 'Largest download upload (any other file offered for download in a lesson), in bytes.',
    }),
  },
  { additionalProperties: false },
);

export type ConfigInput = Static<typeof ConfigSchema>;

export type Config = Omit<
  ConfigInput,
  | 'BASE_URL'
  | 'REDIS_URL'
  | 'COOKIE_SECURE'
  | 'TRUST_PROXY'
  | 'OAUTH_ALLOW_LOCALHOST_REDIRECTS'
  | 'STORAGE_DIR'
  | 'S3_FORCE_PATH_STYLE'
  | 'PAYMENTS_TEST_ALLOW_HTTPS'
> & {
  OAUTH_ALLOW_LOCALHOST_REDIRECTS: boolean;
  BASE_URL: string;
  REDIS_URL: string | undefined;
  COOKIE_SECURE: boolean;
  /** false, a hop count, or a list of proxy addresses/CIDRs, as Fastify's `trustProxy` takes them. */
  TRUST_PROXY: false | number | string;
  database: { engine: 'sqlite'; path: string } | { engine: 'postgres'; url: string };
  /** Where uploaded files are kept: this folder, unless S3_BUCKET is set. */
  STORAGE_DIR: string;
  S3_FORCE_PATH_STYLE: boolean;
  PAYMENTS_TEST_ALLOW_HTTPS: boolean;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function allowedValues(schema: TSchema): string {
  const s = schema as unknown as Record<string, unknown>;
  if (Array.isArray(s.anyOf)) return `one of ${s.anyOf.map((v: { const: string }) => v.const).join(', ')}`;
  if (s.type === 'integer') return `an integer from ${s.minimum} to ${s.maximum}`;
  return String(s.description);
}

/** The http origin of a listening address (IPv6 hosts in brackets). */
export const listenOrigin = (host: string, port: number) => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

/**
 * A backup place given as `s3://bucket/prefix` (BACKUP_DIR, `npm run backup`): its bucket and its key prefix without
 * slashes at the ends, or undefined for a folder. A malformed one throws (saying what is expected) rather than being
 * taken for a folder named `s3:`.
 */
export function s3BackupUrl(text: string): { bucket: string; prefix: string } | undefined {
  if (!/^s3:/i.test(text)) return undefined;
  const found = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(text);
  const prefix = (found?.[2] ?? '').replace(/\/+$/, '');
  const odd = (part: string) => part === '' || part === '.' || part === '..';
  if (!found || (prefix !== '' && prefix.split('/').some(odd)))
    throw new ConfigError(
      'expected s3://bucket/prefix: a bucket name of 3 to 63 lower-case letters, digits, dots and hyphens, then a prefix of folder names (no empty, . or .. ones).',
    );
  return { bucket: found[1] as string, prefix };
}

/** Reads settings from an environment object; throws one ConfigError line naming the first bad variable. */
/**
 * A setting read from the file `<KEY>_FILE` names, as container secrets are mounted (Docker's and Kubernetes'
 * convention): the file's text without its final line break. Both forms at once are refused, as is a file that
 * cannot be read.
 */
function fromFile(key: string, path: string | undefined, cwd: string, alsoSet: boolean): string | undefined {
  if (!path) return undefined;
  if (alsoSet) throw new ConfigError(`Set ${key} or ${key}_FILE, not both.`);
  try {
    return readFileSync(resolve(cwd, path), 'utf8').replace(/\r?\n$/, '');
  } catch (error) {
    throw new ConfigError(
      `Cannot read ${key}_FILE=${JSON.stringify(path)}: ${(error as NodeJS.ErrnoException).code ?? error}.`,
    );
  }
}

/** Settings whose values are never shown, even when refused. */
const SECRET_SETTING = /SECRET|TOKEN|PASSWORD|_KEY($|_)/;

export function loadConfig(env: Record<string, string | undefined>, cwd = process.cwd()): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(ConfigSchema.properties)) {
    const file = fromFile(key, env[`${key}_FILE`], cwd, Boolean(env[key]));
    const value = env[key] || file;
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const withDefaults = Value.Default(ConfigSchema, Value.Convert(ConfigSchema, raw)) as Record<string, unknown>;
  for (const [key, schema] of Object.entries(ConfigSchema.properties)) {
    if (!Value.Check(schema, withDefaults[key])) {
      // Credentials in URLs never reach the terminal, nor do secrets at all.
      const given = env[key] || (env[`${key}_FILE`] ? String(raw[key] ?? '') : env[key]);
      const shown = SECRET_SETTING.test(key) ? '(hidden)' : JSON.stringify(given)?.replace(/\/\/[^/@]*@/, '//***@');
      const named = env[key] ? key : env[`${key}_FILE`] ? `${key} (from ${key}_FILE)` : key;
      throw new ConfigError(`Invalid ${named}=${shown}: expected ${allowedValues(schema)}.`);
    }
  }
  const input = withDefaults as ConfigInput;
  const baseUrl = input.BASE_URL || listenOrigin(input.HOST, input.PORT);
  try {
    const url = new URL(baseUrl);
    if (url.origin !== baseUrl) throw new Error('not an origin');
  } catch {
    throw new ConfigError(
      `Invalid BASE_URL=${JSON.stringify(baseUrl)}: expected an origin like https://school.example or http://127.0.0.1:3000 (no path, no trailing slash).`,
    );
  }
  const docsUrl = input.DOCS_URL || `${baseUrl}/auth.md`;
  if (!/^https?:\/\/\S+$/.test(docsUrl) || !URL.canParse(docsUrl)) {
    throw new ConfigError(
      `Invalid DOCS_URL=${JSON.stringify(docsUrl)}: expected an absolute http(s) URL like https://docs.example/support.`,
    );
  }
  if (
    input.PAYMENTS_PROVIDER === 'test' &&
    baseUrl.startsWith('https:') &&
    input.PAYMENTS_TEST_ALLOW_HTTPS !== 'true'
  ) {
    throw new ConfigError(
      'PAYMENTS_PROVIDER=test marks orders paid without taking money, and BASE_URL is https (a live school): use stripe, or set PAYMENTS_TEST_ALLOW_HTTPS=true on a staging site.',
    );
  }
  if (input.PAYMENTS_PROVIDER === 'stripe' && (!input.STRIPE_SECRET_KEY || !input.STRIPE_WEBHOOK_SECRET)) {
    throw new ConfigError(
      'PAYMENTS_PROVIDER=stripe needs STRIPE_SECRET_KEY (sk_…) and STRIPE_WEBHOOK_SECRET (whsec_…, from the webhook endpoint at {BASE_URL}/webhooks/stripe).',
    );
  }
  const dbUrl = input.DATABASE_URL;
  let database: Config['database'];
  if (/^postgres(ql)?:\/\//.test(dbUrl)) {
    database = { engine: 'postgres', url: dbUrl };
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(dbUrl)) {
    throw new ConfigError(
      `Invalid DATABASE_URL: the scheme of ${JSON.stringify(dbUrl.split(':')[0])} is not supported; use a SQLite file path or a postgres:// URL.`,
    );
  } else {
    const path = dbUrl.replace(/^sqlite:/, '');
    database = { engine: 'sqlite', path: path === ':memory:' || isAbsolute(path) ? path : resolve(cwd, path) };
  }
  return {
    ...input,
    BASE_URL: baseUrl,
    DOCS_URL: docsUrl,
    REDIS_URL: input.REDIS_URL || undefined,
    COOKIE_SECURE: input.COOKIE_SECURE === 'auto' ? baseUrl.startsWith('https:') : input.COOKIE_SECURE === 'true',
    TRUST_PROXY:
      input.TRUST_PROXY === 'false'
        ? false
        : /^\d+$/.test(input.TRUST_PROXY)
          ? Number(input.TRUST_PROXY)
          : input.TRUST_PROXY,
    OAUTH_ALLOW_LOCALHOST_REDIRECTS: input.OAUTH_ALLOW_LOCALHOST_REDIRECTS === 'true',
    database,
    BACKUP_DIR: backupDir(input.BACKUP_DIR, cwd),
    STORAGE_DIR: input.STORAGE_DIR
      ? resolve(cwd, input.STORAGE_DIR)
      : database.engine === 'sqlite' && database.path !== ':memory:'
        ? join(dirname(database.path), 'files')
        : resolve(cwd, 'data/files'),
    S3_FORCE_PATH_STYLE: input.S3_FORCE_PATH_STYLE === 'true',
    PAYMENTS_TEST_ALLOW_HTTPS: input.PAYMENTS_TEST_ALLOW_HTTPS === 'true',
  };
}

/** BACKUP_DIR as the schedule uses it: an `s3://` address as given, a folder made absolute. */
function backupDir(value: string, cwd: string): string {
  if (!value) return '';
  try {
    return s3BackupUrl(value) ? value : resolve(cwd, value);
  } catch (error) {
    throw new ConfigError(`Invalid BACKUP_DIR=${JSON.stringify(value)}: ${(error as Error).message}`);
  }
}

/** The configuration table of docs/operations.md, in Markdown. */
export function configTable(): string {
  const rows = Object.entries(ConfigSchema.properties).map(([key, schema]) => {
    const s = schema as unknown as Record<string, unknown>;
    const fallback = s.default === '' ? '(unset)' : `\`${s.default}\``;
    const allowed = Array.isArray(s.anyOf)
      ? ` One of: ${s.anyOf.map((v: { const: string }) => `\`${v.const}\``).join(', ')}.`
      : '';
    return `| \`${key}\` | ${fallback} | ${s.description}${allowed} |`;
  });
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}
