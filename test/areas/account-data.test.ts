import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiClient, createUser, type Person, schoolWithPeople, tokenFor } from '../support/api.ts';
import { publishWithALesson } from '../support/course-content.ts';
import { engines } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { linkIn } from '../support/smtp.ts';
import { csrfOf, signedInClient, WebClient } from '../support/web-client.ts';

type Client = ReturnType<typeof apiClient>;
type Account = { id: string; name: string; email: string; email_verified: boolean; pending_email: string | null };
type Session = { id: string; started_at: string; last_seen_at: string; current: boolean };
type Export = {
  profile: Account;
  enrollments: { course_id: string; course_title: string; status: string }[];
  lesson_completions: unknown[];
  playback_positions: { lesson_id: string; position_s: number; duration_s: number }[];
  orders: { id: string; status: string; items: { title: string }[] }[];
  certificates: unknown[];
  form_submissions: unknown[];
};
const RW = 'account:read account:write';

const ok = <T>(response: { status: number; body: unknown }, status = 200) => {
  assert.equal(response.status, status, JSON.stringify(response.body));
  return response.body as T;
};

for (const engine of engines) {
  describe(`account: e-mail change, sessions, export and deletion (${engine})`, () => {
    let server: TestServer;
    let owner: Person;
    let staff: Client;

    before(async () => {
      server = await startTestServer(engine, { OAUTH_REGISTRATIONS_PER_HOUR: '1000' });
      const people = await schoolWithPeople(server);
      owner = people.owner;
      staff = apiClient(
        server.url,
        await tokenFor(server, people.staff, 'orders:read courses:read courses:write curriculum:write students:read'),
      );
    });
    after(() => server.close());

    /** The newest message to `email` in the outbox (no SMTP server is configured here). */
    const lastMessageTo = async (email: string) =>
      (
        await server.database.db
          .selectFrom('outbox')
          .select(['subject', 'text_body'])
          .where('to_address', '=', email)
          .orderBy('id', 'desc')
          .executeTakeFirst()
      )?.text_body ?? '';

    const freeCourse = async () => {
      const made = ok<{ id: string; slug: string; title: string }>(
        await staff.post('/api/v1/courses', { title: `Course ${Math.random().toString(36).slice(2, 8)}` }),
        201,
      );
      ok(await publishWithALesson(staff, made.id));
      return made;
    };

    test('changing the e-mail waits for the link to the new address; the old address is told', async () => {
      const person = await createUser(server, 'student', 'Erin Change');
      const api = apiClient(server.url, await tokenFor(server, person, RW));
      const asked = ok<Account>(
        await api.patch('/api/v1/account', { email: 'Erin.New@School.Test', current_password: person.password }),
      );
      assert.equal(asked.email, person.email, 'nothing moves before the link is opened');
      assert.equal(asked.pending_email, 'erin.new@school.test');
      assert.match(await lastMessageTo(person.email), /asked to use erin\.new@school\.test instead/);
      await signedInClient(server.url, person);

      const link = new URL(linkIn(await lastMessageTo('erin.new@school.test'), '/verify-email'));
      const opened = await new WebClient(server.url).get(link.pathname + link.search);
      assert.equal(opened.status, 200, opened.text.slice(0, 300));
      const moved = ok<Account>(await api.get('/api/v1/account'));
      assert.deepEqual([moved.email, moved.email_verified, moved.pending_email], ['erin.new@school.test', true, null]);
      const old = await new WebClient(server.url).submit('/signin', '/signin', {
        email: person.email,
        password: person.password,
      });
      assert.equal(old.status, 401, 'the old address no longer signs in');
      await signedInClient(server.url, { email: 'erin.new@school.test', password: person.password });
      assert.equal((await new WebClient(server.url).get(link.pathname + link.search)).status, 200, 'opened twice');
    });

    test('a common or guessable new password is refused, saying why and what to choose', async () => {
      const person = await createUser(server, 'student', 'Wanda Weak');
      const api = apiClient(server.url, await tokenFor(server, person, RW));
      for (const weak of ['password1234', 'qwertyuiop123', 'wanda.weak@school.test', 'aaaaaaaaaaaa']) {
        const refused = await api.post('/api/v1/account/password', {
          current_password: person.password,
          new_password: weak,
        });
        assert.equal(refused.status, 400, weak);
        assert.match(String(refused.body.error_description), /too easy to guess.*a few unrelated words/, weak);
        assert.equal((refused.body.errors as { field: string }[])[0]?.field, 'new_password');
      }
      const blank = await api.patch('/api/v1/account', { name: '   ' });
      assert.equal(blank.status, 400);
      assert.equal(blank.body.error_description, 'Enter your name.');
    });

    test('sessions: listed, one ended, then all; another person’s session is never reachable', async () => {
      const person = await createUser(server, 'student', 'Sam Sessions');
      const other = await createUser(server, 'student', 'Olga Other');
      const api = apiClient(server.url, await tokenFor(server, person, RW));
      const a = await signedInClient(server.url, person);
      const b = await signedInClient(server.url, person);
      await signedInClient(server.url, other);
      const theirs = ok<{ data: Session[] }>(
        await apiClient(server.url, await tokenFor(server, other, 'account:read')).get('/api/v1/account/sessions'),
      ).data;
      // Connecting the app signed in a browser too: three in all.
      const mine = ok<{ data: Session[]; has_more: boolean }>(await api.get('/api/v1/account/sessions'));
      assert.equal(mine.data.length, 3);
      assert.equal(mine.has_more, false);
      assert.ok(mine.data.every((s) => /^ses_[\w-]{24}$/.test(s.id) && s.current === false));

      assert.equal((await api.delete(`/api/v1/account/sessions/${theirs[0]?.id}`)).status, 404, 'not mine to end');
      const readOnly = apiClient(server.url, await tokenFor(server, person, 'account:read'));
      const refused = await readOnly.delete(`/api/v1/account/sessions/${mine.data[0]?.id}`);
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error, 'insufficient_scope');
      const noScope = apiClient(server.url, await tokenFor(server, person, 'courses:read'));
      assert.equal((await noScope.get('/api/v1/account/sessions')).status, 403);

      ok(await api.delete(`/api/v1/account/sessions/${mine.data[0]?.id}`), 204);
      const signedIn = async (web: WebClient) => (await web.get('/account')).status === 200;
      const left = ok<{ data: Session[] }>(await api.get('/api/v1/account/sessions')).data.map((s) => s.id);
      assert.ok(!left.includes(mine.data[0]?.id ?? ''), 'that one is signed out');
      // "Sign out everywhere else" on the page, then nothing is left.
      const page = await signedInClient(server.url, person);
      const home = await page.get('/account');
      const ended = await page.postForm('/account/sessions/end-others', { _csrf: csrfOf(home.text) });
      assert.equal(ended.status, 303);
      assert.equal((await page.get('/account')).status, 200, 'the browser asking stays signed in');
      assert.deepEqual([await signedIn(a), await signedIn(b)], [false, false]);
      ok(
        await api.delete(
          `/api/v1/account/sessions/${ok<{ data: Session[] }>(await api.get('/api/v1/account/sessions')).data[0]?.id}`,
        ),
        204,
      );
      assert.equal(ok<{ data: Session[] }>(await api.get('/api/v1/account/sessions')).data.length, 0);
    });

    test('export: the person’s own profile, enrollments, progress and orders, in one answer', async () => {
      const person = await createUser(server, 'student', 'Exa Export');
      const other = await createUser(server, 'student', 'Nosy Neighbour');
      const api = apiClient(server.url, await tokenFor(server, person, RW));
      const otherApi = apiClient(server.url, await tokenFor(server, other, RW));
      const course = await freeCourse();
      const order = ok<{ order: { id: string } }>(
        await api.post('/api/v1/account/orders', { item: { type: 'course', key: course.slug } }),
        201,
      ).order;
      ok(
        await otherApi.post('/api/v1/account/orders', { item: { type: 'course', key: (await freeCourse()).slug } }),
        201,
      );

      // Where each stopped in the course's lesson, as the player keeps it.
      const lesson = await server.database.db
        .selectFrom('lessons')
        .select('id')
        .where('course_id', '=', course.id)
        .executeTakeFirstOrThrow();
      const at = new Date().toISOString();
      await server.database.db
        .insertInto('playback_positions')
        .values([
          { user_id: person.id, lesson_id: lesson.id, position_s: 42, duration_s: 300, updated_at: at },
          { user_id: other.id, lesson_id: lesson.id, position_s: 7, duration_s: 300, updated_at: at },
        ])
        .execute();

      const data = ok<Export>(await api.get('/api/v1/account/export'));
      assert.equal(data.profile.id, person.id);
      assert.deepEqual(
        data.playback_positions.map((p) => [p.lesson_id, p.position_s, p.duration_s]),
        [[lesson.id, 42, 300]],
        'where the person stopped watching, and only theirs',
      );
      assert.deepEqual(
        data.enrollments.map((e) => [e.course_id, e.course_title, e.status]),
        [[course.id, course.title, 'active']],
      );
      assert.deepEqual(
        data.orders.map((o) => [o.id, o.status, o.items[0]?.title]),
        [[order.id, 'paid', course.title]],
      );
      assert.deepEqual([data.lesson_completions, data.certificates, data.form_submissions], [[], [], []]);
      assert.ok(!JSON.stringify(data).includes(other.id), 'nothing of another person');
      assert.ok(!JSON.stringify(data).includes('password'), 'no secret');
      const noScope = apiClient(server.url, await tokenFor(server, person, 'orders:read'));
      assert.equal((await noScope.get('/api/v1/account/export')).status, 403);

      const web = await signedInClient(server.url, person);
      const download = await web.get('/account/export');
      assert.equal(download.status, 200);
      assert.match(
        download.headers.get('content-disposition') ?? '',
        /^attachment; filename="my-data-\d{4}-\d\d-\d\d\.json"$/,
      );
      assert.equal((JSON.parse(download.text) as Export).profile.email, person.email);
    });

    test('deletion: the password is asked; personal data is erased, the order is kept for the books', async () => {
      const person = await createUser(server, 'student', 'Dora Delete');
      const api = apiClient(server.url, await tokenFor(server, person, RW));
      const order = ok<{ order: { id: string } }>(
        await api.post('/api/v1/account/orders', { item: { type: 'course', key: (await freeCourse()).slug } }),
        201,
      ).order;
      const browser = await signedInClient(server.url, person);

      const readOnly = apiClient(server.url, await tokenFor(server, person, 'account:read'));
      assert.equal(
        (await readOnly.post('/api/v1/account/deletion', { current_password: person.password })).status,
        403,
      );
      const wrong = await api.post('/api/v1/account/deletion', { current_password: 'not my password' });
      assert.equal(wrong.status, 400);
      assert.match(String(wrong.body.error_description), /current password is incorrect/);
      const ownerApi = apiClient(server.url, await tokenFor(server, owner, RW));
      const ownerRefused = await ownerApi.post('/api/v1/account/deletion', { current_password: owner.password });
      assert.equal(ownerRefused.status, 409, 'the school keeps its owner');

      assert.notEqual(await lastMessageTo(person.email), '', 'the school kept a message to the address');
      ok(await api.post('/api/v1/account/deletion', { current_password: person.password }), 204);
      // Without SMTP no notice is kept: it could never go out, and its copy would keep the address (with SMTP, in
      // account-erasure.test.ts, it is sent and then forgotten).
      assert.equal(await lastMessageTo(person.email), '', 'no message to the address is kept');
      assert.equal((await api.get('/api/v1/account')).status, 401, 'its apps lose access at once');
      assert.equal((await browser.get('/account')).status, 303, 'its browsers are signed out');
      const signin = await new WebClient(server.url).submit('/signin', '/signin', {
        email: person.email,
        password: person.password,
      });
      assert.equal(signin.status, 401);

      const kept = ok<{ id: string; user_id: string; status: string }>(await staff.get(`/api/v1/orders/${order.id}`));
      assert.deepEqual([kept.user_id, kept.status], [person.id, 'paid'], 'the order stays in the books');
      const row = await server.database.db
        .selectFrom('users')
        .select(['name', 'email', 'status'])
        .where('id', '=', person.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.name, 'Deleted account');
      assert.match(row.email, /^deleted-usr_\w+@anonymous\.invalid$/);
      assert.equal(row.status, 'suspended');
      const student = ok<{ name: string; email: string }>(await staff.get(`/api/v1/students/${person.id}`));
      assert.equal(student.name, 'Deleted account', 'the owner sees the person anonymised');
      assert.ok(!JSON.stringify(student).includes('dora'));
    });
  });
}
