import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiClient, schoolWithPeople, tokenFor } from '../support/api.ts';
import { publishWithALesson } from '../support/course-content.ts';
import { engines } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { linkIn, startSmtpServer } from '../support/smtp.ts';
import { csrfOf, WebClient } from '../support/web-client.ts';

/** The students API's messages, end to end: what staff do through the API arrives over SMTP and works. */
for (const engine of engines) {
  describe(`students API e-mail (${engine})`, () => {
    let server: TestServer;
    let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
    let staff: ReturnType<typeof apiClient>;

    before(async () => {
      smtp = await startSmtpServer();
      server = await startTestServer(engine, { SMTP_URL: smtp.url });
      const people = await schoolWithPeople(server);
      staff = apiClient(
        server.url,
        await tokenFor(server, people.staff, 'students:write students:read courses:write curriculum:write'),
      );
    });
    after(async () => {
      await server.close();
      await smtp.close();
    });

    /** Runs the delivery jobs and returns the messages sent to `to` since `seen`. */
    async function mailTo(to: string, seen: number, count = 1) {
      await server.services.jobs.runDue();
      await smtp.waitFor(seen + count);
      return smtp.received.slice(seen).filter((m) => m.to.includes(to));
    }

    test('a new student is invited with a set-password link; enrolling them sends a confirmation', async () => {
      const course = await staff.post<{ id: string; slug: string }>('/api/v1/courses', { title: 'Inks' });
      assert.equal((await publishWithALesson(staff, course.body.id)).status, 200);
      let seen = smtp.received.length;
      const created = await staff.post<{ id: string }>('/api/v1/students', { email: 'ina@learners.test', name: 'Ina' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const [invitation] = await mailTo('ina@learners.test', seen);
      assert.ok(invitation, 'the invitation arrived');
      const link = new URL(linkIn(invitation.text, '/password/reset?token='));
      const web = new WebClient(server.url);
      const page = await web.get(`${link.pathname}${link.search}`);
      assert.match(page.text, /Choose your password/);
      const chosen = await web.postForm('/password/reset', {
        _csrf: csrfOf(page.text),
        token: link.searchParams.get('token') ?? '',
        password: 'ink and paper 123',
      });
      assert.equal(chosen.status, 303, chosen.text.slice(0, 300));
      const again = await staff.post('/api/v1/students', { email: 'ina@learners.test', name: 'Ina Ink' });
      assert.equal(again.status, 200);

      seen = smtp.received.length;
      const enrolled = await staff.post(`/api/v1/students/${created.body.id}/enrollments`, {
        course_id: course.body.id,
      });
      assert.equal(enrolled.status, 201);
      const [confirmation] = await mailTo('ina@learners.test', seen);
      assert.match(confirmation?.text ?? '', new RegExp(`/courses/${course.body.slug}`));
    });
  });
}
