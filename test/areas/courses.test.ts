import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newId } from '../../src/db/ids.ts';
import { apiClient, listAll, type Person, schoolWithPeople, tokenFor } from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

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

    before(async () => {
      server = await startTestServer(engine);
      const people = await schoolWithPeople(server);
      student = people.student;
      staff = apiClient(server.url, await tokenFor(server, people.staff, 'courses:read courses:write'));
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
      const response = await staff.post<Course>(`/api/v1/courses/${course.id}/publish`);
      assert.equal(response.status, 200);
      return response.body;
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
      assert.match(String(refused.body.error_description), /needs a title.*PATCH/);

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

      const ids = async (client: ReturnType<typeof apiClient>) =>
        new Set((await listAll<Course>(client, '/api/v1/courses')).map((c) => c.id));
      const anon = await ids(anonymous);
      assert.ok(anon.has(pub.id));
      for (const hidden of [unlisted, priv, draft, enrolledPrivate]) assert.ok(!anon.has(hidden.id), hidden.title);
      const stu = await ids(studentApi);
      assert.ok(stu.has(pub.id) && stu.has(enrolledPrivate.id));
      for (const hidden of [unlisted, priv, draft]) assert.ok(!stu.has(hidden.id), hidden.title);
      const all = await ids(staff);
      for (const c of [pub, unlisted, priv, draft, enrolledPrivate]) assert.ok(all.has(c.id), c.title);

      assert.equal((await anonymous.get(`/api/v1/courses/${unlisted.slug}`)).status, 200, 'unlisted by slug');
      assert.equal((await anonymous.get(`/api/v1/courses/${priv.id}`)).status, 404);
      assert.equal((await anonymous.get(`/api/v1/courses/${draft.id}`)).status, 404);
      assert.equal((await studentApi.get(`/api/v1/courses/${enrolledPrivate.id}`)).status, 200);
      assert.equal((await studentApi.get(`/api/v1/courses/${priv.id}`)).status, 404);
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
      const tag = `Paginate ${Date.now().toString(36)}`;
      const made: Course[] = [];
      for (let i = 0; i < 5; i++) made.push(await create({ title: `${tag} ${i}` }));
      const query = `/api/v1/courses?q=${encodeURIComponent(tag)}`;
      const first = await staff.get<{ data: Course[]; has_more: boolean; next_cursor: string }>(`${query}&limit=2`);
      assert.deepEqual(
        first.body.data.map((c) => c.title),
        [`${tag} 4`, `${tag} 3`],
      );
      assert.equal(first.body.has_more, true);
      assert.equal(first.body.next_cursor, made[3]?.id);
      await staff.delete(`/api/v1/courses/${first.body.next_cursor}`);
      const second = await staff.get<{ data: Course[]; has_more: boolean; next_cursor: string | null }>(
        `${query}&limit=2&starting_after=${first.body.next_cursor}`,
      );
      assert.deepEqual(
        second.body.data.map((c) => c.title),
        [`${tag} 2`, `${tag} 1`],
      );
      const third = await staff.get<{ data: Course[]; has_more: boolean; next_cursor: string | null }>(
        `${query}&limit=2&starting_after=${second.body.next_cursor}`,
      );
      assert.deepEqual(
        third.body.data.map((c) => c.title),
        [`${tag} 0`],
      );
      assert.equal(third.body.has_more, false);
      assert.equal(third.body.next_cursor, null);
      const ascending = await staff.get<{ data: Course[] }>(`${query}&sort=created_at&limit=1`);
      assert.equal(ascending.body.data[0]?.title, `${tag} 0`);
      const drafts = await listAll<Course>(staff, `${query}&status=draft`);
      assert.equal(drafts.length, 4);
      // created_after/before compare instants, whatever the offset they are written with.
      const firstCreated = new Date((made[0] as unknown as { created_at: string }).created_at);
      const inBerlinTime = new Date(firstCreated.getTime() - 1).toISOString().replace('Z', '+00:00');
      const since = await listAll<Course>(staff, `${query}&created_after=${encodeURIComponent(inBerlinTime)}`);
      assert.equal(since.length, 4);
      const plusTwo = new Date(firstCreated.getTime() + 2 * 3_600_000 - 1).toISOString().replace('Z', '+02:00');
      assert.equal((await listAll<Course>(staff, `${query}&created_after=${encodeURIComponent(plusTwo)}`)).length, 4);
      assert.equal((await staff.get(`${query}&limit=101`)).status, 400);
      assert.equal((await staff.get(`${query}&status=gone`)).status, 400);
      assert.equal((await staff.get(`${query}&starting_after=nope`)).status, 400);
      assert.equal((await staff.get(`${query}&unknown=1`)).status, 400);
    });

    test('q= finds text literally: % and _ are ordinary characters', async () => {
      const percent = await create({ title: '100% Watercolour' });
      const underscore = await create({ title: 'snake_case for painters' });
      const other = await create({ title: '1000 Watercolours' });
      const find = async (q: string) =>
        new Set((await listAll<Course>(staff, `/api/v1/courses?q=${encodeURIComponent(q)}`)).map((c) => c.id));
      const hundred = await find('100%');
      assert.ok(hundred.has(percent.id));
      assert.ok(!hundred.has(other.id), '"%" is not a wildcard');
      const snake = await find('e_c');
      assert.ok(snake.has(underscore.id));
      assert.ok(!(await find('_')).has(other.id), '"_" is not a wildcard');
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
  });
}

for (const engine of engines) {
  describe(`course state rules under concurrency (${engine})`, () => {
    test('a draft deleted and published at once is either deleted or published, never both', async () => {
      const server = await startTestServer(engine);
      try {
        const { staff } = await schoolWithPeople(server);
        const api = apiClient(server.url, await tokenFor(server, staff, 'courses:read courses:write'));
        for (let round = 0; round < 10; round++) {
          const course = (await api.post<Course>('/api/v1/courses', { title: `Race ${round}` })).body;
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
    test('parallel requests with one key create exactly one course', async () => {
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
        const created = new Set(results.filter((r) => r.status === 201).map((r) => r.body.id));
        assert.equal(created.size, 1, JSON.stringify(results.map((r) => r.status)));
        for (const r of results) assert.ok([201, 409].includes(r.status), String(r.status));
        const all = await listAll<Course>(api, '/api/v1/courses?q=Only%20Once');
        assert.equal(all.length, 1);
      } finally {
        await server.close();
      }
    });
  });
}
