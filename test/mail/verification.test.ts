import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiClient, connectApp, tokenFor } from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { linkIn, startSmtpServer } from '../support/smtp.ts';
import { completeSetup, csrfOf, OWNER, WebClient } from '../support/web-client.ts';

type Account = { id: string; email: string; email_verified: boolean };

for (const engine of engines) {
  describe(`e-mail verification (${engine})`, () => {
    let server: TestServer;
    let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
    let skew = 0;
    const clock = { now: () => new Date(Date.now() + skew) };
    const student = { name: 'Vera Verify', email: 'vera@school.test', password: 'a long enough password' };

    before(async () => {
      smtp = await startSmtpServer();
      // No token cache: userinfo reads the column as it is now.
      server = await startTestServer(engine, { SMTP_URL: smtp.url, TOKEN_CACHE_SECONDS: '0' }, { clock });
      await completeSetup(server.url, server.setupUrl ?? '');
    });
    after(async () => {
      await server.close();
      await smtp.close();
    });

    async function lastLinkTo(email: string, seen: number) {
      await server.services.jobs.runDue();
      await smtp.waitFor(seen + 1);
      const message = smtp.received.at(-1);
      assert.deepEqual(message?.to, [email]);
      const url = new URL(linkIn(message?.text ?? '', '/verify-email'));
      return url.pathname + url.search;
    }

    const userinfo = async (token: string) =>
      (await (
        await fetch(`${server.url}/api/oauth/userinfo`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as {
        email: string;
        email_verified: boolean;
      };

    test('the owner gets a link at setup, like every new address', async () => {
      await server.services.jobs.runDue();
      await smtp.waitFor(1);
      const message = smtp.received.find((m) => m.to.includes(OWNER.email));
      assert.equal(message?.subject, 'Confirm your e-mail address at Test Academy');
      const owner = apiClient(server.url, await tokenFor(server, OWNER, 'account:read'));
      assert.equal((await owner.get<Account>('/api/v1/account')).body.email_verified, false);
    });

    test('sign-up mails a link; opening it sets email_verified in the account API and the userinfo claim', async () => {
      const seen = smtp.received.length;
      const browser = new WebClient(server.url);
      assert.equal((await browser.submit('/signup', '/signup', student)).status, 303);
      const link = await lastLinkTo(student.email, seen);
      const token = await tokenFor(server, student, 'openid email account:read account:write');
      const api = apiClient(server.url, token);
      assert.equal((await api.get<Account>('/api/v1/account')).body.email_verified, false);
      assert.deepEqual(await userinfo(token), {
        sub: (await api.get<Account>('/api/v1/account')).body.id,
        email: student.email,
        email_verified: false,
      });

      const opened = await new WebClient(server.url).get(link);
      assert.equal(opened.status, 200);
      assert.match(opened.text, /your e-mail address is confirmed/);
      assert.equal((await api.get<Account>('/api/v1/account')).body.email_verified, true);
      assert.equal((await userinfo(token)).email_verified, true);
      // Opening it again (a mail scanner went first) still confirms.
      assert.equal((await new WebClient(server.url).get(link)).status, 200);
      const resend = await api.post<{ error: string }>('/api/v1/account/verification-email');
      assert.equal(resend.status, 409);
    });

    /** The link in the newest message to `email` among those received after `seen`. */
    async function linkAmong(email: string, seen: number, count: number) {
      await server.services.jobs.runDue();
      await smtp.waitFor(seen + count);
      const message = smtp.received.slice(seen).findLast((m) => m.to.includes(email));
      const url = new URL(linkIn(message?.text ?? '', '/verify-email'));
      return url.pathname + url.search;
    }

    test('changing the address: a link to the new one moves the account there; the old one is told', async () => {
      const token = await tokenFor(server, student, 'openid email account:read account:write');
      const api = apiClient(server.url, token);
      const seen = smtp.received.length;
      const changed = await api.patch<Account & { pending_email: string | null }>('/api/v1/account', {
        email: 'vera.new@school.test',
        current_password: student.password,
      });
      assert.equal(changed.status, 200);
      assert.equal(changed.body.email, student.email, 'nothing moves yet');
      assert.equal(changed.body.email_verified, true, 'the address in use stays confirmed');
      assert.equal(changed.body.pending_email, 'vera.new@school.test');
      const link = await linkAmong('vera.new@school.test', seen, 2);
      const notice = smtp.received.slice(seen).find((m) => m.to.includes(student.email));
      assert.match(notice?.text ?? '', /asked to use vera\.new@school\.test instead of this address/);
      assert.equal((await userinfo(token)).email, student.email);

      const opened = await new WebClient(server.url).get(link);
      assert.equal(opened.status, 200);
      const moved = (await api.get<Account & { pending_email: string | null }>('/api/v1/account')).body;
      assert.deepEqual([moved.email, moved.email_verified, moved.pending_email], ['vera.new@school.test', true, null]);
      assert.equal((await userinfo(token)).email, 'vera.new@school.test');
      student.email = 'vera.new@school.test';
    });

    test('the first "Send me a new link" after sign-up is sent at once; the next waits a minute', async () => {
      const browser = new WebClient(server.url);
      const person = { name: 'Quick Quentin', email: 'quentin@school.test', password: 'a long enough password' };
      assert.equal((await browser.submit('/signup', '/signup', person)).status, 303);
      const page = await browser.get('/verify-email');
      const first = await browser.postForm('/verify-email', { _csrf: csrfOf(page.text) });
      assert.equal(first.status, 200);
      assert.match(first.text, /We sent a new link to quentin@school\.test/);
      const second = await browser.postForm('/verify-email', {
        _csrf: csrfOf((await browser.get('/verify-email')).text),
      });
      assert.equal(second.status, 429);
      skew += 61_000;
      const third = await browser.postForm('/verify-email', {
        _csrf: csrfOf((await browser.get('/verify-email')).text),
      });
      assert.equal(third.status, 200);
    });

    test('a link is refused after 7 days; the signed-in page offers a new one', async () => {
      const browser = new WebClient(server.url);
      const other = { name: 'Late Larry', email: 'larry@school.test', password: 'a long enough password' };
      const seen = smtp.received.length;
      await browser.submit('/signup', '/signup', other);
      const link = await lastLinkTo(other.email, seen);
      skew += 7 * 24 * 3_600_000 + 1000;
      const late = await browser.get(link);
      assert.equal(late.status, 404);
      assert.match(late.text, /not confirmed yet/);
      const seen2 = smtp.received.length;
      const sent = await browser.postForm('/verify-email', { _csrf: csrfOf(late.text) });
      assert.equal(sent.status, 200);
      assert.match(sent.text, /We sent a new link to larry@school\.test/);
      const fresh = await lastLinkTo(other.email, seen2);
      assert.equal((await browser.get(fresh)).status, 200);
      assert.match((await browser.get('/verify-email')).text, /Your address larry@school\.test is confirmed/);
      assert.equal((await new WebClient(server.url).postForm('/verify-email', {})).status, 403, 'CSRF');
    });

    test('the ID token carries email_verified as the column says', async () => {
      const idTokenClaims = async () => {
        const { tokens } = await connectApp(server, student, 'openid email', { clientName: 'ID token reader' });
        const payload = String(tokens.id_token).split('.')[1] ?? '';
        return JSON.parse(Buffer.from(payload, 'base64url').toString()) as { email: string; email_verified: boolean };
      };
      const verified = await idTokenClaims();
      assert.equal(verified.email, student.email);
      assert.equal(verified.email_verified, true);
      await server.database.db
        .updateTable('users')
        .set({ email_verified: 0 })
        .where('email', '=', student.email)
        .execute();
      assert.equal((await idTokenClaims()).email_verified, false);
    });

    test('sendVerificationEmail needs account:write', async () => {
      const api = apiClient(server.url, await tokenFor(server, student, 'account:read'));
      const refused = await api.post<{ error: string }>('/api/v1/account/verification-email');
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error, 'insufficient_scope');
      const anonymous = await apiClient(server.url).post<{ error: string }>('/api/v1/account/verification-email');
      assert.equal(anonymous.status, 403);
    });
  });
}
