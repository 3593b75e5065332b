import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newId } from '../../src/db/ids.ts';
import { apiClient, listAll, type Person, schoolWithPeople, tokenFor } from '../support/api.ts';
import { CONTENT_SCOPES, publishWithALesson } from '../support/course-content.ts';
import { engines } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { paginatesLikeEveryList, seenOnlyBy } from '../support/shared-examples.ts';

type Course = {
  id: string;
  title: string;
  slug: string;
  status: string;
  visibility: string;
  price: unknown;
  lecturer_ids: string[];
};

for (const engine of engines) {
  describe(`courses API (${engine})`, () => {
    let server: TestServer;
    let staff: ReturnType<typeof apiClient>;
    let studentApi: ReturnType<typeof apiClient>;
    let anonymous: ReturnType<typeof apiClient>;
    let student: Person;
    let staffPerson: Person;

    before(async () => {
      server = await startTestServer(engine);
      const people = await schoolWithPeople(server);
      student = people.student;
      staffPerson = people.staff;
      staff = apiClient(
        server.url,
        await tokenFor(server, people.staff, `courses:read curriculum:read ${CONTENT_SCOPES}`),
      );
      studentApi = apiClient(server.url, await tokenFor(server, student, 'courses:read courses:write'));
      anonymous = apiClient(server.url);
    });
    after(() => server.close());

    const create = async (body: Record<string, unknown>) => {
      const response = await staff.post<Course>('/api/v1/courses', body);
      assert.equal(response.status, 201, JSON.stringify(response.body));
      return response.body;
    };
    const published = async (body: Record<string, unknown>) => {
      const course = await create(body);
      return (await publishWithALesson<Course>(staff, course.id)).body;
    };

    test('create makes a draft with a slug from the title; get by id and by slug', async () => {
      const course = await create({ title: 'Watercolour Basics', price: { amount: 4900, currency: 'EUR' } });
      assert.match(course.id, /^crs_[0-9a-z]{26}$/);
      assert.equal(course.slug, 'watercolour-basics');
      assert.equal(course.status, 'draft');
      assert.deepEqual(course.price, { amount: 4900, currency: 'EUR' });
      assert.equal((await staff.get<Course>(`/api/v1/courses/${course.id}`)).body.title, 'Watercolour Basics');
      assert.equal((await staff.get<Course>('/api/v1/courses/watercolour-basics')).body.id, course.id);
    });

    test('update changes only the given fields; a taken slug is 409', async () => {
      const a = await create({ title: 'Slug A' });
      const b = await create({ title: 'Slug B' });
      const updated = await staff.patch<Course>(`/api/v1/courses/${a.id}`, { subtitle: 'New subtitle', price: null });
      assert.equal(updated.status, 200);
      assert.equal(updated.body.title, 'Slug A');
      assert.equal((updated.body as Record<string, unknown>).subtitle, 'New subtitle');
      const taken = await staff.patch(`/api/v1/courses/${a.id}`, { slug: b.slug });
      assert.equal(taken.status, 409);
      assert.match(String(taken.body.error_description), /already taken.*choose another/);
      const takenOnCreate = await staff.post('/api/v1/courses', { title: 'X', slug: b.slug });
      assert.equal(takenOnCreate.status, 409);
    });

    test('publish needs a title; only drafts can be deleted; unpublish and archive', async () => {
      const untitled = await create({ title: '' });
      const refused = await staff.post(`/api/v1/courses/${untitled.id}/publish`);
      assert.equal(refused.status, 409);
      assert.match(String(refused.body.error_description), /needs a title/);

      const course = await published({ title: 'Publish Me' });
      assert.equal(course.status, 'published');
      const deleteRefused = await staff.delete(`/api/v1/courses/${course.id}`);
      assert.equal(deleteRefused.status, 409);
      assert.match(String(deleteRefused.body.error_description), /Archive it instead/);
      assert.equal((await staff.post<Course>(`/api/v1/courses/${course.id}/unpublish`)).body.status, 'draft');
      assert.equal((await staff.post<Course>(`/api/v1/courses/${course.id}/archive`)).body.status, 'archived');
      const unpublishArchived = await staff.post(`/api/v1/courses/${course.id}/unpublish`);
      assert.equal(unpublishArchived.status, 409);

      const draft = await create({ title: 'Delete Me' });
      assert.equal((await staff.delete(`/api/v1/courses/${draft.id}`)).status, 204);
      assert.equal((await staff.get(`/api/v1/courses/${draft.id}`)).status, 404);
      assert.equal((await staff.delete(`/api/v1/courses/${draft.id}`)).status, 404);
    });

    test('a course with no published lesson is not published, and says why', async () => {
      const course = await create({ title: 'Nothing Yet' });
      const empty = await staff.post(`/api/v1/courses/${course.id}/publish`);
      assert.equal(empty.status, 409);
      assert.deepEqual(Object.keys(empty.body).sort(), ['error', 'error_description']);
      assert.equal(empty.body.error, 'conflict');
      assert.match(String(empty.body.error_description), /at least one published lesson/);
      // A published lesson in a draft section is not seen by a student, so it does not count either.
      const section = await staff.post<{ id: string }>(`/api/v1/courses/${course.id}/sections`, { title: 'One' });
      const lesson = await staff.post<{ id: string }>(`/api/v1/sections/${section.body.id}/lessons`, {
        title: 'Only',
        body: 'Text.',
      });
      assert.equal((await staff.post(`/api/v1/lessons/${lesson.body.id}/publish`)).status, 200);
      assert.equal((await staff.post(`/api/v1/courses/${course.id}/publish`)).status, 409);
      assert.equal((await staff.get<Course>(`/api/v1/courses/${course.id}`)).body.status, 'draft');
      assert.equal((await staff.post(`/api/v1/sections/${section.body.id}/publish`)).status, 200);
      assert.equal((await staff.post<Course>(`/api/v1/courses/${course.id}/publish`)).body.status, 'published');
    });

    test('publish-with-contents publishes the course, its sections and lessons in one step, or nothing', async () => {
      const course = await create({ title: 'All At Once' });
      const section = (await staff.post<{ id: string }>(`/api/v1/courses/${course.id}/sections`, { title: 'A' })).body;
      const lesson = (
        await staff.post<{ id: string }>(`/api/v1/sections/${section.id}/lessons`, { title: 'Read me', body: 'Hi.' })
      ).body;
      const empty = (
        await staff.post<{ id: string }>(`/api/v1/sections/${section.id}/lessons`, {
          title: 'Empty video',
          type: 'video',
        })
      ).body;
      const statuses = async () => ({
        course: (await staff.get<Course>(`/api/v1/courses/${course.id}`)).body.status,
        section: (await staff.get<Course>(`/api/v1/sections/${section.id}`)).body.status,
        lessons: (await staff.get<{ data: Course[] }>(`/api/v1/sections/${section.id}/lessons`)).body.data.map(
          (l) => l.status,
        ),
      });

      const refused = await staff.post(`/api/v1/courses/${course.id}/publish-with-contents`);
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error, 'invalid_request');
      assert.match(String(refused.body.error_description), /One lesson has no content yet/);
      const fields = refused.body.errors as { field: string; code: string; message: string }[];
      assert.deepEqual(
        fields.map((f) => [f.field, f.code]),
        [[`lessons.${empty.id}`, 'no_content']],
      );
      assert.match(fields[0]?.message ?? '', /“Empty video”: A video lesson needs/);
      assert.deepEqual(await statuses(), { course: 'draft', section: 'draft', lessons: ['draft', 'draft'] });

      assert.equal((await staff.delete(`/api/v1/lessons/${empty.id}`)).status, 204);
      const done = await staff.post<Course>(`/api/v1/courses/${course.id}/publish-with-contents`);
      assert.equal(done.status, 200, JSON.stringify(done.body));
      assert.equal(done.body.status, 'published');
      assert.deepEqual(await statuses(), { course: 'published', section: 'published', lessons: ['published'] });
      assert.equal((await anonymous.get(`/api/v1/lessons/${lesson.id}`)).status, 200);

      // Published already: what was added since as a draft goes out with the same button.
      const later = (await staff.post<{ id: string }>(`/api/v1/courses/${course.id}/sections`, { title: 'B' })).body;
      assert.equal((await staff.post(`/api/v1/courses/${course.id}/publish-with-contents`)).status, 200);
      assert.equal((await staff.get<Course>(`/api/v1/sections/${later.id}`)).body.status, 'published');
    });

    test('publish-with-contents needs courses:write', async () => {
      const course = await create({ title: 'Guarded' });
      const readOnly = apiClient(server.url, await tokenFor(server, staffPerson, 'courses:read curriculum:write'));
      for (const caller of [readOnly, anonymous, studentApi]) {
        const refused = await caller.post(`/api/v1/courses/${course.id}/publish-with-contents`);
        assert.equal(refused.status, 403, JSON.stringify(refused.body));
        assert.equal(refused.body.error, 'insufficient_scope');
      }
      assert.equal((await staff.get<Course>(`/api/v1/courses/${course.id}`)).body.status, 'draft');
    });

    test('validation: unknown field, wrong type, too long, bad id, unknown lecturer', async () => {
      const unknown = await staff.post('/api/v1/courses', { title: 'x', colour: 'red' });
      assert.equal(unknown.status, 400);
      assert.equal(unknown.body.error, 'invalid_request');
      assert.deepEqual((unknown.body.errors as { field: string; code: string }[])[0], {
        field: 'colour',
        code: 'unknown_field',
        message: 'Unknown field "colour"; remove it.',
      });
      const wrongType = await staff.post('/api/v1/courses', { title: 'x', price: { amount: '12', currency: 'EUR' } });
      assert.equal(wrongType.status, 400);
      const tooLong = await staff.post('/api/v1/courses', { title: 'x'.repeat(201) });
      assert.equal(tooLong.status, 400);
      assert.equal((tooLong.body.errors as { field: string }[])[0]?.field, 'title');
      const badId = await staff.patch('/api/v1/courses/not-an-id', { title: 'y' });
      assert.equal(badId.status, 400);
      const lecturer = await staff.post('/api/v1/courses', { title: 'x', lecturer_ids: [newId('lec')] });
      assert.equal(lecturer.status, 400);
      assert.match(String(lecturer.body.error_description), /Unknown lecturer/);
      const empty = await staff.patch(`/api/v1/courses/${(await create({ title: 'E' })).id}`, {});
      assert.equal(empty.status, 400);
      const notJson = await staff.call('POST', '/api/v1/courses', '{"title":', {});
      assert.equal(notJson.status, 400);
    });

    test('the three principals see different catalogs', async () => {
      const pub = await published({ title: 'Public Course' });
      const unlisted = await published({ title: 'Unlisted Course', visibility: 'unlisted' });
      const priv = await published({ title: 'Private Course', visibility: 'private' });
      const draft = await create({ title: 'Draft Course' });
      const enrolledPrivate = await published({ title: 'Enrolled Private', visibility: 'private' });
      await server.database.db
        .insertInto('enrollments')
        .values({
          id: newId('enr'),
          course_id: enrolledPrivate.id,
          user_id: student.id,
          source: 'manual',
          status: 'active',
          enrolled_at: new Date().toISOString(),
          expires_at: null,
          completed_at: null,
          progress_percent: 0,
        })
        .execute();

      const principals = { anonymous, student: studentApi, staff };
      const course = (c: Course, get = c.id) => ({
        id: c.id,
        get: `/api/v1/courses/${get}`,
        list: '/api/v1/courses',
        label: c.title,
      });
      await seenOnlyBy(principals, course(pub), ['anonymous', 'student', 'staff']);
      await seenOnlyBy(principals, course(priv), ['staff']);
      await seenOnlyBy(principals, course(draft), ['staff']);
      await seenOnlyBy(principals, course(enrolledPrivate), ['student', 'staff']);
      // Unlisted: reachable by id or slug, never listed.
      for (const client of [anonymous, studentApi]) {
        assert.equal((await client.get(`/api/v1/courses/${unlisted.slug}`)).status, 200, 'unlisted by slug');
        assert.ok(!(await listAll<Course>(client, '/api/v1/courses')).some((c) => c.id === unlisted.id));
      }
      // An enrollment past its expiry gives nothing.
      const expired = await published({ title: 'Expired Private', visibility: 'private' });
      await server.database.db
        .insertInto('enrollments')
        .values({
          id: newId('enr'),
          course_id: expired.id,
          user_id: student.id,
          source: 'manual',
          status: 'active',
          enrolled_at: new Date(Date.now() - 86_400_000).toISOString(),
          expires_at: new Date(Date.now() - 1000).toISOString(),
          completed_at: null,
          progress_percent: 0,
        })
        .execute();
      assert.equal((await studentApi.get(`/api/v1/courses/${expired.id}`)).status, 404);
    });

    test('writes: anonymous gets 403 insufficient_scope (never 401); a student token is 403 even if granted', async () => {
      const anon = await anonymous.post('/api/v1/courses', { title: 'Nope' });
      assert.equal(anon.status, 403);
      assert.equal(anon.body.error, 'insufficient_scope');
      assert.match(
        anon.headers.get('www-authenticate') ?? '',
        /^Bearer error="insufficient_scope", error_description="[^"]+", scope="courses:write", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource"$/,
      );
      const stu = await studentApi.post('/api/v1/courses', { title: 'Nope' });
      assert.equal(stu.status, 403);
      assert.equal(stu.body.error, 'insufficient_scope');
    });

    test('list filters and cursor pagination, across a page boundary and a deleted cursor item', async () => {
      // The list's own rows, picked by a filter of their own: a lecturer of this test's (q= ranks; see courses-search).
      const lecturer = newId('lec');
      const at = new Date().toISOString();
      await server.database.db
        .insertInto('lecturers')
        .values({
          id: lecturer,
          name: 'Paige Nation',
          title: '',
          bio: '',
          avatar_url: null,
          email: null,
          user_id: null,
          status: 'active',
          created_at: at,
          updated_at: at,
        })
        .execute();
      const query = `/api/v1/courses?lecturer_id=${lecturer}`;
      await paginatesLikeEveryList({
        staff,
        query,
        make: (i) => create({ title: `Paginate ${i}`, lecturer_ids: [lecturer] }),
        remove: (id) => staff.delete(`/api/v1/courses/${id}`),
      });
      const [newest] = await listAll<Course>(staff, query);
      await publishWithALesson(staff, String(newest?.id));
      assert.deepEqual(
        (await listAll<Course>(staff, `${query}&status=draft`)).map((c) => c.title),
        ['Paginate 2', 'Paginate 1', 'Paginate 0'],
      );
      assert.equal((await staff.get(`${query}&status=gone`)).status, 400);
    });

    test('Idempotency-Key replays the first response; another body with the same key is 409', async () => {
      const key = `create-${Date.now()}`;
      const first = await staff.post<Course>('/api/v1/courses', { title: 'Once' }, { 'idempotency-key': key });
      const again = await staff.post<Course>('/api/v1/courses', { title: 'Once' }, { 'idempotency-key': key });
      assert.equal(first.status, 201);
      assert.equal(again.status, 201);
      assert.equal(again.body.id, first.body.id);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      const different = await staff.post('/api/v1/courses', { title: 'Twice' }, { 'idempotency-key': key });
      assert.equal(different.status, 409);
    });

    test('Idempotency-Key: a refused create wrote nothing and is not remembered, so the key can be used again', async () => {
      const key = `refused-${Date.now()}`;
      const body = { title: 'Needs A Lecturer', lecturer_ids: [newId('lec')] };
      const refused = await staff.post('/api/v1/courses', body, { 'idempotency-key': key });
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      const again = await staff.post('/api/v1/courses', body, { 'idempotency-key': key });
      assert.equal(again.status, 400);
      assert.equal(again.headers.get('idempotent-replayed'), null, 'a refusal is not replayed: it ran again');
      const fixed = await staff.post<Course>(
        '/api/v1/courses',
        { title: 'Needs A Lecturer' },
        { 'idempotency-key': key },
      );
      assert.equal(fixed.status, 201);
      assert.equal((await listAll<Course>(staff, '/api/v1/courses?q=Needs%20A%20Lecturer')).length, 1);
    });
  });
}

