import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newId } from '../../src/db/ids.ts';
import {
  apiClient,
  connectApp,
  createUser,
  insufficientScopeChallenge,
  listAll,
  type Person,
  schoolWithPeople,
  tokenFor,
} from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { tokenRequest } from '../support/oauth.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { paginatesLikeEveryList } from '../support/shared-examples.ts';
import { WebClient } from '../support/web-client.ts';

type Client = ReturnType<typeof apiClient>;
type Student = { id: string; email: string; name: string; status: string; created_at: string };
type Enrollment = {
  id: string;
  student_id: string;
  course_id: string;
  course_title: string;
  source: string;
  status: string;
  expires_at: string | null;
  completed_at: string | null;
  progress_percent: number;
};
type Progress = {
  student_id: string;
  course_id: string;
  enrollment_status: string;
  percent: number;
  completed_lessons: number;
  total_lessons: number;
  next_lesson_id: string | null;
  completed_at: string | null;
  lessons: { id: string; completed_at: string | null }[];
};
type Bulk = {
  id: string;
  status: string;
  progress: { done: number; total: number };
  results: { row: number; status: string; student_id?: string; error?: string }[];
};

const ALL = 'students:read students:write courses:read courses:write curriculum:read curriculum:write';
const OWN = 'students:read account:read account:write';
const MINUTE_MS = 60_000;

const ok = <T>(response: { status: number; body: unknown }, status = 200) => {
  assert.equal(response.status, status, JSON.stringify(response.body));
  return response.body as T;
};

