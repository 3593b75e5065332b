import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { apiClient, createUser, schoolWithPeople, tokenFor } from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { courseWithLesson } from '../support/memberships.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startSmtpServer } from '../support/smtp.ts';
import { signedInClient, WebClient } from '../support/web-client.ts';

const HOUR = 3_600_000;

for (const engine of engines) {
  describe(`deleting an account erases the traces kept beside it (${engine})`, () => {
    let server: TestServer;
    let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
    let staff: ReturnType<typeof apiClient>;
    let people: Awaited<ReturnType<typeof schoolWithPeople>>;
    /** How far the server's clock is ahead of this process's: a test moves it to let an event begin. */
    let skew = 0;

    before(async () => {
      smtp = await startSmtpServer();
      server = await startTestServer(
        engine,
        { SMTP_URL: smtp.url, JOBS_POLL_MS: '60000', OAUTH_ACCESS_TOKEN_TTL_SECONDS: '86400' },
        { clock: { now: () => new Date(Date.now() + skew) } },
      );
      people = await schoolWithPeople(server);
      staff = apiClient(server.url, await tokenFor(server, people.staff, 'events:read events:write'));
    });
    after(async () => {
      await server.close();
      await smtp.close();
    });

    const db = () => server.database.db;
    const deliverAll = async () => {
      const due = await db().selectFrom('outbox').select('id').where('status', '=', 'queued').execute();
      const before = smtp.received.length;
      await server.services.jobs.runDue();
      await smtp.waitFor(before + due.length);
    };

    test('messages, sign-ins and links go, upcoming seats pass on, and the audit trail names a placeholder', async () => {
      const person = await createUser(server, 'student', 'Ada Erase');
      const next = await createUser(server, 'student', 'Nils Next');
      const api = apiClient(server.url, await tokenFor(server, person, 'account:read account:write events:read'));
      const nextApi = apiClient(server.url, await tokenFor(server, next, 'account:write events:read'));
      const placeholder = `deleted-${person.id.toLowerCase()}@anonymous.invalid`;

      // What the school keeps of her beside her account: sign-ins (one wrong), a seat she took through the API (an
      // audited write, with its confirmation e-mail), and a change of address asked for, with its link.
      await signedInClient(server.url, person);
      const wrong = await new WebClient(server.url).submit('/signin', '/signin', {
        email: person.email,
        password: 'not her password',
      });
      assert.equal(wrong.status, 401);
      const event = (
        await staff.post<{ id: string }>('/api/v1/events', {
          title: 'One seat only',
          starts_at: new Date(Date.now() + 48 * HOUR).toISOString(),
          ends_at: new Date(Date.now() + 49 * HOUR).toISOString(),
          address: 'Studio 1, Main Street',
          capacity: 1,
        })
      ).body;
      assert.equal((await api.post(`/api/v1/events/${event.id}/register`)).status, 200);
      assert.equal((await nextApi.post(`/api/v1/events/${event.id}/register`)).status, 200);
      const pending = 'ada.elsewhere@school.test';
      const change = await api.patch('/api/v1/account', { email: pending, current_password: person.password });
      assert.equal(change.status, 200, JSON.stringify(change.body));
      await deliverAll();

      const addresses = [person.email, pending];
      const kept = {
        messages: async () =>
          (
            await db().selectFrom('outbox').select(['kind', 'status']).where('to_address', 'in', addresses).execute()
          ).map((row) => `${row.kind} ${row.status}`),
        signIns: async () =>
          await db()
            .selectFrom('sign_in_events')
            .select('outcome')
            .where((eb) => eb.or([eb('user_id', '=', person.id), eb('email', 'in', addresses)]))
            .execute(),
        links: async () =>
          await db().selectFrom('user_tokens').select('purpose').where('user_id', '=', person.id).execute(),
        audit: async () =>
          await db()
            .selectFrom('audit_log')
            .select(['actor_email', 'operation'])
            .where('actor_id', '=', person.id)
            .execute(),
      };
      assert.ok((await kept.messages()).length >= 3, 'her seat and the change of address were written to her');
      assert.deepEqual(
        new Set((await kept.signIns()).map((row) => row.outcome)),
        new Set(['success', 'wrong_password']),
      );
      assert.ok((await kept.links()).length >= 1);
      const audited = await kept.audit();
      assert.ok(audited.some((row) => row.actor_email === person.email && row.operation === 'registerForEvent'));

      assert.equal((await api.post('/api/v1/account/deletion', { current_password: person.password })).status, 204);

      // The seat went to the one waiting, who is told; hers is ended.
      const registrations = await db()
        .selectFrom('event_registrations')
        .select(['user_id', 'status'])
        .where('event_id', '=', event.id)
        .execute();
      assert.deepEqual(Object.fromEntries(registrations.map((row) => [row.user_id, row.status])), {
        [person.id]: 'canceled',
        [next.id]: 'registered',
      });
      // Only the notice of the deletion is left to her address, until it is delivered.
      assert.deepEqual(await kept.messages(), ['account_deleted queued']);
      const seen = smtp.received.length;
      await deliverAll();
      const sent = smtp.received.slice(seen);
      assert.deepEqual(sent.map((m) => m.to.join()).sort(), [next.email, person.email].sort());
      assert.match(sent.find((m) => m.to.includes(person.email))?.text ?? '', /Your account was deleted/);
      assert.deepEqual(await kept.messages(), [], 'the notice is forgotten once sent');
      assert.deepEqual(await kept.signIns(), []);
      assert.deepEqual(await kept.links(), []);
      const after = await kept.audit();
      assert.equal(after.length, audited.length + 1, 'the deletion itself is audited too');
      assert.ok(after.every((row) => row.actor_email === placeholder));
      const trail = JSON.stringify(await db().selectFrom('audit_log').selectAll().execute());
      assert.ok(!trail.includes(person.email), 'her address is nowhere in the audit trail');
    });

    test('a seat at an event that has begun stays, as the record of who came; nothing is mailed to the anonymous address afterwards', async () => {
      const person = await createUser(server, 'student', 'Carl Came');
      const api = apiClient(server.url, await tokenFor(server, person, 'events:read account:write'));
      const event = (
        await staff.post<{ id: string }>('/api/v1/events', {
          title: 'Held this morning',
          starts_at: new Date(Date.now() + 2 * HOUR).toISOString(),
          ends_at: new Date(Date.now() + 4 * HOUR).toISOString(),
          address: 'Studio 2, Main Street',
          capacity: 5,
        })
      ).body;
      assert.equal((await api.post(`/api/v1/events/${event.id}/register`)).status, 200);
      const course = await courseWithLesson(
        apiClient(server.url, await tokenFor(server, people.staff, 'courses:write curriculum:write')),
      );
      skew = 3 * HOUR;
      try {
        const now = apiClient(server.url, await tokenFor(server, person, 'account:write'));
        assert.equal((await now.post('/api/v1/account/deletion', { current_password: person.password })).status, 204);
        const seat = await db()
          .selectFrom('event_registrations')
          .select('status')
          .where('event_id', '=', event.id)
          .where('user_id', '=', person.id)
          .executeTakeFirstOrThrow();
        assert.equal(seat.status, 'registered', 'the event had begun: her seat is the record that she came');

        // Staff enrolling the deleted account (it is still listed, as "Deleted user") would send a confirmation.
        const placeholder = `deleted-${person.id.toLowerCase()}@anonymous.invalid`;
        const students = apiClient(server.url, await tokenFor(server, people.staff, 'students:write'));
        const enrolled = await students.post(`/api/v1/students/${person.id}/enrollments`, { course_id: course.id });
        assert.equal(enrolled.status, 201, JSON.stringify(enrolled.body));
        const toPlaceholder = await db()
          .selectFrom('outbox')
          .select('kind')
          .where('to_address', '=', placeholder)
          .execute();
        assert.deepEqual(toPlaceholder, [], 'no message is written to an address that cannot exist');
        // What is left of the account stays closed: staff cannot reactivate it.
        const reactivated = await students.post(`/api/v1/students/${person.id}/reactivate`);
        assert.equal(reactivated.status, 409, JSON.stringify(reactivated.body));
        assert.match(String((reactivated.body as { error_description?: string }).error_description), /was deleted/);
        const renamed = await students.patch(`/api/v1/students/${person.id}`, { email: 'carl@school.test' });
        assert.equal(renamed.status, 409, 'nor give it an address again');
        // …and the admin offers no Reactivate for it, as it does for a student staff suspended.
        const admin = await signedInClient(server.url, people.owner);
        const suspended = await createUser(server, 'student', 'Sue Suspended');
        assert.equal((await students.post(`/api/v1/students/${suspended.id}/suspend`)).status, 200);
        assert.match((await admin.get(`/admin/students/${suspended.id}`)).text, />Reactivate</);
        const deletedPage = await admin.get(`/admin/students/${person.id}`);
        assert.equal(deletedPage.status, 200);
        assert.doesNotMatch(deletedPage.text, />Reactivate</);
        // The same enrollment of a living student is confirmed, so the check above could fail.
        const living = await createUser(server, 'student', 'Lina Living');
        assert.equal(
          (await students.post(`/api/v1/students/${living.id}/enrollments`, { course_id: course.id })).status,
          201,
        );
        const confirmed = await db()
          .selectFrom('outbox')
          .select('kind')
          .where('to_address', '=', living.email)
          .execute();
        assert.deepEqual(
          confirmed.map((row) => row.kind),
          ['enrollment_confirmed'],
        );
      } finally {
        skew = 0;
      }
    });

    test('a notice the mail server refuses for good is forgotten too', async () => {
      const person = await createUser(server, 'student', 'Rita Refused');
      const api = apiClient(server.url, await tokenFor(server, person, 'account:read account:write'));
      assert.equal((await api.post('/api/v1/account/deletion', { current_password: person.password })).status, 204);
      const kinds = async () =>
        (await db().selectFrom('outbox').select('kind').where('to_address', '=', person.email).execute()).map(
          (row) => row.kind,
        );
      assert.deepEqual(await kinds(), ['account_deleted']);
      smtp.state.refuse = 550;
      try {
        await server.services.jobs.runDue();
      } finally {
        smtp.state.refuse = undefined;
      }
      assert.deepEqual(await kinds(), [], 'refused for good: no copy kept');
    });

    test('the audit trail takes no other change: another address, none, another column, a row without a person, or a deletion', async () => {
      const person = await createUser(server, 'student', 'Tom Trail');
      const api = apiClient(server.url, await tokenFor(server, person, 'account:read account:write'));
      assert.equal((await api.patch('/api/v1/account', { name: 'Tom T.' })).status, 200);
      const row = await db()
        .selectFrom('audit_log')
        .select('id')
        .where('actor_id', '=', person.id)
        .executeTakeFirstOrThrow();
      const placeholder = `deleted-${person.id.toLowerCase()}@anonymous.invalid`;
      const refused = /append-only/;
      await assert.rejects(
        sql`update audit_log set actor_email = 'someone@else.test' where id = ${row.id}`.execute(db()),
        refused,
      );
      await assert.rejects(
        sql`update audit_log set actor_email = ${placeholder}, operation = 'nothing' where id = ${row.id}`.execute(
          db(),
        ),
        refused,
      );
      await assert.rejects(
        sql`update audit_log set actor_email = ${`deleted-usr_other@anonymous.invalid`} where id = ${row.id}`.execute(
          db(),
        ),
        refused,
      );
      await assert.rejects(sql`update audit_log set actor_email = null where id = ${row.id}`.execute(db()), refused);
      await assert.rejects(sql`delete from audit_log where id = ${row.id}`.execute(db()), refused);
      // An entry without a person has no address that could become anonymous.
      const lone = `aud_lone_${person.id}`;
      await db()
        .insertInto('audit_log')
        .values({
          id: lone,
          at: new Date().toISOString(),
          actor_id: null,
          actor_email: null,
          actor_role: null,
          client_id: null,
          client_name: null,
          channel: 'api',
          operation: 'nothing',
          method: 'POST',
          path: '/nothing',
          object_type: null,
          object_id: null,
          fields: '[]',
          ip: null,
          user_agent: null,
          request_id: null,
        })
        .execute();
      await assert.rejects(
        sql`update audit_log set actor_email = 'x@y.test' where id = ${lone}`.execute(db()),
        refused,
      );
      await sql`update audit_log set actor_email = ${placeholder} where id = ${row.id}`.execute(db());
    });
  });
}