for (const engine of engines) {
  describe(`course state rules under concurrency (${engine})`, () => {
    test('a draft deleted and published at once is either deleted or published, never both', async () => {
      const server = await startTestServer(engine);
      try {
        const { staff } = await schoolWithPeople(server);
        const api = apiClient(server.url, await tokenFor(server, staff, `courses:read ${CONTENT_SCOPES}`));
        for (let round = 0; round < 10; round++) {
          const course = (await api.post<Course>('/api/v1/courses', { title: `Race ${round}` })).body;
          // Something to learn, published, so that publishing the course may succeed.
          const section = (await api.post<{ id: string }>(`/api/v1/courses/${course.id}/sections`, { title: 'S' }))
            .body;
          const lesson = (
            await api.post<{ id: string }>(`/api/v1/sections/${section.id}/lessons`, { title: 'L', body: 'b' })
          ).body;
          await api.post(`/api/v1/lessons/${lesson.id}/publish`);
          await api.post(`/api/v1/sections/${section.id}/publish`);
          const [deleted, published] = await Promise.all([
            api.delete(`/api/v1/courses/${course.id}`),
            api.post<Course>(`/api/v1/courses/${course.id}/publish`),
          ]);
          const after = await api.get<Course>(`/api/v1/courses/${course.id}`);
          if (deleted.status === 204) {
            assert.equal(after.status, 404, `round ${round}: deleted, so it must be gone`);
            assert.notEqual(published.status, 200, `round ${round}: a deleted course was reported published`);
          } else {
            assert.equal(deleted.status, 409, `round ${round}`);
            assert.equal(after.body.status, 'published', `round ${round}`);
          }
        }
      } finally {
        await server.close();
      }
    });
  });
}

