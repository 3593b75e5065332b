import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newId } from '../../src/db/ids.ts';
import { hashPassword } from '../../src/security/passwords.ts';
import { engines } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { linkIn, startSmtpServer } from '../support/smtp.ts';
import { completeSetup, csrfOf, WebClient } from '../support/web-client.ts';

/**
 * The service other areas use (services.mail): an invitation and an enrollment confirmation, called in a
 * transaction as the students area will, received over SMTP and followed as the person would.
 */
for (const engine of engines) {
  describe(`invitations and enrollment confirmations (${engine})`, () => {
    let server: TestServer;
    let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
    let skew = 0;
    const clock = { now: () => new Date(Date.now() + skew) };

    before(async () => {
      smtp = await startSmtpServer();
      server = await startTestServer(engine, { SMTP_URL: smtp.url }, { clock });
      await completeSetup(server.url, server.setupUrl ?? '', 'Meridian <Academy> & Co');
      await server.services.jobs.runDue();
    });
    after(async () => {
      await server.close();
      await smtp.close();
    });

    /** A student made by staff: an account with a password nobody knows, as the students area creates one. */
    async function invitedStudent(name: string, email: string) {
      const user = { id: newId('usr'), email, name };
      const now = clock.now().toISOString();
      await server.database.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('users')
          .values({
            ...user,
            role: 'student',
            status: 'active',
            password_hash: await hashPassword(newId('pwd')),
            locale: null,
            created_at: now,
            updated_at: now,
          })
          .execute();
        await server.services.mail.invite(trx, user);
      });
      return user;
    }

    test('an invitation: its link opens "Choose your password", which signs in and confirms the address', async () => {
      const seen = smtp.received.length;
      const user = await invitedStudent('Ivy <Invited>', 'ivy@school.test');
      await server.services.jobs.runDue();
      await smtp.waitFor(seen + 1);
      const message = smtp.received.at(-1);
      assert.equal(message?.subject, 'You are invited to Meridian <Academy> & Co');
      assert.match(message?.text ?? '', /^Hello Ivy <Invited>,/);
      assert.match(message?.html ?? '', /Hello Ivy &lt;Invited&gt;,/, 'names are escaped in the HTML body');
      assert.match(message?.html ?? '', /Meridian &lt;Academy&gt; &amp; Co has made an account for you/);
      assert.match(message?.text ?? '', /works once, for 7 days/);
      const link = new URL(linkIn(message?.text ?? '', '/password/reset'));

      const browser = new WebClient(server.url);
      const page = await browser.get(link.pathname + link.search);
      assert.equal(page.status, 200);
      assert.match(page.text, /<h1>Choose your password<\/h1>/);
      const done = await browser.postForm('/password/reset', {
        _csrf: csrfOf(page.text),
        token: link.searchParams.get('token') ?? '',
        password: 'my very own password',
      });
      assert.equal(done.status, 303);
      assert.match((await browser.get('/')).text, /Welcome( back)?, Ivy &lt;Invited&gt;/);
      const row = await server.database.db
        .selectFrom('users')
        .select('email_verified')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.email_verified, 1);
      const again = await new WebClient(server.url).get(link.pathname + link.search);
      assert.equal(again.status, 404, 'single use');
    });

    test('an invitation link lasts 7 days', async () => {
      const seen = smtp.received.length;
      await invitedStudent('Olga Old', 'olga@school.test');
      await server.services.jobs.runDue();
      await smtp.waitFor(seen + 1);
      const link = new URL(linkIn(smtp.received.at(-1)?.text ?? '', '/password/reset'));
      skew += 7 * 24 * 3_600_000 - 60_000;
      assert.equal((await new WebClient(server.url).get(link.pathname + link.search)).status, 200);
      skew += 120_000;
      assert.equal((await new WebClient(server.url).get(link.pathname + link.search)).status, 404);
    });

    test('a rolled-back transaction sends nothing', async () => {
      const before = await server.database.db.selectFrom('outbox').select('id').execute();
      await assert.rejects(
        server.database.db.transaction().execute(async (trx) => {
          await server.services.mail.invite(trx, { id: newId('usr'), email: 'ghost@school.test', name: 'Ghost' });
          throw new Error('the change failed');
        }),
      );
      const afterRows = await server.database.db.selectFrom('outbox').select('id').execute();
      assert.equal(afterRows.length, before.length);
    });

    test('an enrollment confirmation links to the course', async () => {
      const seen = smtp.received.length;
      const user = { id: newId('usr'), email: 'enzo@school.test', name: 'Enzo' };
      await server.database.db.transaction().execute((trx) =>
        server.services.mail.enrollmentConfirmed(trx, {
          user,
          course: { title: 'Sailing & <Knots>', slug: 'sailing-knots' },
        }),
      );
      await server.services.jobs.runDue();
      await smtp.waitFor(seen + 1);
      const message = smtp.received.at(-1);
      assert.deepEqual(message?.to, ['enzo@school.test']);
      assert.equal(message?.subject, 'You are enrolled in Sailing & <Knots>');
      assert.match(
        message?.text ?? '',
        new RegExp(`${server.config.BASE_URL.replace(/\./g, '\\.')}/courses/sailing-knots`),
      );
      assert.match(message?.html ?? '', /<strong>Sailing &amp; &lt;Knots&gt;<\/strong>/);
      assert.match(
        message?.html ?? '',
        /<a href="http:\/\/127\.0\.0\.1:\d+\/courses\/sailing-knots">Start learning<\/a>/,
      );
    });
  });
}
