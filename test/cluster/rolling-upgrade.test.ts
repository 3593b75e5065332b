import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { loadConfig } from '../../src/config.ts';
import { connectDatabase, type Database } from '../../src/db/connect.ts';
import { examine } from '../../src/health/doctor.ts';
import { apiClient, createUser, type Person, tokenFor } from '../support/api.ts';
import { clusterMissing } from '../support/caddy.ts';
import { freshDatabaseUrl } from '../support/databases.ts';
import { authorizeThroughForms, authorizeUrl, pkce, registerClient, tokenRequest } from '../support/oauth.ts';
import { runScript, type ServerProcess, startMain } from '../support/process.ts';
import { freePort } from '../support/server.ts';
import { completeSetup, csrfOf, OWNER, WebClient } from '../support/web-client.ts';

const skip = clusterMissing;

const ROOT = resolve(import.meta.dirname, '../..');
const CLIENTS = { readers: 4, flows: 4, writers: 4, buyers: 4 };
const PAID_COURSES = 3;
/** A client's pause between operations: 16 clients flat out would leave a new instance no CPU to start on two cores. */
const THINK_MS = 50;
/** Caddy's active health check; an instance draining for twice as long is out of rotation before it closes. */
const HEALTH_INTERVAL_MS = 500;
const DRAIN_SECONDS = 2;
/**
 * How long a new instance serves before the next old one is stopped. A fresh process answers slowly for its first
 * seconds under its share of the load (code compiled on first use, connections opened): with the old one already
 * draining, a health check it misses then would leave Caddy no instance at all, and Debian's Caddy (2.6) answers a
 * POST 503 at once when it finds none, without waiting lb_try_duration (fixed in Caddy 2.7.5).
 */
const SETTLE_MS = 5_000;

/**
 * The next version of the school, as a folder of its own: this source with one more migration (a nullable column on
 * the courses every request reads, the expand step of a change) and its own version number.
 */
function nextBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lyceum-next-'));
  cpSync(ROOT, dir, {
    recursive: true,
    filter: (source) => !/[/\\](node_modules|\.git|\.test-artifacts)$/.test(source),
  });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(
    join(dir, 'src/db/migrations/900_rolling_check.ts'),
    `import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const rollingCheck: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('courses').addColumn('rolling_check', 'text').execute();
  },
};
`,
  );
  const index = join(dir, 'src/db/migrations/index.ts');
  const source = readFileSync(index, 'utf8')
    .replace(/^(import .*\n)(?!import )/m, `$1import { rollingCheck } from './900_rolling_check.ts';\n`)
    .replace(/(const migrations: Record<string, Migration> = \{\n)/, `$1  '900_rolling_check': rollingCheck,\n`);
  assert.match(source, /'900_rolling_check': rollingCheck/);
  writeFileSync(index, source);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...pkg, version: `${pkg.version}-next` }, null, 2));
  return dir;
}

type Failure = { client: string; what: string };
type Timing = { kind: keyof typeof CLIENTS; ms: number };

/**
 * A rolling upgrade under load, as docs/operations.md describes it: two instances on one PostgreSQL and Redis behind
 * Caddy on HTTPS, 16 clients reading the catalog, signing in through the authorization flow, writing courses and
 * buying courses with the test provider; meanwhile the next version's migration runs and each instance is stopped
 * (SIGTERM, draining) and replaced by the next version, one after the other. No request may fail, at the clients or in
 * Caddy's log, and every write a client was told had succeeded is in the database afterwards.
 */
