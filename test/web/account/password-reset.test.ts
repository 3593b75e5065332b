import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createUser, type Person } from '../../support/api.ts';
import { engines } from '../../support/databases.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { linkIn, startSmtpServer } from '../../support/smtp.ts';
import { completeSetup, csrfOf, WebClient } from '../../support/web-client.ts';

const HOUR = 3_600_000;

for (const engine of engines) {
  describe(`password reset by e-mail (${engine})`, () => {
    let server: TestServer;
    let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
    let skew = 0;
    const clock = { now: () => new Date(Date.now() + skew) };
    let student: Person;

    before(async () => {
      smtp = await startSmtpServer();
      server = await startTestServer(engine, { SMTP_URL: smtp.url }, { clock });
      await completeSetup(server.url, server.setupUrl ?? '');
      student = await createUser(server, 'student', 'Rita Reset');
      await server.services.jobs.runDue();
    });
    after(async () => {
      await server.close();
      await smtp.close();
    });

    const outboxCount = async () =>
      Number(
        (
          await server.database.db
            .selectFrom('outbox')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    /** Asks for a link for `email` from a fresh browser; returns the page the browser gets. */
    async function forgot(email: string) {
      const browser = new WebClient(server.url);
      const page = await browser.get('/password/forgot');
      assert.equal(page.status, 200);
      return browser.postForm('/password/forgot', { _csrf: csrfOf(page.text), email });
    }

    /** The reset link of the newest message to `email`, after running the delivery jobs. */
    async function mailedLink(email: string, before: number) {
      await server.services.jobs.runDue();
      const received = await smtp.waitFor(before + 1);
      const message = received.at(-1);
      assert.deepEqual(message?.to, [email]);
      return new URL(linkIn(message?.text ?? '', '/password/reset'));
    }

    test('forgot → a message over SMTP → its link → a new password → signed in, and it signs in later', async () => {
      const signin = await new WebClient(server.url).get('/signin');
      assert.match(signin.text, /<a href="\/password\/forgot">Forgot your password\?<\/a>/);
      const elsewhere = new WebClient(server.url);
      assert.equal(
        (await elsewhere.submit('/signin', '/signin', { email: student.email, password: student.password })).status,
        303,
      );

      const seen = smtp.received.length;
      const answer = await forgot(student.email.toUpperCase());
      assert.equal(answer.status, 200);
      assert.match(answer.text, /If an account uses this address, we have sent it a link/);
      const link = await mailedLink(student.email, seen);
      const message = smtp.received.at(-1);
      assert.equal(message?.subject, 'Reset your password at Test Academy');
      assert.match(
        message?.html ?? '',
        /<a href="http:\/\/127\.0\.0\.1:\d+\/password\/reset\?token=[\w-]+">Choose a new password<\/a>/,
      );
      assert.match(message?.parsed.from?.text ?? '', /^"?Test Academy"? <no-reply@127\.0\.0\.1>$/);

      const browser = new WebClient(server.url);
      const page = await browser.get(link.pathname + link.search);
      assert.equal(page.status, 200);
      assert.match(page.text, /<h1>Choose a new password<\/h1>/);
      const token = link.searchParams.get('token') ?? '';
      const tooShort = await browser.postForm('/password/reset', {
        _csrf: csrfOf(page.text),
        token,
        password: 'short',
      });
      assert.equal(tooShort.status, 400, 'the sign-up password rules apply');
      const done = await browser.postForm('/password/reset', {
        _csrf: csrfOf(tooShort.text),
        token,
        password: 'a brand new password',
      });
      assert.equal(done.status, 303);
      assert.equal(done.location, '/');
      assert.match((await browser.get('/')).text, /Welcome( back)?, Rita Reset/);
      assert.doesNotMatch((await elsewhere.get('/')).text, /Welcome( back)?, /, 'other browser sessions are ended');

      const old = await new WebClient(server.url).submit('/signin', '/signin', {
        email: student.email,
        password: student.password,
      });
      assert.equal(old.status, 401);
      const fresh = await new WebClient(server.url).submit('/signin', '/signin', {
        email: student.email,
        password: 'a brand new password',
      });
      assert.equal(fresh.status, 303);
      student.password = 'a brand new password';

      // Single use: the link is refused the second time, on the page and on the form.
      const again = new WebClient(server.url);
      const second = await again.get(link.pathname + link.search);
      assert.equal(second.status, 404);
      assert.match(second.text, /This link is not valid: it was already used, or it has expired/);
      const replay = await again.postForm('/password/reset', {
        _csrf: csrfOf(second.text),
        token,
        password: 'yet another password',
      });
      assert.equal(replay.status, 404);
      // The address received the link, so it is proven.
      const row = await server.database.db
        .selectFrom('users')
        .select('email_verified')
        .where('id', '=', student.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.email_verified, 1);
    });

    test('a link is refused after one hour', async () => {
      const seen = smtp.received.length;
      await forgot(student.email);
      const link = await mailedLink(student.email, seen);
      skew += HOUR - 60_000;
      assert.equal(
        (await new WebClient(server.url).get(link.pathname + link.search)).status,
        200,
        'still valid at 59 minutes',
      );
      skew += 61_000;
      const late = await new WebClient(server.url).get(link.pathname + link.search);
      assert.equal(late.status, 404);
      assert.match(late.text, /it has expired/);
    });

    test('an unknown address gets the identical answer and no message is queued or sent', async () => {
      const known = await forgot(student.email);
      const messages = await outboxCount();
      const unknown = await forgot('nobody@school.test');
      assert.equal(unknown.status, known.status);
      assert.equal(unknown.text, known.text);
      assert.deepEqual([...unknown.headers.keys()].sort(), [...known.headers.keys()].sort());
      assert.equal(await outboxCount(), messages);
      const seen = smtp.received.length;
      await server.services.jobs.runDue();
      await smtp.waitFor(seen);
      assert.equal(smtp.received.filter((m) => m.to.includes('nobody@school.test')).length, 0);
    });

    test('the form needs its CSRF token', async () => {
      const messages = await outboxCount();
      const browser = new WebClient(server.url);
      await browser.get('/password/forgot');
      assert.equal((await browser.postForm('/password/forgot', { email: student.email })).status, 403);
      assert.equal((await browser.postForm('/password/forgot', { _csrf: 'forged', email: student.email })).status, 403);
      const reset = await browser.postForm('/password/reset', { token: 'x', password: 'a long enough password' });
      assert.equal(reset.status, 403);
      assert.equal(await outboxCount(), messages);
    });

    test('past three requests an hour for one address, the answer stays the same and nothing more is sent', async () => {
      const other = await createUser(server, 'student', 'Flo Flood');
      const answers: Awaited<ReturnType<typeof forgot>>[] = [];
      for (let i = 0; i < 5; i++) answers.push(await forgot(other.email));
      assert.ok(answers.every((a) => a.status === 200 && a.text === answers[0]?.text));
      const rows = await server.database.db
        .selectFrom('outbox')
        .select('id')
        .where('to_address', '=', other.email)
        .execute();
      assert.equal(rows.length, 3);
    });

    test('past 20 requests an hour from one client address, the form answers 429 with Retry-After', async () => {
      let answer = await forgot('someone@school.test');
      for (let i = 0; i < 25 && answer.status === 200; i++) answer = await forgot(`someone${i}@school.test`);
      assert.equal(answer.status, 429);
      assert.ok(Number(answer.headers.get('retry-after')) > 0);
      assert.match(answer.text, /Too many attempts/);
    });

    test('no link, token or message body reaches the logs', async () => {
      await server.services.jobs.runDue();
      const logs = server.logs.join('\n');
      for (const message of smtp.received) {
        for (const url of message.text.match(/https?:\/\/\S+token=\S+/g) ?? []) {
          const token = new URL(url).searchParams.get('token') ?? '';
          assert.ok(!logs.includes(token), 'a token was logged');
        }
      }
      assert.doesNotMatch(logs, /we hope you|Choose a new password/);
      assert.match(
        logs,
        /password\/reset\?token=%5Bredacted%5D/,
        'the reset page was requested and its token redacted',
      );
    });
  });
}
