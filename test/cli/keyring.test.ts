import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Entry } from '@napi-rs/keyring';
import { KEYRING_OPTIONS } from '../../src/cli/credentials.ts';
import { schoolWithPeople } from '../support/api.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { OWNER } from '../support/web-client.ts';
import { cliUser } from './run-cli.ts';

/** Whether this machine has a usable OS keyring (a desktop session has one; CI containers usually do not). */
function keyringAnswers(): string | undefined {
  try {
    const entry = new Entry('lyceum-test', 'probe', KEYRING_OPTIONS);
    entry.setPassword('probe');
    const back = entry.getPassword();
    entry.deletePassword();
    return back === 'probe' ? undefined : 'the keyring did not give back what was stored';
  } catch (error) {
    return (error as Error).message;
  }
}

describe('tokens in the OS keyring', () => {
  let server: TestServer;
  const unavailable = keyringAnswers();
  before(async () => {
    server = await startTestServer('sqlite');
    await schoolWithPeople(server);
  });
  after(() => server.close());

  test('with a keyring, login keeps the tokens there (no file) and logout removes them', {
    skip: unavailable && `no OS keyring here: ${unavailable}`,
  }, async () => {
    const user = cliUser(OWNER, { LYCEUM_CREDENTIALS: 'keyring' });
    const login = await user.run(['login', server.url]);
    assert.equal(login.code, 0, login.stderr);
    assert.doesNotMatch(login.stderr, /Warning/);
    assert.equal(existsSync(join(user.home, '.config/lyceum/credentials.json')), false);
    const profile = new URL(server.url).host;
    assert.ok(new Entry('lyceum', profile, KEYRING_OPTIONS).getPassword());
    assert.equal((await user.run(['whoami'])).code, 0);
    assert.equal((await user.run(['logout'])).code, 0);
    assert.equal(new Entry('lyceum', profile, KEYRING_OPTIONS).getPassword(), null);
  });

  test('LYCEUM_CREDENTIALS=keyring without a keyring refuses before the browser opens, instead of writing a file', {
    skip: !unavailable && 'this machine has a keyring',
  }, async () => {
    const user = cliUser(OWNER, { LYCEUM_CREDENTIALS: 'keyring' });
    const login = await user.run(['login', server.url]);
    assert.equal(login.code, 3, login.stdout + login.stderr);
    assert.match(
      login.stderr,
      /^Error: The system keyring cannot be used \(.+\); LYCEUM_CREDENTIALS=keyring allows no file\.\n$/,
    );
    assert.equal(existsSync(join(user.home, 'opener.log')), false, 'no browser was opened');
    assert.equal(existsSync(join(user.home, '.config/lyceum/credentials.json')), false);
  });
});
