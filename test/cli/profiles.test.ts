import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { keepConfigDirPrivate, writePrivateFile } from '../../src/cli/profiles.ts';

const home = () => mkdtempSync(join(tmpdir(), 'lyceum-cli-profiles-'));

test('a config folder open to others is made 0700 with a warning, once', () => {
  const env = { HOME: home() };
  const dir = join(env.HOME, '.config/lyceum');
  const warnings: string[] = [];
  keepConfigDirPrivate(env, (line) => warnings.push(line));
  assert.equal(warnings.length, 0, 'no folder yet: nothing to say');
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o755);
  keepConfigDirPrivate(env, (line) => warnings.push(line));
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  assert.deepEqual(warnings, [`Warning: ${dir} was open to others (mode 0755); it is now 0700.`]);
  keepConfigDirPrivate(env, (line) => warnings.push(line));
  assert.equal(warnings.length, 1);
});

test('a private file is written whole, 0600, with no temporary file left beside it', () => {
  const dir = join(home(), 'lyceum');
  const path = join(dir, 'credentials.json');
  writePrivateFile(path, '{"a":1}\n');
  writePrivateFile(path, '{"a":2}\n');
  assert.equal(readFileSync(path, 'utf8'), '{"a":2}\n');
  assert.equal(statSync(path).mode & 0o777, 0o600);
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  assert.deepEqual(readdirSync(dir), ['credentials.json']);
});