describe('a rolling upgrade behind Caddy, under 16 clients', { skip }, () => {
  let caddy: ChildProcess;
  let port: number;
  let base: string;
  let dir: string;
  let databaseUrl: string;
  let database: Database;
  const ports: number[] = [];
  const instances: ServerProcess[] = [];
  let env: Record<string, string>;

  const start = (instancePort: number, cwd?: string) =>
    startMain({ ...env, PORT: String(instancePort) }, (line) => line.includes('Server listening'), { cwd });

  /** True once the instance on `instancePort` answers /readyz itself (Caddy's next check then finds it ready). */
  const ready = async (instancePort: number) => {
    for (let tries = 0; tries < 300; tries++) {
      const answer = await fetch(`http://127.0.0.1:${instancePort}/readyz`).catch(() => undefined);
      if (answer?.status === 200) return;
      await sleep(100);
    }
    throw new Error(`the instance on ${instancePort} did not become ready`);
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lyceum-rolling-'));
    port = await freePort();
    base = `https://localhost:${port}`;
    ports.push(await freePort(), await freePort());
    databaseUrl = await freshDatabaseUrl('postgres');
    env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: process.env.TEST_REDIS_URL ?? '',
      REDIS_PREFIX: `rolling${Date.now()}:`,
      BASE_URL: base,
      TRUST_PROXY: '1',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      STORAGE_DIR: join(dir, 'files'),
      MIGRATE_ON_START: 'false',
      STOP_DRAIN_SECONDS: String(DRAIN_SECONDS),
      PAYMENTS_PROVIDER: 'test',
      PAYMENTS_TEST_ALLOW_HTTPS: 'true',
      SIGNIN_MAX_FAILURES: '1000',
      OAUTH_AUTHORIZATIONS_PER_MINUTE: '1000000',
      OAUTH_REGISTRATIONS_PER_HOUR: '100000',
    };
    const migrated = await runScript('src/migrate.ts', [], env);
    assert.equal(migrated.code, 0, migrated.out);
    instances.push(await start(ports[0] as number), await start(ports[1] as number));

    const caddyfile = join(dir, 'Caddyfile');
    writeFileSync(
      caddyfile,
      `{
	admin off
	auto_https disable_redirects
	skip_install_trust
	storage file_system ${join(dir, 'caddy')}
}
${base} {
	tls internal
	log {
		output file ${join(dir, 'access.log')}
		format json
	}
	reverse_proxy ${ports.map((p) => `127.0.0.1:${p}`).join(' ')} {
		lb_policy least_conn
		lb_try_duration 10s
		lb_try_interval 100ms
		health_uri /readyz
		health_interval ${HEALTH_INTERVAL_MS}ms
		health_timeout 5s
	}
}
`,
    );
    // Caddy's own log (its health checks among it), read when a request failed.
    caddy = spawn('caddy', ['run', '--config', caddyfile, '--adapter', 'caddyfile'], {
      stdio: ['ignore', 'ignore', openSync(join(dir, 'caddy.log'), 'w')],
      env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
    });
    // Caddy's own certificate authority, trusted by this process as a school's visitors trust a public one.
    const root = join(dir, 'caddy/pki/authorities/local/root.crt');
    for (let tries = 0; !existsSync(root); tries++) {
      if (tries > 300) throw new Error('Caddy made no certificate authority');
      await sleep(100);
    }
    setDefaultCACertificates([...getCACertificates('default'), readFileSync(root, 'utf8')]);
    for (let tries = 0; ; tries++) {
      const answer = await fetch(`${base}/readyz`).catch(() => undefined);
      if (answer?.status === 200) break;
      if (tries > 300) throw new Error('the school is not reachable through Caddy');
      await sleep(100);
    }
    database = connectDatabase(loadConfig({ DATABASE_URL: databaseUrl }).database);
  });
  after(async () => {
    caddy?.kill('SIGTERM');
    for (const instance of instances) instance.child.kill('SIGTERM');
    await Promise.all(instances.map((i) => i.exited));
    await database?.close();
  });

  test('the instances are replaced by the next version one by one: no request fails, no acknowledged write is lost', async (t) => {
    const setupLine = instances.flatMap((i) => i.lines).find((l) => l.includes('setup_url')) ?? '';
    await completeSetup(
      base,
      (JSON.parse(setupLine) as { setup_url: string }).setup_url.replace(/^https?:\/\/[^/]+/, base),
    );
    const owner = { email: OWNER.email, password: OWNER.password };
    const staff = apiClient(base, await tokenFor({ url: base }, owner, 'courses:read courses:write curriculum:write'));
    const ok = async <T>(call: Promise<{ status: number; body: unknown }>) => {
      const answer = await call;
      assert.ok(answer.status < 300, JSON.stringify(answer.body));
      return answer.body as T;
    };
    const courses: { id: string; slug: string }[] = [];
    for (let n = 0; n < PAID_COURSES; n++) {
      const made = await ok<{ id: string; slug: string }>(
        staff.post('/api/v1/courses', { title: `Paid course ${n}`, price: { amount: 1000 + n, currency: 'EUR' } }),
      );
      const section = await ok<{ id: string }>(staff.post(`/api/v1/courses/${made.id}/sections`, { title: 'Start' }));
      await ok(staff.post(`/api/v1/sections/${section.id}/publish`));
      const lesson = await ok<{ id: string }>(
        staff.post(`/api/v1/sections/${section.id}/lessons`, { title: 'First', body: 'Welcome.' }),
      );
      await ok(staff.post(`/api/v1/lessons/${lesson.id}/publish`));
      await ok(staff.post(`/api/v1/courses/${made.id}/publish`));
      courses.push(made);
    }
    const students: Person[] = [];
    for (let n = 0; n < 120; n++) students.push(await createUser({ database }, 'student', `Rolling student ${n}`));
    // The doctor, through Caddy as a visitor comes: nothing to fix, and the proxy's forwarded address arrives.
    const findings = await examine(loadConfig(env), { now: () => new Date() });
    assert.deepEqual(
      findings.filter((f) => f.level === 'fix'),
      [],
    );
    assert.ok(findings.some((f) => f.what.startsWith('the proxy passes the public address through')));
    const app = await registerClient(base, 45000, { client_name: 'Rolling upgrade check' });
    const redirectUri = 'http://127.0.0.1:45000/callback';

    const failures: Failure[] = [];
    const timings: Timing[] = [];
    const written: string[] = [];
    const paid: string[] = [];
    let running = true;
    /** `body`, when given, is quoted in the failure: an error's description says which part failed. */
    const expect = (what: string, status: number, wanted: number[], body?: unknown) => {
      if (wanted.includes(status)) return;
      const said = (body as { error_description?: unknown } | undefined)?.error_description;
      throw new Error(`${what} answered ${status}${typeof said === 'string' ? `: ${said}` : ''}`);
    };
    const loop = (kind: keyof typeof CLIENTS, n: number, step: () => Promise<void>) =>
      (async () => {
        const client = `${kind} ${n}`;
        while (running) {
          const started = performance.now();
          try {
            await step();
            timings.push({ kind, ms: performance.now() - started });
          } catch (error) {
            failures.push({ client, what: (error as Error).message });
          }
          await sleep(THINK_MS);
        }
      })();

    const readers = Array.from({ length: CLIENTS.readers }, (_, n) =>
      loop('readers', n, async () => {
        const list = await fetch(`${base}/api/v1/courses?limit=5`);
        await list.arrayBuffer();
        expect('the course list', list.status, [200]);
        const page = await fetch(`${base}/courses`);
        await page.arrayBuffer();
        expect('the catalog page', page.status, [200]);
      }),
    );
    let nextStudent = 0;
    const flows = Array.from({ length: CLIENTS.flows }, (_, n) =>
      loop('flows', n, async () => {
        const person = students[(nextStudent++ % 40) + 80] as Person;
        const { verifier, challenge } = pkce();
        const result = await authorizeThroughForms(
          new WebClient(base),
          authorizeUrl(base, {
            response_type: 'code',
            client_id: app.client_id,
            redirect_uri: redirectUri,
            scope: 'openid courses:read',
            code_challenge: challenge,
            code_challenge_method: 'S256',
          }),
          person,
        );
        const code = result.location.searchParams.get('code');
        if (!code) throw new Error(`the flow ended at ${result.location.pathname} with ${result.status}`);
        const tokens = await tokenRequest(base, {
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          client_id: app.client_id,
          code_verifier: verifier,
        });
        expect('the token request', tokens.status, [200]);
        const me = await fetch(`${base}/api/v1/courses?limit=1`, {
          headers: { authorization: `Bearer ${tokens.body.access_token}` },
        });
        await me.arrayBuffer();
        expect('a call with the token', me.status, [200]);
      }),
    );
    const writers = Array.from({ length: CLIENTS.writers }, (_, n) => {
      let count = 0;
      return loop('writers', n, async () => {
        const made = await staff.post('/api/v1/courses', { title: `Written by ${n}, number ${count++}` });
        expect('a new course', made.status, [201], made.body);
        written.push(String((made.body as { id: string }).id));
      });
    });
    let buyer = 0;
    const buyers = Array.from({ length: CLIENTS.buyers }, (_, n) =>
      loop('buyers', n, async () => {
        const person = students[buyer++ % 80] as Person;
        const web = new WebClient(base);
        const signedIn = await web.submit('/signin', '/signin', { email: person.email, password: person.password });
        expect('signing in', signedIn.status, [303]);
        for (const course of courses) {
          const review = await web.get(`/checkout/course/${course.slug}`);
          if (review.status === 303) continue; // already bought by this student in an earlier round
          expect('the checkout page', review.status, [200]);
          if (!review.text.includes(`action="/checkout/course/${course.slug}"`)) continue;
          const started = await web.postForm(`/checkout/course/${course.slug}`, { _csrf: csrfOf(review.text) });
          expect('starting the checkout', started.status, [303]);
          const payAt = new URL(started.location ?? '', base).pathname;
          const payment = await web.get(payAt);
          expect('the test payment page', payment.status, [200]);
          const done = await web.postForm(payAt, { _csrf: csrfOf(payment.text), outcome: 'pay' });
          expect('paying', done.status, [303]);
          paid.push(new URL(done.location ?? '', base).pathname.split('/').at(-1) ?? '');
        }
      }),
    );

    const began = performance.now();
    const beganEpoch = Date.now() / 1000;
    const at = () => Math.round(performance.now() - began);
    const steps: string[] = [];
    await sleep(3_000);
    const next = nextBuild();
    const migrated = await runScript('src/migrate.ts', [], env, { cwd: next });
    assert.equal(migrated.code, 0, migrated.out);
    steps.push(`${at()} ms: ${migrated.out.trim()}`);
    for (const [n, instancePort] of ports.entries()) {
      const old = instances[n] as ServerProcess;
      old.child.kill('SIGTERM');
      assert.equal(await old.exited, 0, old.lines.slice(-5).join('\n'));
      steps.push(`${at()} ms: instance ${n + 1} of the old version stopped`);
      instances[n] = await start(instancePort, next);
      await ready(instancePort);
      steps.push(`${at()} ms: instance ${n + 1} of the next version ready`);
      await sleep(SETTLE_MS);
    }
    await sleep(3_000);
    running = false;
    await Promise.all([...readers, ...flows, ...writers, ...buyers]);
    const seconds = (performance.now() - began) / 1000;

    // What Caddy saw: every request it answered, with the status it gave.
    await sleep(500);
    const logged = readFileSync(join(dir, 'access.log'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { status: number; request: { method: string; uri: string } });
    const refused = logged.filter((entry) => entry.status >= 400 || entry.status === 0);

    const row = (kind: keyof typeof CLIENTS) => {
      const ms = timings
        .filter((x) => x.kind === kind)
        .map((x) => x.ms)
        .sort((a, b) => a - b);
      const q = (p: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor((p / 100) * ms.length))] ?? 0);
      return `${kind}: ${ms.length} done, p50 ${q(50)} ms, p99 ${q(99)} ms, max ${Math.round(ms.at(-1) ?? 0)} ms`;
    };
    const figures = [
      `${logged.length} requests through Caddy in ${seconds.toFixed(1)} s; ${refused.length} answered with an error; ${failures.length} client failures`,
      ...(['readers', 'flows', 'writers', 'buyers'] as const).map(row),
      `${written.length} courses written, ${paid.length} orders paid`,
      ...steps,
    ];
    for (const line of figures) t.diagnostic(line);
    mkdirSync(join(ROOT, '.test-artifacts'), { recursive: true });
    writeFileSync(join(ROOT, '.test-artifacts', 'rolling-upgrade.txt'), `${figures.join('\n')}\n`);

    // What Caddy said of the instances' health, to tell a failure's cause.
    const health = readFileSync(join(dir, 'caddy.log'), 'utf8')
      .split('\n')
      .filter((line) => /health|host is (up|down)|unhealthy|no upstreams/i.test(line));
    assert.deepEqual(
      failures,
      [],
      `no client saw a failed request\nclients began at ${beganEpoch} (epoch s)\n${[...steps, ...health].join('\n')}`,
    );
    assert.deepEqual(
      refused.map((e) => `${e.status} ${e.request.method} ${e.request.uri}`),
      [],
      'Caddy answered every request without an error',
    );
    for (const kind of Object.keys(CLIENTS) as (keyof typeof CLIENTS)[])
      assert.ok(
        timings.some((x) => x.kind === kind),
        `some ${kind} completed`,
      );

    const stored = new Set(
      (await database.db.selectFrom('courses').select('id').where('id', 'in', written).execute()).map((r) => r.id),
    );
    assert.deepEqual(
      written.filter((id) => !stored.has(id)),
      [],
      'every course a writer was told was made is there',
    );
    const orders = await database.db.selectFrom('orders').select(['id', 'status']).where('id', 'in', paid).execute();
    assert.equal(orders.length, paid.length, 'every order a buyer paid is there');
    assert.deepEqual(
      orders.filter((o) => o.status !== 'paid'),
      [],
      'and it is paid',
    );
    for (const [n, instance] of instances.entries())
      assert.ok(
        instance.lines.some((line) => line.includes('request completed') && line.includes('/api/v1/courses')),
        `instance ${n + 1} of the next version served the clients`,
      );
    const applied = await database.db
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .execute();
    assert.ok((applied as { name: string }[]).some((m) => m.name === '900_rolling_check'));
  });
});
