import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { examine } from '../../src/health/doctor.ts';
import { freshDatabaseUrl } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

describe('npm run doctor', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(
      'sqlite',
      process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL } : {},
    );
  });
  after(() => server.close());

  test('a school that runs: nothing to fix, and each check says what it found', async () => {
    const findings = await examine(server.config, { now: () => new Date() });
    assert.deepEqual(
      findings.filter((f) => f.level === 'fix'),
      [],
    );
    const said = findings.map((f) => f.what);
    assert.ok(said.includes(`the school answers at ${server.url}/readyz`), said.join('\n'));
    assert.ok(said.includes('the database schema is current'));
    assert.ok(said.includes('the proxy passes the public address through: the school names itself right'));
    assert.ok(said.some((s) => s.startsWith('files can be stored')));
    if (process.env.TEST_REDIS_URL) assert.ok(said.includes('Redis answers'));
  });

  test('a broken configuration: each problem named with what to do, and exit code 1', async () => {
    const notAFolder = join(mkdtempSync(join(tmpdir(), 'lyceum-doctor-')), 'file');
    writeFileSync(notAFolder, '');
    const env = {
      DATABASE_URL: await freshDatabaseUrl('sqlite'),
      BASE_URL: 'http://school.example',
      SMTP_URL: 'smtp://user:secret@127.0.0.1:1',
      REDIS_URL: 'redis://127.0.0.1:1',
      STORAGE_DIR: join(notAFolder, 'files'),
    };
    const findings = await examine(loadConfig(env), { now: () => new Date() });
    const fixes = findings.filter((f) => f.level === 'fix').map((f) => `${f.what} → ${f.todo}`);
    const expect = [
      /^BASE_URL is plain HTTP \(http:\/\/school\.example\) → serve the school over HTTPS/,
      /^migrations pending: 001_foundation, .* → run npm run migrate$/,
      /^Redis does not answer \(no connection to 127\.0\.0\.1:1\) → check REDIS_URL/,
      /^SMTP does not work \(.*ECONNREFUSED.*\) → check SMTP_URL/,
      /^files cannot be stored \(.*\) → make .*files writable/,
    ];
    assert.equal(fixes.length, expect.length, fixes.join('\n'));
    for (const [i, pattern] of expect.entries()) assert.match(fixes[i] ?? '', pattern);
    assert.ok(!fixes.join('\n').includes('secret'), 'no password is shown');

    const run = spawnSync(process.execPath, ['src/doctor.ts'], { env: { ...process.env, ...env }, encoding: 'utf8' });
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /✖ migrations pending: .*\n {4}fix: run npm run migrate\n/);
    assert.match(run.stdout, /5 to fix\n$/);
  });
});