for (const engine of engines) {
  describe(`students API (${engine})`, () => {
    let server: TestServer;
    let skew = 0;
    let staff: Client;
    let stuApi: Client;
    let otherApi: Client;
    let anonymous: Client;
    let staffPerson: Person;
    let stu: Person;
    let other: Person;

    before(async () => {
      // The server's clock runs `skew` ahead of the test's: moved by hand, never waited for.
      server = await startTestServer(engine, {}, { clock: { now: () => new Date(Date.now() + skew) } });
      const people = await schoolWithPeople(server);
      staffPerson = people.staff;
      stu = people.student;
      other = await createUser(server, 'student', 'Otto Other');
      staff = apiClient(server.url, await tokenFor(server, staffPerson, ALL));
      stuApi = apiClient(server.url, await tokenFor(server, stu, OWN));
      otherApi = apiClient(server.url, await tokenFor(server, other, OWN));
      anonymous = apiClient(server.url);
    });
    after(() => server.close());

    /** A published course with one published section of `lessons` published lessons (and `extra` sections). */
    const course = async (
      options: { lessons?: number; publish?: boolean; drip?: Record<string, unknown>; draftLesson?: boolean } = {},
    ) => {
      const made = ok<{ id: string; slug: string; title: string }>(
        await staff.post('/api/v1/courses', { title: `Course ${Math.random().toString(36).slice(2)}` }),
        201,
      );
      const section = ok<{ id: string }>(
        await staff.post(`/api/v1/courses/${made.id}/sections`, {
          title: 'Part one',
          ...(options.drip ? { drip: options.drip } : {}),
        }),
        201,
      );
      ok(await staff.post(`/api/v1/sections/${section.id}/publish`));
      const lessons: string[] = [];
      for (let i = 0; i < (options.lessons ?? 2); i++) {
        const lesson = ok<{ id: string }>(
          await staff.post(`/api/v1/sections/${section.id}/lessons`, { title: `Lesson ${i}`, body: 'Text' }),
          201,
        );
        ok(await staff.post(`/api/v1/lessons/${lesson.id}/publish`));
        lessons.push(lesson.id);
      }
      const draft = options.draftLesson
        ? ok<{ id: string }>(await staff.post(`/api/v1/sections/${section.id}/lessons`, { title: 'Draft' }), 201).id
        : undefined;
      if (options.publish !== false) ok(await staff.post(`/api/v1/courses/${made.id}/publish`));
      return { ...made, lessons, draft };
    };
    const enroll = (studentId: string, body: Record<string, unknown>) =>
      staff.post<Enrollment>(`/api/v1/students/${studentId}/enrollments`, body);

    test('every operation: anonymous is 403 insufficient_scope, a token without the scope 403, a student 403 on staff writes', async () => {
      const id = stu.id;
      const crs = newId('crs');
      const les = newId('les');
      const job = newId('job');
      const operations: [string, string, string, unknown?][] = [
        ['GET', '/api/v1/students', 'students:read'],
        ['POST', '/api/v1/students', 'students:write', { email: 'x@school.test', name: 'X' }],
        ['GET', `/api/v1/students/${id}`, 'students:read'],
        ['GET', '/api/v1/students/me', 'students:read'],
        ['PATCH', `/api/v1/students/${id}`, 'students:write', { name: 'Y' }],
        ['POST', `/api/v1/students/${id}/suspend`, 'students:write', {}],
        ['POST', `/api/v1/students/${id}/reactivate`, 'students:write', {}],
        ['GET', `/api/v1/students/${id}/enrollments`, 'students:read'],
        ['POST', `/api/v1/students/${id}/enrollments`, 'students:write', { course_id: crs }],
        ['DELETE', `/api/v1/students/${id}/enrollments/${crs}`, 'students:write'],
        ['GET', `/api/v1/students/${id}/courses/${crs}/progress`, 'students:read'],
        ['POST', `/api/v1/students/${id}/lessons/${les}/complete`, 'students:write', {}],
        [
          'POST',
          '/api/v1/students/bulk-enrollments',
          'students:write',
          { rows: [{ email: 'a@b.cd', course_id: crs }] },
        ],
        ['GET', `/api/v1/students/bulk-enrollments/${job}`, 'students:read'],
        ['POST', `/api/v1/account/lessons/${les}/complete`, 'account:write', {}],
        ['POST', `/api/v1/account/lessons/${les}/quiz-attempts`, 'account:write', { answers: [[0]] }],
        ['GET', `/api/v1/account/lessons/${les}/quiz-attempts`, 'account:read'],
        ['GET', `/api/v1/students/${id}/lessons/${les}/quiz-attempts`, 'students:read'],
        ['POST', '/api/v1/account/enrollments', 'account:write', { course_id: crs }],
      ];
      const staffWithout = apiClient(server.url, await tokenFor(server, staffPerson, 'courses:read'));
      const studentWithout = apiClient(server.url, await tokenFor(server, stu, 'courses:read'));
      for (const [method, path, scope, body] of operations) {
        for (const [who, client] of [
          ['anonymous', anonymous],
          ['staff without the scope', staffWithout],
          ['student without the scope', studentWithout],
          ...(scope === 'students:write' ? [['student', stuApi] as const] : []),
        ] as const) {
          const response = await client.call(method, path, body);
          assert.equal(response.status, 403, `${method} ${path} as ${who}`);
          assert.equal((response.body as { error: string }).error, 'insufficient_scope', `${method} ${path}`);
          assert.match(response.headers.get('www-authenticate') ?? '', insufficientScopeChallenge(scope));
        }
      }
    });

    test('create is an upsert by e-mail: 201 and invited when new, 200 and renamed when known, 409 for staff', async () => {
      const made = await staff.post<Student>('/api/v1/students', { email: 'Nora.New@School.TEST', name: ' Nora ' });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      assert.match(made.body.id, /^usr_[0-9a-z]{26}$/);
      assert.equal(made.body.email, 'nora.new@school.test');
      assert.equal(made.body.status, 'active');
      assert.equal(made.body.name, 'Nora');
      const again = await staff.post<Student>('/api/v1/students', { email: 'nora.new@school.test', name: 'Nora N.' });
      assert.equal(again.status, 200);
      assert.equal(again.body.id, made.body.id);
      assert.equal(again.body.name, 'Nora N.');
      const staffEmail = await staff.post('/api/v1/students', { email: staffPerson.email, name: 'Not staff' });
      assert.equal(staffEmail.status, 409);
      assert.match(String(staffEmail.body.error_description), /staff account/);
      // The invited student has no password until they set one through the invitation.
      const signin = await new WebClient(server.url).submit('/signin', '/signin', {
        email: 'nora.new@school.test',
        password: '',
      });
      assert.notEqual(signin.status, 303);

      for (const bad of [
        { email: 'not-an-email', name: 'X' },
        { email: 'a@b.cd' },
        { email: 'a@b.cd', name: 'X', role: 'staff' },
        { email: 'a@b.cd', name: '   ' },
      ]) {
        const refused = await staff.post('/api/v1/students', bad);
        assert.equal(refused.status, 400, JSON.stringify(bad));
        assert.equal(refused.body.error, 'invalid_request');
      }

      const key = `student-${Date.now()}`;
      const first = await staff.post<Student>(
        '/api/v1/students',
        { email: 'kim@school.test', name: 'Kim' },
        { 'idempotency-key': key },
      );
      const replay = await staff.post<Student>(
        '/api/v1/students',
        { email: 'kim@school.test', name: 'Kim' },
        { 'idempotency-key': key },
      );
      assert.equal(first.status, 201);
      assert.equal(replay.status, 201);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.equal(replay.body.id, first.body.id);
      assert.ok(
        !server.logs.some((line) => line.includes('FST_ERR_REP_ALREADY_SENT')),
        'an answer recorded for its key is sent once',
      );
    });

    test('update: name and e-mail; a taken e-mail is 409; staff accounts are 404; blank or empty is 400', async () => {
      const s = ok<Student>(await staff.post('/api/v1/students', { email: 'upd@school.test', name: 'Up' }), 201);
      const renamed = ok<Student>(
        await staff.patch(`/api/v1/students/${s.id}`, { name: 'Updated', email: 'UPD2@school.test' }),
      );
      assert.equal(renamed.name, 'Updated');
      assert.equal(renamed.email, 'upd2@school.test');
      assert.equal((await staff.patch(`/api/v1/students/${s.id}`, { email: stu.email })).status, 409);
      assert.equal((await staff.patch(`/api/v1/students/${staffPerson.id}`, { name: 'Z' })).status, 404);
      assert.equal((await staff.patch(`/api/v1/students/${s.id}`, {})).status, 400);
      assert.equal((await staff.patch(`/api/v1/students/${s.id}`, { name: ' ' })).status, 400);
      assert.equal((await staff.patch(`/api/v1/students/${s.id}`, { status: 'suspended' })).status, 400);
      assert.equal((await staff.patch(`/api/v1/students/${newId('usr')}`, { name: 'Z' })).status, 404);
    });

    test('a student sees only themselves (by id or "me"); others are 404; staff see every student, never staff', async () => {
      const me = ok<Student>(await stuApi.get('/api/v1/students/me'));
      assert.equal(me.id, stu.id);
      assert.equal(ok<Student>(await stuApi.get(`/api/v1/students/${stu.id}`)).email, stu.email);
      assert.equal((await stuApi.get(`/api/v1/students/${other.id}`)).status, 404);
      assert.deepEqual(
        (await listAll<Student>(stuApi, '/api/v1/students')).map((s) => s.id),
        [stu.id],
      );
      const seen = new Set((await listAll<Student>(staff, '/api/v1/students')).map((s) => s.id));
      assert.ok(seen.has(stu.id) && seen.has(other.id));
      assert.ok(!seen.has(staffPerson.id), 'staff are not students');
      assert.equal((await staff.get(`/api/v1/students/${staffPerson.id}`)).status, 404);
      assert.equal((await staff.get('/api/v1/students/me')).status, 404, 'staff are not students');
      assert.equal((await staff.get('/api/v1/students/nope')).status, 400);
    });

    test('list: cursor pagination, q on name or e-mail, and the status, course and enrollment filters', async () => {
      const tag = `pg${Date.now().toString(36)}`;
      await paginatesLikeEveryList({
        staff,
        query: `/api/v1/students?q=${tag}`,
        make: async (i) =>
          ok(await staff.post('/api/v1/students', { email: `${tag}.${i}@school.test`, name: `P ${i}` }), 201),
        // Students are not deleted: renaming one (and its e-mail) takes it out of the q= filter.
        remove: (id) => staff.patch(`/api/v1/students/${id}`, { email: `gone.${id}@school.test` }),
      });
      const c = await course();
      const a = ok<Student>(await staff.post('/api/v1/students', { email: `${tag}a@x.test`, name: `Filter A` }), 201);
      const b = ok<Student>(await staff.post('/api/v1/students', { email: `${tag}b@x.test`, name: `Filter B` }), 201);
      ok(await enroll(a.id, { course_id: c.id }), 201);
      ok(await enroll(b.id, { course_id: c.id, expires_at: new Date(Date.now() + MINUTE_MS).toISOString() }), 201);
      const ids = async (query: string) =>
        (await listAll<Student>(staff, `/api/v1/students?${query}`)).map((s) => s.id).sort();
      assert.deepEqual(await ids(`course_id=${c.id}`), [a.id, b.id].sort());
      assert.deepEqual(await ids(`course_id=${c.id}&enrollment_status=active`), [a.id, b.id].sort());
      assert.deepEqual(await ids('q=filter%20a'), [a.id]);
      ok(await staff.post(`/api/v1/students/${a.id}/suspend`));
      assert.deepEqual(await ids(`course_id=${c.id}&status=suspended`), [a.id]);
      ok(await staff.post(`/api/v1/students/${a.id}/reactivate`));
      skew += 2 * MINUTE_MS;
      try {
        assert.deepEqual(await ids(`course_id=${c.id}&enrollment_status=expired`), [b.id], 'expired by the clock');
        assert.deepEqual(await ids(`course_id=${c.id}&enrollment_status=active`), [a.id]);
      } finally {
        skew -= 2 * MINUTE_MS;
      }
      assert.equal((await staff.get('/api/v1/students?enrollment_status=gone')).status, 400);
      assert.equal((await staff.get('/api/v1/students?course_id=crs_x')).status, 400);
    });

    test('enroll, unenroll (revoked, kept), re-enroll; draft and archived courses refused; expiry derived from the clock', async () => {
      const c = await course();
      const s = ok<Student>(await staff.post('/api/v1/students', { email: `enr${Date.now()}@x.test`, name: 'E' }), 201);
      const made = await enroll(s.id, { course_id: c.id });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      assert.equal(made.body.status, 'active');
      assert.equal(made.body.source, 'manual');
      assert.equal(made.body.course_title, c.title);
      assert.match(made.body.id, /^enr_/);
      const same = await enroll(s.id, { course_id: c.id });
      assert.equal(same.status, 200, 'already enrolled: left as it was');
      assert.equal(same.body.id, made.body.id);

      const revoked = ok<Enrollment>(await staff.delete(`/api/v1/students/${s.id}/enrollments/${c.id}`));
      assert.equal(revoked.status, 'revoked');
      const listed = ok<{ data: Enrollment[] }>(await staff.get(`/api/v1/students/${s.id}/enrollments`));
      assert.deepEqual(
        listed.data.map((e) => e.status),
        ['revoked'],
        'kept as history',
      );
      const reopened = await enroll(s.id, { course_id: c.id, source: 'order' });
      assert.equal(reopened.status, 200);
      assert.equal(reopened.body.status, 'active');
      assert.equal(reopened.body.source, 'order');
      assert.equal(reopened.body.id, made.body.id);

      const draft = await course({ publish: false });
      const refused = await staff.post(`/api/v1/students/${s.id}/enrollments`, { course_id: draft.id });
      assert.equal(refused.status, 409);
      assert.match(String(refused.body.error_description), /draft; publish it first/);
      const archived = await course();
      ok(await staff.post(`/api/v1/courses/${archived.id}/archive`));
      assert.equal((await enroll(s.id, { course_id: archived.id })).status, 409);
      assert.equal((await enroll(s.id, { course_id: newId('crs') })).status, 400);
      assert.equal((await enroll(s.id, { course_id: c.id, expires_at: '2001-01-01T00:00:00Z' })).status, 400);
      assert.equal((await enroll(s.id, { course_id: c.id, colour: 'red' })).status, 400);
      assert.equal((await enroll(staffPerson.id, { course_id: c.id })).status, 404);
      assert.equal((await staff.delete(`/api/v1/students/${s.id}/enrollments/${draft.id}`)).status, 404);

      const short = await course();
      const expiring = ok<Enrollment>(
        await enroll(s.id, { course_id: short.id, expires_at: new Date(Date.now() + MINUTE_MS).toISOString() }),
        201,
      );
      assert.equal(expiring.status, 'active');
      skew += 2 * MINUTE_MS;
      try {
        const [shown] = ok<{ data: Enrollment[] }>(
          await staff.get(`/api/v1/students/${s.id}/enrollments?course_id=${short.id}`),
        ).data;
        assert.equal(shown?.status, 'expired');
        const again = ok<Enrollment>(await enroll(s.id, { course_id: short.id }));
        assert.equal(again.status, 'active', 'enrolling again reopens an expired enrollment');
        assert.equal(again.expires_at, null);
      } finally {
        skew -= 2 * MINUTE_MS;
      }

      const key = `enroll-${Date.now()}`;
      const fresh = await course();
      const first = await staff.post(
        `/api/v1/students/${s.id}/enrollments`,
        { course_id: fresh.id },
        {
          'idempotency-key': key,
        },
      );
      const replay = await staff.post(
        `/api/v1/students/${s.id}/enrollments`,
        { course_id: fresh.id },
        {
          'idempotency-key': key,
        },
      );
      assert.equal(first.status, 201);
      assert.equal(replay.status, 201);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    });

    test('a student reads their own enrollments and progress with their own token; another’s are 404', async () => {
      const c = await course({ lessons: 3 });
      ok(await enroll(stu.id, { course_id: c.id }), 201);
      const mine = ok<{ data: Enrollment[] }>(await stuApi.get(`/api/v1/students/me/enrollments?course_id=${c.id}`));
      assert.equal(mine.data.length, 1);
      assert.equal(mine.data[0]?.student_id, stu.id);
      assert.equal((await stuApi.get(`/api/v1/students/${stu.id}/enrollments`)).status, 200);
      assert.equal((await stuApi.get(`/api/v1/students/${other.id}/enrollments`)).status, 404);
      const progress = ok<Progress>(await stuApi.get(`/api/v1/students/me/courses/${c.id}/progress`));
      assert.equal(progress.total_lessons, 3);
      assert.equal(progress.percent, 0);
      assert.equal(progress.next_lesson_id, c.lessons[0]);
      assert.equal((await stuApi.get(`/api/v1/students/${other.id}/courses/${c.id}/progress`)).status, 404);
      assert.equal((await otherApi.get(`/api/v1/students/me/courses/${c.id}/progress`)).status, 404, 'not enrolled');
      assert.equal((await staff.get(`/api/v1/students/${stu.id}/courses/${c.id}/progress`)).status, 200);
    });

    test('completing every required lesson completes the enrollment; the student’s own path and staff’s share one rule', async () => {
      const c = await course({ lessons: 3, draftLesson: true });
      const [l0, l1, l2] = c.lessons as [string, string, string];
      // Not enrolled: the lesson is visible (a public course) but not theirs to complete.
      const notEnrolled = await stuApi.post(`/api/v1/account/lessons/${l0}/complete`);
      assert.equal(notEnrolled.status, 409, JSON.stringify(notEnrolled.body));
      ok(await enroll(stu.id, { course_id: c.id }), 201);

      const first = ok<Progress>(await stuApi.post(`/api/v1/account/lessons/${l0}/complete`));
      assert.equal(first.completed_lessons, 1);
      assert.equal(first.percent, 33);
      assert.equal(first.next_lesson_id, l1);
      assert.equal(first.enrollment_status, 'active');
      const twice = ok<Progress>(await stuApi.post(`/api/v1/account/lessons/${l0}/complete`));
      assert.equal(twice.completed_lessons, 1, 'completing again changes nothing');
      assert.equal(twice.lessons[0]?.completed_at, first.lessons[0]?.completed_at);
      assert.equal((await stuApi.post(`/api/v1/account/lessons/${c.draft}/complete`)).status, 404, 'a draft lesson');
      assert.equal((await stuApi.post(`/api/v1/account/lessons/${newId('les')}/complete`)).status, 404);

      const byStaff = ok<Progress>(await staff.post(`/api/v1/students/${stu.id}/lessons/${l1}/complete`));
      assert.equal(byStaff.percent, 66);
      assert.equal(
        (await staff.post(`/api/v1/students/${other.id}/lessons/${l1}/complete`)).status,
        409,
        'staff cannot complete a lesson for a student without access',
      );
      assert.equal((await staff.post(`/api/v1/students/${staffPerson.id}/lessons/${l1}/complete`)).status, 404);
      const staffOwn = apiClient(server.url, await tokenFor(server, staffPerson, 'account:write'));
      assert.equal((await staffOwn.post(`/api/v1/account/lessons/${l1}/complete`)).status, 409);

      const last = ok<Progress>(await stuApi.post(`/api/v1/account/lessons/${l2}/complete`));
      assert.equal(last.percent, 100);
      assert.equal(last.next_lesson_id, null);
      assert.equal(last.enrollment_status, 'completed');
      assert.ok(last.completed_at);
      const [enrollment] = ok<{ data: Enrollment[] }>(
        await stuApi.get(`/api/v1/students/me/enrollments?course_id=${c.id}`),
      ).data;
      assert.equal(enrollment?.status, 'completed');
      assert.equal(enrollment?.progress_percent, 100);
      assert.equal(enrollment?.completed_at, last.completed_at);
      const certificates = ok<{ data: { course_id: string; status: string }[] }>(
        await stuApi.get(`/api/v1/certificates?course_id=${c.id}`),
      );
      assert.deepEqual(
        certificates.data.map((x) => x.status),
        ['valid'],
        'the completing transaction issued the certificate',
      );
      const completedFilter = await listAll<Student>(
        staff,
        `/api/v1/students?course_id=${c.id}&enrollment_status=completed`,
      );
      assert.deepEqual(
        completedFilter.map((s) => s.id),
        [stu.id],
      );

      // A revoked enrollment completes nothing more; drip-held lessons wait for their date.
      const revokedCourse = await course({ lessons: 1 });
      ok(await enroll(stu.id, { course_id: revokedCourse.id }), 201);
      ok(await staff.delete(`/api/v1/students/${stu.id}/enrollments/${revokedCourse.id}`));
      assert.equal((await stuApi.post(`/api/v1/account/lessons/${revokedCourse.lessons[0]}/complete`)).status, 409);
      const dripped = await course({
        lessons: 1,
        drip: { type: 'on_date', date: new Date(Date.now() + 30 * 86_400_000).toISOString() },
      });
      ok(await enroll(stu.id, { course_id: dripped.id }), 201);
      const held = await stuApi.post(`/api/v1/account/lessons/${dripped.lessons[0]}/complete`);
      assert.equal(held.status, 409);
      assert.match(String(held.body.error_description), /opens at/);
    });

    test('a student enrolls themselves in a free open course they can see; paid, closed, draft and staff are refused', async () => {
      const free = await course({ lessons: 1 });
      const first = await stuApi.post<Enrollment>('/api/v1/account/enrollments', { course_id: free.slug });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      assert.equal(first.body.source, 'manual');
      assert.equal(first.body.status, 'active');
      const again = await stuApi.post<Enrollment>('/api/v1/account/enrollments', { course_id: free.id });
      assert.equal(again.status, 200);
      assert.equal(again.body.id, first.body.id);

      const paid = await course({ lessons: 1 });
      ok(await staff.patch(`/api/v1/courses/${paid.id}`, { price: { amount: 1900, currency: 'EUR' } }));
      const closed = await course({ lessons: 1 });
      ok(await staff.patch(`/api/v1/courses/${closed.id}`, { enrollment_open: false }));
      const draft = await course({ lessons: 1, publish: false });
      for (const [what, c, status, pattern] of [
        ['paid', paid, 409, /checkout/],
        ['closed', closed, 409, /not taking enrollments/],
        ['draft', draft, 404, /No such course/],
      ] as const) {
        const refused = await stuApi.post('/api/v1/account/enrollments', { course_id: c.id });
        assert.equal(refused.status, status, what);
        assert.match(String(refused.body.error_description), pattern, what);
      }
      const staffOwn = apiClient(server.url, await tokenFor(server, staffPerson, 'account:write'));
      assert.equal((await staffOwn.post('/api/v1/account/enrollments', { course_id: free.id })).status, 409);
      assert.equal((await stuApi.post('/api/v1/account/enrollments', { course_id: free.id, x: 1 })).status, 400);
    });

    test('a quiz lesson is completed by passing its quiz; attempts are kept, marked and limited', async () => {
      const c = await course({ lessons: 1 });
      const section = ok<{ data: { id: string }[] }>(await staff.get(`/api/v1/courses/${c.id}/sections`)).data[0];
      const quiz = ok<{ id: string }>(
        await staff.post(`/api/v1/sections/${section?.id}/lessons`, {
          title: 'Check',
          type: 'quiz',
          quiz: {
            pass_percent: 100,
            max_attempts: 3,
            questions: [
              { prompt: 'One?', choices: ['a', 'b'], answers: [0] },
              { prompt: 'Both?', choices: ['a', 'b', 'c'], answers: [0, 2], explanation: 'a and c.' },
            ],
          },
        }),
        201,
      );
      ok(await staff.post(`/api/v1/lessons/${quiz.id}/publish`));
      const attempts = `/api/v1/account/lessons/${quiz.id}/quiz-attempts`;
      assert.equal((await stuApi.post(attempts, { answers: [[0], [0, 2]] })).status, 409, 'not enrolled');
      ok(await enroll(stu.id, { course_id: c.id }), 201);
      ok(await stuApi.post(`/api/v1/account/lessons/${c.lessons[0]}/complete`));

      const asking = await stuApi.post(`/api/v1/account/lessons/${quiz.id}/complete`);
      assert.equal(asking.status, 409, 'a quiz is not completed by asking');
      assert.match(String(asking.body.error_description), /passing its quiz/);
      assert.equal((await stuApi.post(attempts, { answers: [[0]] })).status, 400, 'one answer list per question');
      assert.equal((await stuApi.post(attempts, { answers: [[0], [0, 0]] })).status, 400, 'a choice picked twice');

      type Result = {
        attempt: {
          score_percent: number;
          passed: boolean;
          results: { correct: boolean; explanation: string | null }[];
        };
        attempts_left: number | null;
        progress: Progress;
      };
      const failed = ok<Result>(await stuApi.post(attempts, { answers: [[0], [0]] }), 201);
      assert.equal(failed.attempt.score_percent, 50);
      assert.equal(failed.attempt.passed, false);
      assert.deepEqual(failed.attempt.results, [
        { correct: true, explanation: null },
        { correct: false, explanation: 'a and c.' },
      ]);
      assert.equal(failed.attempts_left, 2);
      assert.equal(failed.progress.enrollment_status, 'active');

      const passed = ok<Result>(await stuApi.post(attempts, { answers: [[0], [2, 0]] }), 201);
      assert.equal(passed.attempt.passed, true);
      assert.equal(passed.attempts_left, 1);
      assert.equal(passed.progress.percent, 100);
      assert.equal(passed.progress.enrollment_status, 'completed', 'the pass completed the last lesson');
      ok(await stuApi.post(attempts, { answers: [[1], [1]] }), 201);
      const spent = await stuApi.post(attempts, { answers: [[0], [0, 2]] });
      assert.equal(spent.status, 409);
      assert.match(String(spent.body.error_description), /All 3 attempts/);

      const mine = ok<{ data: { passed: boolean; answers: number[][] }[] }>(await stuApi.get(attempts));
      assert.deepEqual(
        mine.data.map((a) => a.passed),
        [false, true, false],
        'newest first',
      );
      assert.deepEqual(mine.data[1]?.answers, [[0], [2, 0]]);
      const seenByStaff = ok<{ data: unknown[] }>(
        await staff.get(`/api/v1/students/${stu.id}/lessons/${quiz.id}/quiz-attempts`),
      );
      assert.equal(seenByStaff.data.length, 3);
      assert.equal((await otherApi.get(`/api/v1/students/${stu.id}/lessons/${quiz.id}/quiz-attempts`)).status, 404);
      assert.equal(
        (await stuApi.post(`/api/v1/account/lessons/${c.lessons[0]}/quiz-attempts`, { answers: [[0]] })).status,
        409,
        'a text lesson has no quiz',
      );
    });

    test('the last lessons completed at once still complete the enrollment (each completion counts the other)', async () => {
      const person = await createUser(server, 'student', 'Race Runner');
      const own = apiClient(server.url, await tokenFor(server, person, OWN));
      for (let round = 0; round < 3; round++) {
        const c = await course({ lessons: 4 });
        ok(await enroll(person.id, { course_id: c.id }), 201);
        const results = await Promise.all(c.lessons.map((id) => own.post(`/api/v1/account/lessons/${id}/complete`)));
        for (const result of results) assert.equal(result.status, 200, JSON.stringify(result.body));
        const progress = ok<Progress>(await own.get(`/api/v1/students/me/courses/${c.id}/progress`));
        assert.equal(progress.percent, 100, `round ${round}`);
        assert.equal(progress.enrollment_status, 'completed', `round ${round}`);
      }
    });

    test('suspend: sessions end, the token is refused at once, sign-in refused; reactivate restores sign-in', async () => {
      const person = await createUser(server, 'student', 'Sus Pended');
      // An app allowed to refresh, connected through the real flow: its refresh token must stop working too.
      const app = await connectApp(server, person, OWN, {
        metadata: { grant_types: ['authorization_code', 'refresh_token'] },
      });
      const tokens = { body: app.tokens };
      assert.ok(tokens.body.refresh_token, 'a refresh token was issued');
      const refresh = () =>
        tokenRequest(server.url, {
          grant_type: 'refresh_token',
          refresh_token: String(tokens.body.refresh_token),
          client_id: app.clientId,
        });
      const own = apiClient(server.url, String(tokens.body.access_token));
      ok(await own.get('/api/v1/students/me')); // now in this instance's token cache
      const browser = new WebClient(server.url);
      const signin = () => browser.submit('/signin', '/signin', { email: person.email, password: person.password });
      assert.equal((await signin()).status, 303);
      const sessions = async () =>
        (await server.database.db.selectFrom('sessions').select('id').where('user_id', '=', person.id).execute())
          .length;
      assert.ok((await sessions()) > 0);

      const suspended = ok<Student>(await staff.post(`/api/v1/students/${person.id}/suspend`));
      assert.equal(suspended.status, 'suspended');
      const refused = await own.get('/api/v1/students/me');
      assert.equal(refused.status, 401);
      assert.equal(refused.body.error, 'invalid_token');
      assert.equal(await sessions(), 0, 'browser sessions ended');
      assert.notEqual((await signin()).status, 303, 'sign-in refused');
      const refreshed = await refresh();
      assert.equal(refreshed.status, 400, 'refresh refused');
      assert.equal(refreshed.body.error, 'invalid_grant');
      assert.equal(
        (await staff.post(`/api/v1/students/${staffPerson.id}/suspend`)).status,
        404,
        'staff are not students',
      );

      const back = ok<Student>(await staff.post(`/api/v1/students/${person.id}/reactivate`));
      assert.equal(back.status, 'active');
      assert.equal((await signin()).status, 303, 'sign-in works again');
      // Connected apps are kept through a suspension (refused meanwhile), so they work again.
      assert.equal((await refresh()).status, 200, 'the app refreshes again');
      ok(await apiClient(server.url, await tokenFor(server, person, OWN)).get('/api/v1/students/me'));
    });

    test('bulk enrollment of 1,000 rows with a few bad ones: 202 with a job, per-row results, the key replays the same job', async () => {
      const c = await course();
      const draft = await course({ publish: false });
      const known = ok<Student>(
        await staff.post('/api/v1/students', { email: `known${Date.now()}@x.test`, name: 'Known' }),
        201,
      );
      ok(await enroll(known.id, { course_id: c.id }), 201);
      const tag = `bulk${Date.now().toString(36)}`;
      const rows: Record<string, unknown>[] = Array.from({ length: 1000 }, (_, i) => ({
        email: `${tag}.${i}@school.test`,
        course_id: c.id,
        ...(i % 2 ? { name: `Bulk ${i}` } : {}),
      }));
      rows[3] = { email: 'not an address', course_id: c.id };
      rows[10] = { email: `${tag}.10@school.test`, course_id: newId('crs') };
      rows[11] = { email: `${tag}.11@school.test`, course_id: 'nonsense' };
      rows[12] = { email: `${tag}.12@school.test`, course_id: draft.id };
      rows[13] = { email: staffPerson.email, course_id: c.id };
      rows[14] = { email: known.email.toUpperCase(), course_id: c.id };
      rows[15] = { email: `${tag}.16@school.test`, course_id: c.id }; // the same person as row 16
      const bad = new Set([3, 10, 11, 12, 13]);

      const key = `bulk-${Date.now()}`;
      const accepted = await staff.post<Bulk>(
        '/api/v1/students/bulk-enrollments',
        { rows },
        { 'idempotency-key': key },
      );
      assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
      assert.equal(accepted.headers.get('location'), `/api/v1/students/bulk-enrollments/${accepted.body.id}`);
      assert.equal(accepted.body.status, 'queued');
      assert.deepEqual(accepted.body.progress, { done: 0, total: 1000 });
      const replay = await staff.post<Bulk>('/api/v1/students/bulk-enrollments', { rows }, { 'idempotency-key': key });
      assert.equal(replay.status, 202);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.equal(replay.body.id, accepted.body.id, 'the same job');

      await server.services.jobs.runDue();
      const done = ok<Bulk>(await staff.get(`/api/v1/students/bulk-enrollments/${accepted.body.id}`));
      assert.equal(done.status, 'succeeded');
      assert.deepEqual(done.progress, { done: 1000, total: 1000 });
      assert.equal(done.results.length, 1000);
      for (const result of done.results) {
        const expected = bad.has(result.row)
          ? 'invalid'
          : result.row === 14 || result.row === 16
            ? 'already_enrolled'
            : 'enrolled';
        assert.equal(result.status, expected, JSON.stringify(result));
        if (expected === 'invalid') assert.ok(result.error);
        else assert.match(result.student_id ?? '', /^usr_/);
      }
      assert.match(String(done.results[3]?.error), /email/);
      assert.match(String(done.results[12]?.error), /draft/);
      assert.match(String(done.results[13]?.error), /staff/);
      assert.equal(done.results[14]?.student_id, known.id);

      const enrolled = await listAll<Student>(staff, `/api/v1/students?course_id=${c.id}&q=${tag}`);
      // Every row but the five invalid ones, the known student's and the second row of one person is a new student.
      assert.equal(enrolled.length, 1000 - 7, 'one row per new person; none twice');
      const imported = ok<{ data: Enrollment[] }>(
        await staff.get(`/api/v1/students/${done.results[0]?.student_id}/enrollments`),
      );
      assert.equal(imported.data[0]?.source, 'import');
      const named = ok<Student>(await staff.get(`/api/v1/students/${done.results[1]?.student_id}`));
      assert.equal(named.name, 'Bulk 1');
      const unnamed = ok<Student>(await staff.get(`/api/v1/students/${done.results[0]?.student_id}`));
      assert.equal(unnamed.name, `${tag}.0`);

      // A worker lost after recording half the rows: the job runs again and carries on after them, enrolling nobody twice.
      await server.database.db
        .updateTable('jobs')
        .set({
          status: 'queued',
          result: null,
          progress: JSON.stringify({ done: 500, total: 1000, results: done.results.slice(0, 500) }),
        })
        .where('id', '=', accepted.body.id)
        .execute();
      await server.services.jobs.runDue();
      const resumed = ok<Bulk>(await staff.get(`/api/v1/students/bulk-enrollments/${accepted.body.id}`));
      assert.equal(resumed.status, 'succeeded');
      assert.deepEqual(resumed.results.slice(0, 500), done.results.slice(0, 500), 'recorded rows are not run again');
      assert.ok(resumed.results.slice(500).every((r) => r.status === 'already_enrolled'));

      // The same rows again (another key: another job): nobody is enrolled twice.
      const rerun = ok<Bulk>(await staff.post('/api/v1/students/bulk-enrollments', { rows }), 202);
      await server.services.jobs.runDue();
      const second = ok<Bulk>(await staff.get(`/api/v1/students/bulk-enrollments/${rerun.id}`));
      assert.equal(second.results.filter((r) => r.status === 'enrolled').length, 0);
      assert.equal(second.results.filter((r) => r.status === 'already_enrolled').length, 1000 - bad.size);
      const count = await server.database.db
        .selectFrom('enrollments')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('course_id', '=', c.id)
        .executeTakeFirstOrThrow();
      assert.equal(Number(count.n), 1000 - 7 + 1);

      // Only staff follow a bulk enrollment; a student's students:read token finds nothing.
      assert.equal((await stuApi.get(`/api/v1/students/bulk-enrollments/${rerun.id}`)).status, 404);
      assert.equal((await staff.get(`/api/v1/students/bulk-enrollments/${newId('job')}`)).status, 404);
    });

    test('bulk enrollment: the envelope and each row’s shape are checked at the edge (400)', async () => {
      const crs = newId('crs');
      const row = { email: 'a@b.cd', course_id: crs };
      for (const [label, body] of [
        ['no rows', { rows: [] }],
        ['1,001 rows', { rows: Array.from({ length: 1001 }, () => row) }],
        ['a row without course_id', { rows: [{ email: 'a@b.cd' }] }],
        ['a row with an unknown field', { rows: [{ ...row, role: 'staff' }] }],
        ['a malformed expiry', { rows: [{ ...row, expires_at: 'tomorrow' }] }],
        ['an unknown field', { rows: [row], notify: false }],
      ] as const) {
        const refused = await staff.post('/api/v1/students/bulk-enrollments', body);
        assert.equal(refused.status, 400, label);
        assert.equal(refused.body.error, 'invalid_request', label);
      }
    });
  });
}
