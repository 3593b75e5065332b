import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ConfigError, configTable, loadConfig } from '../src/config.ts';

describe('configuration', () => {
  test('defaults: SQLite under ./data, 127.0.0.1:3000, BASE_URL from them', () => {
    const config = loadConfig({}, '/srv/school');
    assert.equal(config.PORT, 3000);
    assert.equal(config.HOST, '127.0.0.1');
    assert.equal(config.BASE_URL, 'http://127.0.0.1:3000');
    assert.deepEqual(config.database, { engine: 'sqlite', path: '/srv/school/data/lyceum.sqlite' });
    assert.equal(config.REDIS_URL, undefined);
    assert.equal(config.COOKIE_SECURE, false);
    assert.equal(config.DOCS_URL, 'http://127.0.0.1:3000/auth.md');
  });

  test('DOCS_URL defaults to the /auth.md of BASE_URL, or is any absolute http(s) URL', () => {
    assert.equal(loadConfig({ BASE_URL: 'https://school.example' }).DOCS_URL, 'https://school.example/auth.md');
    assert.equal(
      loadConfig({ DOCS_URL: 'https://docs.lyceum.example/integrations' }).DOCS_URL,
      'https://docs.lyceum.example/integrations',
    );
  });

  test('postgres URLs select PostgreSQL; https BASE_URL makes cookies Secure', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@db/lyceum',
      BASE_URL: 'https://school.example',
      PORT: '8080',
    });
    assert.deepEqual(config.database, { engine: 'postgres', url: 'postgres://u@db/lyceum' });
    assert.equal(config.COOKIE_SECURE, true);
    assert.equal(config.PORT, 8080);
  });

  for (const [env, pattern] of [
    [{ PORT: 'eighty' }, /^Invalid PORT="eighty": expected an integer from 0 to 65535\.$/],
    [{ PORT: '70000' }, /PORT/],
    [
      { LOG_LEVEL: 'loud' },
      /^Invalid LOG_LEVEL="loud": expected one of fatal, error, warn, info, debug, trace, silent\.$/,
    ],
    [{ BASE_URL: 'https://school.example/path' }, /BASE_URL/],
    [{ BASE_URL: 'ftp://school.example' }, /BASE_URL/],
    [{ DATABASE_URL: 'mysql://root@localhost/db' }, /DATABASE_URL.*mysql/],
    [{ REDIS_URL: 'localhost:6379' }, /REDIS_URL/],
    [{ COOKIE_SECURE: 'yes' }, /COOKIE_SECURE.*auto, true, false/],
    [{ DOCS_URL: 'docs.example' }, /^Invalid DOCS_URL="docs\.example": expected an absolute http\(s\) URL/],
    [{ DOCS_URL: 'ftp://docs.example/x' }, /DOCS_URL/],
  ] as const) {
    test(`refuses ${JSON.stringify(env)}`, () => {
      assert.throws(
        () => loadConfig(env),
        (error: Error) => error instanceof ConfigError && pattern.test(error.message),
      );
    });
  }

  test('any setting is also read from the file <KEY>_FILE names, as container secrets are mounted', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lyceum-config-'));
    writeFileSync(join(dir, 'stripe'), 'sk_test_from_a_file\n');
    writeFileSync(join(dir, 'port'), '4100');
    const config = loadConfig(
      {
        PAYMENTS_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY_FILE: join(dir, 'stripe'),
        STRIPE_WEBHOOK_SECRET: 'whsec_x',
        PORT_FILE: 'port',
      },
      dir,
    );
    assert.equal(config.STRIPE_SECRET_KEY, 'sk_test_from_a_file', 'without the final line break');
    assert.equal(config.PORT, 4100, 'a relative path is from the working directory, and the value is converted');
    assert.throws(
      () => loadConfig({ STRIPE_SECRET_KEY: 'sk_x', STRIPE_SECRET_KEY_FILE: join(dir, 'stripe') }),
      /Set STRIPE_SECRET_KEY or STRIPE_SECRET_KEY_FILE, not both\./,
    );
    writeFileSync(join(dir, 'token'), 'too-short-a-secret\n');
    assert.throws(
      () => loadConfig({ METRICS_TOKEN_FILE: join(dir, 'token') }),
      (error: Error) =>
        error.message.startsWith('Invalid METRICS_TOKEN (from METRICS_TOKEN_FILE)=(hidden):') &&
        !error.message.includes('too-short'),
      'a refused secret is named, never shown',
    );
    assert.throws(
      () => loadConfig({ SMTP_URL_FILE: join(dir, 'missing') }),
      (error: Error) =>
        error instanceof ConfigError && /Cannot read SMTP_URL_FILE=".*missing": ENOENT/.test(error.message),
    );
  });

  test('a bad setting stops the start with one clear line and a non-zero exit', () => {
    const result = spawnSync(process.execPath, ['src/main.ts'], {
      env: { ...process.env, PORT: 'eighty', DATABASE_URL: ':memory:' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.equal(result.status, 2);
    assert.equal(result.stderr.trim(), 'lyceum: Invalid PORT="eighty": expected an integer from 0 to 65535.');
  });

  test('the configuration table of docs/operations.md is the one generated from config.ts', () => {
    const page = readFileSync(new URL('../docs/operations.md', import.meta.url), 'utf8');
    const table = /<!-- config:start -->\n([\s\S]*?)\n<!-- config:end -->/.exec(page)?.[1];
    assert.ok(
      table !== undefined,
      'docs/operations.md has lost its <!-- config:start --> / <!-- config:end --> markers',
    );
    assert.equal(
      table,
      configTable().trimEnd(),
      'docs/operations.md is out of date: run `npm run docs:config` and paste its output between the config markers',
    );
  });
});
