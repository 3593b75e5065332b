import { randomUUID } from 'node:crypto';
import type { Config } from '../config.ts';
import { connectDatabase } from '../db/connect.ts';
import { connectRedis, whenReady } from '../db/redis.ts';
import { configuredBlobStore } from '../storage/configured-blob-store.ts';

/** One finding: fine, worth knowing, or to be fixed (with what to do). */
export type Finding = { level: 'ok' | 'note' | 'fix'; what: string; todo?: string };

/** How long a check waits for a service that does not answer. */
const WAIT_MS = 5_000;
/** A clock further than this from the database's is wrong somewhere: tokens, trials and reminders depend on it. */
const CLOCK_SKEW_MS = 5_000;

const within = <T>(promise: Promise<T>, what: string) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not answer`)), WAIT_MS).unref()),
  ]);

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * `npm run doctor`: checks a configuration the way the school will use it, as Ghost's doctor does, and says what to
 * fix: the public address and the proxy in front, the database (reachable, clock, migrations), Redis, SMTP, the
 * payment keys and the file storage. Read-only but for one small file written to and deleted from the storage.
 */
export async function examine(config: Config, deps: { now: () => Date }): Promise<Finding[]> {
  const findings: Finding[] = [];
  const ok = (what: string) => findings.push({ level: 'ok', what });
  const note = (what: string) => findings.push({ level: 'note', what });
  const fix = (what: string, todo: string) => findings.push({ level: 'fix', what, todo });

  const base = new URL(config.BASE_URL);
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(base.hostname);
  if (base.protocol === 'https:') ok(`BASE_URL is HTTPS (${config.BASE_URL})`);
  else if (loopback) note(`BASE_URL is ${config.BASE_URL}: fine on this machine only`);
  else
    fix(
      `BASE_URL is plain HTTP (${config.BASE_URL})`,
      'serve the school over HTTPS behind a proxy (docs/operations.md) and set BASE_URL=https://…',
    );
  if (base.protocol === 'https:' && config.TRUST_PROXY === false)
    fix(
      'TRUST_PROXY is off while BASE_URL is HTTPS',
      'set TRUST_PROXY to the number of proxies in front (1 for one Caddy or nginx), so client addresses and rate limits are right',
    );

  if (config.STOP_DRAIN_SECONDS === 0 && (config.TRUST_PROXY !== false || config.REDIS_URL))
    note(
      'STOP_DRAIN_SECONDS is 0: behind a load balancer, a restart may answer a few requests with 503; set it to twice the health-check interval (2 with Caddy health_interval 1s)',
    );

  // Through the public address, as a visitor comes: the proxy, its certificate and the school behind it.
  try {
    const answer = await within(fetch(new URL('/readyz', config.BASE_URL)), config.BASE_URL);
    if (answer.ok) {
      ok(`the school answers at ${config.BASE_URL}/readyz`);
      // The authorization server writes its endpoints from the host and protocol the request arrived with (the
      // proxy's forwarded headers, where it is trusted): the school's own address back means the proxy passes them
      // and TRUST_PROXY is right.
      const metadata = await within(
        fetch(new URL('/.well-known/openid-configuration', config.BASE_URL)),
        config.BASE_URL,
      );
      const endpoint = String(
        ((await metadata.json().catch(() => ({}))) as { authorization_endpoint?: string }).authorization_endpoint ?? '',
      );
      if (endpoint.startsWith(`${config.BASE_URL}/`))
        ok('the proxy passes the public address through: the school names itself right');
      else
        fix(
          `through ${config.BASE_URL} the school names its sign-in ${endpoint || 'nowhere'}`,
          'make the proxy send X-Forwarded-Proto and X-Forwarded-Host (Caddy does by itself; nginx: proxy_set_header) and set TRUST_PROXY to the number of proxies in front',
        );
    } else
      fix(
        `${config.BASE_URL}/readyz answers ${answer.status}`,
        String(((await answer.json().catch(() => ({}))) as { error_description?: string }).error_description ?? ''),
      );
  } catch (error) {
    note(`the school does not answer at ${config.BASE_URL} (${reason(error)}): start it to check the proxy too`);
  }

  const database = connectDatabase(config.database, { poolSize: 1 });
  try {
    await database.ping(WAIT_MS);
    ok(`the ${config.database.engine} database answers`);
    const { pending, unknown } = await database.schema();
    if (unknown.length)
      fix(
        `the database was migrated by a newer version (${unknown.join(', ')})`,
        'run that version, or restore a backup made for this one',
      );
    else if (pending.length) fix(`migrations pending: ${pending.join(', ')}`, 'run npm run migrate');
    else ok('the database schema is current');
    if (config.database.engine === 'postgres') {
      const { rows } = await (await import('kysely')).sql<{ now: Date }>`select now() as now`.execute(database.db);
      const skew = Math.abs(deps.now().getTime() - new Date(rows[0]?.now ?? 0).getTime());
      if (skew > CLOCK_SKEW_MS)
        fix(
          `this clock is ${Math.round(skew / 1000)} s from the database's`,
          'run an NTP client (systemd-timesyncd, chrony) on both machines',
        );
      else ok("the clock agrees with the database's");
    }
  } catch (error) {
    fix(`the database does not answer (${reason(error)})`, 'check DATABASE_URL and that the database server runs');
  } finally {
    await database.close();
  }

  if (config.REDIS_URL) {
    const redis = connectRedis(config.REDIS_URL);
    try {
      if (!(await whenReady(redis, WAIT_MS, { orFailure: true })))
        throw new Error(`no connection to ${new URL(config.REDIS_URL).host}`);
      await within(redis.ping(), 'Redis');
      ok('Redis answers');
    } catch (error) {
      fix(`Redis does not answer (${reason(error)})`, 'check REDIS_URL and that Redis runs');
    } finally {
      redis.disconnect();
    }
  } else note('no REDIS_URL: fine for one instance; several instances need it');

  if (config.SMTP_URL) {
    const { createTransport } = await import('nodemailer');
    const transporter = createTransport(config.SMTP_URL);
    try {
      await within(transporter.verify(), 'the SMTP server');
      ok('the SMTP server answers and takes the credentials');
    } catch (error) {
      fix(`SMTP does not work (${reason(error)})`, 'check SMTP_URL: host, port, user and password');
    } finally {
      transporter.close();
    }
  } else note('no SMTP_URL: e-mail waits in the outbox (/admin/outbox) until it is set');

  if (config.PAYMENTS_PROVIDER === 'stripe') {
    const live = config.STRIPE_SECRET_KEY.startsWith('sk_live_') || config.STRIPE_SECRET_KEY.startsWith('rk_live_');
    if (!/^(sk|rk)_(live|test)_[A-Za-z0-9]+$/.test(config.STRIPE_SECRET_KEY))
      fix(
        'STRIPE_SECRET_KEY is not a Stripe secret key',
        'copy the sk_live_… (or restricted rk_live_…) key from Stripe',
      );
    else if (!live && base.protocol === 'https:') note('STRIPE_SECRET_KEY is a test key: no money is taken');
    else ok('the Stripe key has the form of a secret key');
    if (!/^whsec_[A-Za-z0-9]+$/.test(config.STRIPE_WEBHOOK_SECRET))
      fix(
        'STRIPE_WEBHOOK_SECRET is not a webhook signing secret',
        `copy the whsec_… secret of the endpoint ${config.BASE_URL}/webhooks/stripe`,
      );
  } else note(`payments: ${config.PAYMENTS_PROVIDER}`);

  // What the S3 client says goes nowhere: its failure is the finding.
  const blobs = await configuredBlobStore(config, { warn: () => {}, error: () => {} });
  const key = `doctor/${randomUUID()}`;
  try {
    const body = Buffer.from('lyceum doctor');
    await within(
      blobs.put(
        key,
        (async function* () {
          yield body;
        })(),
        { byteSize: body.length, contentType: 'text/plain' },
      ),
      'the storage',
    );
    await blobs.delete(key);
    ok(`files can be stored (${config.S3_BUCKET ? `bucket ${config.S3_BUCKET}` : config.STORAGE_DIR})`);
  } catch (error) {
    fix(
      `files cannot be stored (${reason(error)})`,
      config.S3_BUCKET
        ? 'check the S3_ settings and that the bucket exists'
        : `make ${config.STORAGE_DIR} writable by the school's user`,
    );
  } finally {
    await blobs.close();
  }
  return findings;
}
