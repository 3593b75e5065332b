import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../../src/config.ts';
import { connectDatabase } from '../../src/db/connect.ts';
import { clusterMissing } from '../support/caddy.ts';
import { freshDatabaseUrl } from '../support/databases.ts';
import { type ServerProcess, startMain } from '../support/process.ts';
import { freePort } from '../support/server.ts';

const HOST = 'lyceum.test';
const skip = clusterMissing;

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; text: string };

/**
 * Two instances on one PostgreSQL and Redis behind Caddy terminating HTTPS (its own internal CA), as docs/deploy.md
 * sets a school up: the address the school gives out, the cookies, the client addresses it records and the spreading
 * of requests over both instances are checked through the proxy, as a browser reaches it.
 */
describe('two instances behind Caddy on HTTPS', { skip }, () => {
  let port: number;
  let caddy: ChildProcess;
  const instances: ServerProcess[] = [];
  let databaseUrl: string;

  /** A request to the school through Caddy, its name resolved to this machine and Caddy's own certificate accepted. */
  const viaProxy = (path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const req = request(
        {
          host: HOST,
          port,
          path,
          method: init.method ?? 'GET',
          headers: init.headers,
          rejectUnauthorized: false,
          lookup: (_host, options, callback) =>
            (options as { all?: boolean }).all
              ? (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [
                  { address: '127.0.0.1', family: 4 },
                ])
              : (callback as (e: null, a: string, f: number) => void)(null, '127.0.0.1', 4),
        },
        (res) => {
          let text = '';
          res.on('data', (chunk) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        },
      );
      req.on('error', reject);
      req.end(init.body);
    });

  before(async () => {
    port = await freePort();
    const [a, b] = [await freePort(), await freePort()];
    databaseUrl = await freshDatabaseUrl('postgres');
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: process.env.TEST_REDIS_URL ?? '',
      BASE_URL: `https://${HOST}:${port}`,
      TRUST_PROXY: '1',
      LOG_LEVEL: 'info',
      STORAGE_DIR: mkdtempSync(join(tmpdir(), 'lyceum-files-')),
    };
    instances.push(await startMain({ ...env, PORT: String(a) }));
    instances.push(await startMain({ ...env, PORT: String(b) }, (line) => line.includes('Server listening')));

    const dir = mkdtempSync(join(tmpdir(), 'lyceum-caddy-'));
    const caddyfile = join(dir, 'Caddyfile');
    writeFileSync(
      caddyfile,
      `{
	admin off
	auto_https disable_redirects
	skip_install_trust
	storage file_system ${join(dir, 'data')}
}
https://${HOST}:${port} {
	tls internal
	reverse_proxy 127.0.0.1:${a} 127.0.0.1:${b} {
		lb_policy round_robin
	}
}
`,
    );
    caddy = spawn('caddy', ['run', '--config', caddyfile, '--adapter', 'caddyfile'], {
      stdio: 'ignore',
      env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
    });
    for (let tries = 0; ; tries++) {
      const open = await new Promise<boolean>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.end();
          resolve(true);
        }).on('error', () => resolve(false));
      });
      if (open) break;
      if (tries > 200) throw new Error('Caddy did not listen');
      await sleep(100);
    }
  });
  after(async () => {
    caddy?.kill('SIGTERM');
    for (const instance of instances) instance.child.kill('SIGTERM');
    await Promise.all(instances.map((i) => i.exited));
  });

  test("docs/deploy.md's Caddyfile is one Caddy reads", () => {
    execFileSync('caddy', ['adapt', '--config', 'docs/deploy/Caddyfile', '--adapter', 'caddyfile'], { stdio: 'pipe' });
  });

  test('the school gives out its public HTTPS address, and both instances serve', async () => {
    const ready = await viaProxy('/readyz');
    assert.equal(ready.status, 200, ready.text);
    const discovery = JSON.parse((await viaProxy('/.well-known/openid-configuration')).text) as { issuer: string };
    assert.equal(discovery.issuer, `https://${HOST}:${port}`);
    for (let i = 0; i < 6; i++) assert.equal((await viaProxy('/api/v1/courses?limit=1')).status, 200);
    const served = instances.map((i) => i.lines.filter((l) => l.includes('/api/v1/courses?limit=1')).length);
    assert.ok(
      served.every((n) => n > 0),
      `each instance answered some of the requests: ${served.join(' and ')}`,
    );
  });

  test("cookies are Secure and host-bound; a visitor's address is the one Caddy saw, not one they claim", async () => {
    const page = await viaProxy('/signin');
    assert.equal(page.status, 200);
    const cookies = [page.headers['set-cookie'] ?? []].flat();
    assert.ok(cookies.length > 0);
    for (const cookie of cookies) {
      assert.match(cookie, /^__Host-/, cookie);
      assert.match(cookie, /; Secure/i, cookie);
    }

    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
    const jar = cookies.map((c) => c.split(';')[0]).join('; ');
    const refused = await viaProxy('/signin', {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: jar,
        // A visitor claiming another address: Caddy does not pass on what an untrusted client claims.
        'x-forwarded-for': '203.0.113.9',
      },
      body: new URLSearchParams({ _csrf: csrf, email: 'nobody@school.test', password: 'not a password' }).toString(),
    });
    assert.ok([200, 400, 401].includes(refused.status), `${refused.status}`);
    const database = connectDatabase(loadConfig({ DATABASE_URL: databaseUrl }).database);
    try {
      const events = await database.db.selectFrom('sign_in_events').select(['ip', 'outcome']).execute();
      assert.deepEqual(events, [{ ip: '127.0.0.1', outcome: 'unknown_email' }]);
    } finally {
      await database.close();
    }
  });
});