for (const engine of engines) {
  describe(`Idempotency-Key under concurrency (${engine})`, () => {
    test('parallel requests with one key create exactly one course, and all of them answer it', async () => {
      const server = await startTestServer(engine);
      try {
        const { staff } = await schoolWithPeople(server);
        const api = apiClient(server.url, await tokenFor(server, staff, 'courses:read courses:write'));
        const key = `parallel-${Date.now()}`;
        const results = await Promise.all(
          Array.from({ length: 6 }, () =>
            api.post<Course>('/api/v1/courses', { title: 'Only Once' }, { 'idempotency-key': key }),
          ),
        );
        // The first to commit wins; the others roll their own write back and replay its answer.
        for (const r of results) assert.equal(r.status, 201, JSON.stringify(r.body));
        assert.equal(new Set(results.map((r) => r.body.id)).size, 1);
        const fresh = results.filter((r) => r.headers.get('idempotent-replayed') !== 'true');
        assert.equal(fresh.length, 1, 'exactly one answer is not a replay');
        const all = await listAll<Course>(api, '/api/v1/courses?q=Only%20Once');
        assert.equal(all.length, 1);
      } finally {
        await server.close();
      }
    });

    test('parallel requests with one key and different bodies: one creates, every other one is 409', async () => {
      const server = await startTestServer(engine);
      try {
        const { staff } = await schoolWithPeople(server);
        const api = apiClient(server.url, await tokenFor(server, staff, 'courses:read courses:write'));
        const key = `parallel-bodies-${Date.now()}`;
        const results = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            api.post<Course>('/api/v1/courses', { title: `Racer ${i}` }, { 'idempotency-key': key }),
          ),
        );
        const statuses = results.map((r) => r.status).sort();
        assert.deepEqual(statuses, [201, 409, 409, 409, 409, 409], JSON.stringify(results.map((r) => r.body)));
        const all = await listAll<Course>(api, '/api/v1/courses?q=Racer');
        assert.equal(all.length, 1, 'the losers rolled their own course back');
      } finally {
        await server.close();
      }
    });
  });
}
