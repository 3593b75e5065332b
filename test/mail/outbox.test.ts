import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiClient, createUser, insufficientScopeChallenge, schoolWithPeople, tokenFor } from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startSmtpServer } from '../support/smtp.ts';
import { OWNER, signedInClient, WebClient } from '../support/web-client.ts';

type Summary = {
  id: string;
  to: string;
  subject: string;
  kind: string;
  status: string;
  attempts: number;
  last_error: string | null;
  sent_at: string | null;
};
type Page = { data: Summary[]; has_more: boolean; next_cursor: string | null };

async function askForReset(server: TestServer, email: string) {
  return new WebClient(server.url).submit('/password/forgot', '/password/forgot', { email });
}

for (const engine of engines) {
  describe(`the outbox without SMTP (${engine})`, () => {
    let server: TestServer;
    let people: Awaited<ReturnType<typeof schoolWithPeople>>;
    before(async () => {
      server = await startTestServer(engine);
      people = await schoolWithPeople(server);
    });
    after(() => server.close());

    test('the server says at start that mail is not delivered, and where to read it', () => {
      const line = server.logs.map((l) => JSON.parse(l)).find((l) => /Mail is not being delivered/.test(l.msg));
      assert.ok(line, 'the start-up warning');
      assert.equal(line.level, 40);
      assert.match(line.msg, /SMTP_URL is not set/);
      // The owner's screen, in full, never the API (a raw JSON 403 in a browser).
      assert.ok(line.msg.includes(`${server.url}/admin/outbox`), line.msg);
      assert.equal(line.outbox_url, `${server.url}/admin/outbox`);
      assert.doesNotMatch(line.msg, /api\/v1/);
    });

    test("the owner's outbox shows a message whole, its links working", async () => {
      await askForReset(server, people.staff.email);
      const owner = await signedInClient(server.url, OWNER);
      const list = await owner.get(`/admin/outbox?to=${encodeURIComponent(people.staff.email)}`);
      assert.equal(list.status, 200);
      const id = /href="\/admin\/outbox\/(msg_[0-9a-z]+)"/.exec(list.text)?.[1];
      assert.ok(id, 'the list links each message');
      const page = await owner.get(`/admin/outbox/${id}`);
      assert.equal(page.status, 200);
      assert.match(page.text, /<h1>Reset your password at Test Academy<\/h1>/);
      assert.match(page.text, /Kept here, not sent/);
      assert.doesNotMatch(page.text, /…/, 'nothing is cut');
      const link = /<a href="(http[^"]+\/password\/reset\?token=[^"]+)">\1<\/a>/.exec(page.text)?.[1];
      assert.ok(link, 'the reset link is a whole, working link');
      const reset = await new WebClient(server.url).get(link.replaceAll('&amp;', '&'));
      assert.equal(reset.status, 200);
      assert.match(reset.text, /name="password"/);
      // Staff never read the owner's mail: the page is not found for them, as the API's answer is.
      const staff = await signedInClient(server.url, people.staff);
      assert.equal((await staff.get(`/admin/outbox/${id}`)).status, 404);
      assert.equal((await owner.get('/admin/outbox/msg_00000000000000000000000000')).status, 404);
    });

    test('messages are held in the outbox, and no job is queued for them', async () => {
      await askForReset(server, people.student.email);
      await server.services.jobs.runDue();
      const owner = apiClient(server.url, await tokenFor(server, OWNER, 'school:read'));
      const list = await owner.get<Page>(`/api/v1/outbox?to=${encodeURIComponent(people.student.email)}`);
      assert.equal(list.status, 200);
      assert.equal(list.body.data.length, 1);
      const summary = list.body.data[0];
      assert.equal(summary?.status, 'held');
      assert.equal(summary?.kind, 'password_reset');
      assert.equal(summary?.attempts, 0);
      assert.equal(summary?.sent_at, null);
      assert.ok(!('text' in (summary ?? {})), 'lists carry no bodies');
      const message = await owner.get<Summary & { text: string; html: string }>(`/api/v1/outbox/${summary?.id}`);
      assert.equal(message.status, 200);
      assert.equal(message.body.subject, 'Reset your password at Test Academy');
      assert.match(message.body.text, /\/password\/reset\?token=/);
      assert.match(message.body.html, /<a href="[^"]+\/password\/reset\?token=[^"]+">Choose a new password<\/a>/);
      const jobs = await server.database.db
        .selectFrom('jobs')
        .select('id')
        .where('kind', '=', 'mail.deliver')
        .execute();
      assert.equal(jobs.length, 0);
      // The owner's own verification message from setup is there too.
      const setup = await owner.get<Page>('/api/v1/outbox?kind=email_verification');
      assert.deepEqual(
        setup.body.data.map((m) => m.to),
        [OWNER.email],
      );
      assert.equal((await owner.get<Page>('/api/v1/outbox?status=sent')).body.data.length, 0);
    });

    test('only the owner reads it: staff and students find nothing, other tokens are refused', async () => {
      const owner = apiClient(server.url, await tokenFor(server, OWNER, 'school:read'));
      const id = (await owner.get<Page>('/api/v1/outbox')).body.data[0]?.id;
      assert.ok(id);
      for (const person of [people.staff, people.student]) {
        const api = apiClient(server.url, await tokenFor(server, person, 'school:read'));
        const list = await api.get<Page>('/api/v1/outbox');
        assert.equal(list.status, 200, person.role);
        assert.deepEqual(list.body, { data: [], has_more: false, next_cursor: null });
        assert.equal((await api.get(`/api/v1/outbox/${id}`)).status, 404, person.role);
      }
      const anonymous = apiClient(server.url);
      for (const path of ['/api/v1/outbox', `/api/v1/outbox/${id}`]) {
        const refused = await anonymous.get<{ error: string }>(path);
        assert.equal(refused.status, 403);
        assert.equal(refused.body.error, 'insufficient_scope');
      }
      const unscoped = apiClient(server.url, await tokenFor(server, OWNER, 'courses:read'));
      for (const path of ['/api/v1/outbox', `/api/v1/outbox/${id}`]) {
        const refused = await unscoped.get<{ error: string }>(path);
        assert.equal(refused.status, 403);
        assert.match(refused.headers.get('www-authenticate') ?? '', insufficientScopeChallenge('school:read'));
      }
      assert.equal((await owner.get('/api/v1/outbox/msg_00000000000000000000000000')).status, 404);
      assert.equal((await owner.get('/api/v1/outbox?unknown=1')).status, 400);
    });
  });

  describe(`delivery over SMTP (${engine})`, () => {
    let server: TestServer;
    let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
    let skew = 0;
    const clock = { now: () => new Date(Date.now() + skew) };
    before(async () => {
      smtp = await startSmtpServer();
      server = await startTestServer(
        engine,
        // Only runDue() delivers: the background poller, on the same moved clock, could take a due retry first and
        // leave runDue() nothing to do while the test reads the message (seen in CI).
        { SMTP_URL: smtp.url, MAIL_FROM: 'Front Desk <desk@school.test>', JOBS_POLL_MS: '60000' },
        { clock },
      );
      await schoolWithPeople(server);
      await server.services.jobs.runDue();
    });
    after(async () => {
      await server.close();
      await smtp.close();
    });

    const message = async (to: string) =>
      server.database.db
        .selectFrom('outbox')
        .selectAll()
        .where('to_address', '=', to)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
    const deliveryJob = async () =>
      server.database.db
        .selectFrom('jobs')
        .selectAll()
        .where('kind', '=', 'mail.deliver')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();

    test('no warning at start, MAIL_FROM is the sender, and the job carries only the message id', async () => {
      assert.ok(!server.logs.some((l) => /Mail is not being delivered/.test(l)));
      const first = smtp.received[0];
      assert.equal(first?.from, 'desk@school.test');
      assert.equal(first?.parsed.from?.value[0]?.name, 'Front Desk');
      const job = await deliveryJob();
      const row = await message(OWNER.email);
      assert.deepEqual(JSON.parse(job.payload), { id: row.id });
      assert.equal(row.status, 'sent');
      assert.equal(row.attempts, 1);
      assert.ok(row.sent_at);
    });

    test('a server that refuses for a while: the message is retried with backoff and delivered later', async () => {
      const person = await createUser(server, 'student', 'Tess Temporary');
      smtp.state.refuse = 451;
      const seen = smtp.received.length;
      await askForReset(server, person.email);
      await server.services.jobs.runDue();
      let row = await message(person.email);
      assert.equal(row.status, 'queued');
      assert.equal(row.attempts, 1);
      assert.match(row.last_error ?? '', /^451/);
      let job = await deliveryJob();
      assert.equal(job.status, 'queued');
      const firstRetryAt = Date.parse(job.run_at);
      assert.ok(firstRetryAt - clock.now().getTime() > 9_000, 'the retry waits');

      skew += 10_000;
      await server.services.jobs.runDue();
      row = await message(person.email);
      assert.equal(row.attempts, 2);
      job = await deliveryJob();
      assert.ok(Date.parse(job.run_at) - firstRetryAt >= 20_000, 'and waits longer each time');

      smtp.state.refuse = undefined;
      await server.services.jobs.runDue();
      assert.equal(smtp.received.length, seen, 'nothing is sent before its time');
      skew += 20_000;
      await server.services.jobs.runDue();
      await smtp.waitFor(seen + 1);
      row = await message(person.email);
      assert.equal(row.status, 'sent');
      assert.equal(row.attempts, 3);
      assert.equal(row.last_error, null);
      assert.equal((await deliveryJob()).status, 'succeeded');
      assert.deepEqual(smtp.received.at(-1)?.to, [person.email]);

      const logs = server.logs.join('\n');
      assert.match(logs, /mail delivery will be retried/);
      assert.ok(!logs.includes(person.email), 'the log names the message, not its recipient');
    });

    test('a permanent refusal (5xx) fails the message at once', async () => {
      const person = await createUser(server, 'student', 'Pat Permanent');
      smtp.state.refuse = 550;
      try {
        await askForReset(server, person.email);
        await server.services.jobs.runDue();
      } finally {
        smtp.state.refuse = undefined;
      }
      const row = await message(person.email);
      assert.equal(row.status, 'failed');
      assert.equal(row.attempts, 1);
      assert.match(row.last_error ?? '', /^550/);
      const job = await deliveryJob();
      assert.equal(job.status, 'failed');
      assert.equal(job.attempts, 1);
      const owner = apiClient(server.url, await tokenFor(server, OWNER, 'school:read'));
      const listed = await owner.get<Page>('/api/v1/outbox?status=failed');
      assert.deepEqual(
        listed.body.data.map((m) => m.id),
        [row.id],
      );
      assert.match(listed.body.data[0]?.last_error ?? '', /550/);
    });
  });
}
