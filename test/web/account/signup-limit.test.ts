import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { waitInWords } from '../../../src/http/errors.ts';
import { engines } from '../../support/databases.ts';
import { freePort, startTestServer } from '../../support/server.ts';
import { completeSetup, WebClient } from '../../support/web-client.ts';

const redisUrl = process.env.TEST_REDIS_URL;

/** Signs up as a new person from this machine's address (every test client shares it). */
const signUp = (base: string, email: string) =>
  new WebClient(base).submit('/signup', '/signup', { name: 'New Person', email, password: 'a long enough password' });

const students = (server: Awaited<ReturnType<typeof startTestServer>>) =>
  server.database.db.selectFrom('users').select('email').where('role', '=', 'student').execute();

for (const engine of engines) {
  describe(`sign-up is limited per address (${engine})`, () => {
    test('past the limit a sign-up is 429 with Retry-After and a sentence, until the window ends', async () => {
      let now = Date.now();
      const server = await startTestServer(
        engine,
        { SIGNUP_MAX_PER_ADDRESS: '3', SIGNUP_WINDOW_SECONDS: '600' },
        { clock: { now: () => new Date(now) } },
      );
      try {
        await completeSetup(server.url, server.setupUrl ?? '');
        // A taken email spends an attempt too: the limit is on attempts, not on accounts made.
        const statuses = [];
        for (const email of ['one@school.test', 'two@school.test', 'one@school.test'])
          statuses.push((await signUp(server.url, email)).status);
        assert.deepEqual(statuses, [303, 303, 409]);

        const refused = await signUp(server.url, 'four@school.test');
        assert.equal(refused.status, 429);
        assert.equal(refused.headers.get('retry-after'), '600');
        assert.match(refused.headers.get('content-type') ?? '', /text\/html/);
        assert.match(
          refused.text,
          /role="alert"><p>Too many accounts have been created from your network recently\. Please try again in 10 minutes\./,
        );
        // The form is still there, with what was typed, for the later attempt.
        assert.match(refused.text, /value="four@school\.test"/);
        assert.deepEqual((await students(server)).map((u) => u.email).sort(), ['one@school.test', 'two@school.test']);

        now += 599_000;
        const stillRefused = await signUp(server.url, 'four@school.test');
        assert.equal(stillRefused.status, 429);
        assert.equal(stillRefused.headers.get('retry-after'), '1');
        assert.match(stillRefused.text, /try again in 1 second\./);

        now += 1_000;
        assert.equal((await signUp(server.url, 'four@school.test')).status, 303);
      } finally {
        await server.close();
      }
    });
  });

  describe(`instances sharing Redis share the sign-up count (${engine})`, { skip: !redisUrl }, () => {
    test('attempts on either instance add up to one limit', async () => {
      const port = await freePort();
      const env = {
        REDIS_URL: redisUrl ?? '',
        REDIS_PREFIX: `lyceum-test-${randomUUID()}:`,
        BASE_URL: `http://127.0.0.1:${port}`,
        SIGNUP_MAX_PER_ADDRESS: '4',
      };
      const a = await startTestServer(engine, { ...env, PORT: String(port) });
      const b = await startTestServer(engine, env, { databaseUrl: a.databaseUrl });
      try {
        await completeSetup(a.url, a.setupUrl ?? '');
        const statuses = [];
        for (let i = 0; i < 6; i++) statuses.push((await signUp(i % 2 ? b.url : a.url, `p${i}@school.test`)).status);
        assert.deepEqual(statuses, [303, 303, 303, 303, 429, 429]);
        assert.equal((await students(a)).length, 4);
      } finally {
        await b.close();
        await a.close();
      }
    });
  });
}

test('waits are said in words', () => {
  assert.equal(waitInWords(1), '1 second');
  assert.equal(waitInWords(59), '59 seconds');
  assert.equal(waitInWords(60), '1 minute');
  assert.equal(waitInWords(61), '2 minutes');
  assert.equal(waitInWords(3599), '1 hour');
  assert.equal(waitInWords(3600), '1 hour');
  assert.equal(waitInWords(5400), '2 hours');
});
