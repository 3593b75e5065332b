import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newId } from '../../src/db/ids.ts';
import {
  apiClient,
  createUser,
  insufficientScopeChallenge,
  listAll,
  type Person,
  schoolWithPeople,
  tokenFor,
} from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { paginatesLikeEveryList } from '../support/shared-examples.ts';

type Lecturer = {
  id: string;
  name: string;
  title: string;
  bio: string;
  avatar_url: string | null;
  email: string | null;
  user_id: string | null;
  status: string;
};

const challenge = insufficientScopeChallenge;

for (const engine of engines) {
  describe(`lecturers API (${engine})`, () => {
    let server: TestServer;
    let staff: ReturnType<typeof apiClient>;
    let staffReadOnly: ReturnType<typeof apiClient>;
    let coursesOnly: ReturnType<typeof apiClient>;
    let studentApi: ReturnType<typeof apiClient>;
    let anonymous: ReturnType<typeof apiClient>;
    let people: { staff: Person; student: Person };

    before(async () => {
      server = await startTestServer(engine);
      people = await schoolWithPeople(server);
      staff = apiClient(
        server.url,
        await tokenFor(server, people.staff, 'lecturers:read lecturers:write courses:read courses:write'),
      );
      staffReadOnly = apiClient(server.url, await tokenFor(server, people.staff, 'lecturers:read'));
      coursesOnly = apiClient(server.url, await tokenFor(server, people.staff, 'courses:read'));
      studentApi = apiClient(server.url, await tokenFor(server, people.student, 'lecturers:read lecturers:write'));
      anonymous = apiClient(server.url);
    });
    after(() => server.close());

    const create = async (body: Record<string, unknown>) => {
      const response = await staff.post<Lecturer>('/api/v1/lecturers', body);
      assert.equal(response.status, 201, JSON.stringify(response.body));
      return response.body;
    };

    test('create makes an active lecturer; get returns it', async () => {
      const lecturer = await create({
        name: '  Grace Hopper ',
        title: 'Rear admiral',
        bio: 'Wrote the first compiler.',
        avatar_url: 'https://images.example/grace.png',
        email: 'Grace@Example.org',
      });
      assert.match(lecturer.id, /^lec_[0-9a-z]{26}$/);
      assert.equal(lecturer.name, 'Grace Hopper');
      assert.equal(lecturer.status, 'active');
      assert.equal(lecturer.email, 'grace@example.org');
      assert.equal(lecturer.user_id, null);
      const got = await staff.get<Lecturer>(`/api/v1/lecturers/${lecturer.id}`);
      assert.equal(got.status, 200);
      assert.deepEqual(got.body, lecturer);
      const minimal = await create({ name: 'Min' });
      assert.deepEqual([minimal.title, minimal.bio, minimal.avatar_url, minimal.email], ['', '', null, null]);
    });

    test('update changes only the given fields; null clears avatar and email', async () => {
      const lecturer = await create({ name: 'Alan', title: 'Mathematician', email: 'alan@example.org' });
      const updated = await staff.patch<Lecturer>(`/api/v1/lecturers/${lecturer.id}`, { bio: 'Broke codes.' });
      assert.equal(updated.status, 200);
      assert.equal(updated.body.bio, 'Broke codes.');
      assert.equal(updated.body.title, 'Mathematician');
      assert.equal(updated.body.email, 'alan@example.org');
      const cleared = await staff.patch<Lecturer>(`/api/v1/lecturers/${lecturer.id}`, {
        email: null,
        avatar_url: null,
      });
      assert.equal(cleared.body.email, null);
      assert.equal((await staff.get<Lecturer>(`/api/v1/lecturers/${lecturer.id}`)).body.email, null);
      assert.equal((await staff.patch(`/api/v1/lecturers/${newId('lec')}`, { name: 'x' })).status, 404);
    });

    test('two lecturers created at once for one user: exactly one gets the link', async () => {
      const person = await createUser(server, 'staff', 'Racing Linker');
      const results = await Promise.all(
        Array.from({ length: 4 }, (_, i) => staff.post('/api/v1/lecturers', { name: `Link ${i}`, user_id: person.id })),
      );
      assert.deepEqual(results.map((r) => r.status).sort(), [201, 409, 409, 409]);
      for (const refused of results.filter((r) => r.status === 409)) {
        assert.match(String(refused.body.error_description), /already linked to lecturer/);
      }
    });

    test('user_id must name an existing user, and a user is linked to one lecturer at most', async () => {
      const unknown = await staff.post('/api/v1/lecturers', { name: 'Ghost', user_id: newId('usr') });
      assert.equal(unknown.status, 400);
      assert.equal((unknown.body.errors as { field: string }[])[0]?.field, 'user_id');
      assert.match(String(unknown.body.error_description), /Unknown user.*existing user/);

      const linked = await create({ name: 'Stella as lecturer', user_id: people.staff.id });
      assert.equal(linked.user_id, people.staff.id);
      const twice = await staff.post('/api/v1/lecturers', { name: 'Second Stella', user_id: people.staff.id });
      assert.equal(twice.status, 409);
      assert.match(String(twice.body.error_description), new RegExp(`already linked to lecturer ${linked.id}`));
      const other = await create({ name: 'Other' });
      assert.equal((await staff.patch(`/api/v1/lecturers/${other.id}`, { user_id: people.staff.id })).status, 409);
      // Re-saving the same link on the same lecturer is not a conflict.
      assert.equal((await staff.patch(`/api/v1/lecturers/${linked.id}`, { user_id: people.staff.id })).status, 200);
      assert.equal((await staff.patch(`/api/v1/lecturers/${linked.id}`, { user_id: null })).status, 200);
      const moved = await staff.patch<Lecturer>(`/api/v1/lecturers/${other.id}`, { user_id: people.staff.id });
      assert.equal(moved.status, 200);
      assert.equal(moved.body.user_id, people.staff.id);
      const badUser = await staff.patch(`/api/v1/lecturers/${other.id}`, { user_id: newId('usr') });
      assert.equal(badUser.status, 400);
    });

    test('archive hides a lecturer from anonymous callers and students; restore brings them back', async () => {
      const lecturer = await create({ name: 'Archie Ved' });
      const archived = await staff.post<Lecturer>(`/api/v1/lecturers/${lecturer.id}/archive`);
      assert.equal(archived.status, 200);
      assert.equal(archived.body.status, 'archived');
      const again = await staff.post<Lecturer>(`/api/v1/lecturers/${lecturer.id}/archive`);
      assert.equal(again.status, 200, 'archiving an archived lecturer changes nothing');
      assert.equal(again.body.status, 'archived');

      assert.equal((await anonymous.get(`/api/v1/lecturers/${lecturer.id}`)).status, 404);
      assert.equal((await studentApi.get(`/api/v1/lecturers/${lecturer.id}`)).status, 404);
      assert.equal((await staff.get(`/api/v1/lecturers/${lecturer.id}`)).status, 200);
      const anonIds = (await listAll<Lecturer>(anonymous, '/api/v1/lecturers')).map((l) => l.id);
      assert.ok(!anonIds.includes(lecturer.id));
      const asking = await listAll<Lecturer>(studentApi, '/api/v1/lecturers?status=archived');
      assert.deepEqual(asking, [], 'asking for archived lecturers does not reveal them');
      const staffArchived = (await listAll<Lecturer>(staff, '/api/v1/lecturers?status=archived')).map((l) => l.id);
      assert.ok(staffArchived.includes(lecturer.id));

      const restored = await staff.post<Lecturer>(`/api/v1/lecturers/${lecturer.id}/restore`);
      assert.equal(restored.body.status, 'active');
      assert.equal((await anonymous.get(`/api/v1/lecturers/${lecturer.id}`)).status, 200);
      assert.equal((await staff.post(`/api/v1/lecturers/${newId('lec')}/archive`)).status, 404);
    });

    test('a lecturer listed on a course cannot be deleted: remove from the course or archive', async () => {
      const lecturer = await create({ name: 'Busy Teacher' });
      const bystander = await create({ name: 'Bystander' });
      const course = await staff.post<{ id: string }>('/api/v1/courses', {
        title: 'Taught course',
        lecturer_ids: [bystander.id, lecturer.id],
      });
      assert.equal(course.status, 201);
      const refused = await staff.delete(`/api/v1/lecturers/${lecturer.id}`);
      assert.equal(refused.status, 409);
      assert.equal(refused.body.error, 'conflict');
      assert.match(String(refused.body.error_description), new RegExp(course.body.id));
      assert.match(String(refused.body.error_description), /remove them from the course.*or archive the lecturer/);
      assert.equal((await staff.get(`/api/v1/lecturers/${lecturer.id}`)).status, 200);

      const removed = await staff.patch(`/api/v1/courses/${course.body.id}`, { lecturer_ids: [bystander.id] });
      assert.equal(removed.status, 200);
      assert.equal((await staff.delete(`/api/v1/lecturers/${lecturer.id}`)).status, 204);
      assert.equal((await staff.get(`/api/v1/lecturers/${lecturer.id}`)).status, 404);
      assert.equal((await staff.delete(`/api/v1/lecturers/${lecturer.id}`)).status, 404);
      assert.equal((await staff.delete(`/api/v1/lecturers/${bystander.id}`)).status, 409, 'still on the course');
    });

    test('the three principals: email and user link are for staff only', async () => {
      const lecturer = await create({ name: 'Private Details', email: 'pd@example.org', user_id: people.student.id });
      for (const client of [anonymous, studentApi]) {
        const got = await client.get<Lecturer>(`/api/v1/lecturers/${lecturer.id}`);
        assert.equal(got.status, 200);
        assert.equal(got.body.name, 'Private Details');
        assert.equal(got.body.email, null);
        assert.equal(got.body.user_id, null);
        const listed = (await listAll<Lecturer>(client, '/api/v1/lecturers')).find((l) => l.id === lecturer.id);
        assert.equal(listed?.email, null);
      }
      const listed = (await listAll<Lecturer>(staff, '/api/v1/lecturers')).find((l) => l.id === lecturer.id);
      assert.equal(listed?.email, 'pd@example.org');
      assert.equal(listed?.user_id, people.student.id);
    });

    test('validation: unknown field, wrong type, too long, bad URL, bad email, blank name, empty update', async () => {
      const unknown = await staff.post('/api/v1/lecturers', { name: 'x', twitter: '@x' });
      assert.equal(unknown.status, 400);
      assert.equal(unknown.body.error, 'invalid_request');
      assert.equal((unknown.body.errors as { code: string }[])[0]?.code, 'unknown_field');
      const wrongType = await staff.post('/api/v1/lecturers', { name: 42 });
      assert.equal(wrongType.status, 400);
      assert.equal((wrongType.body.errors as { field: string }[])[0]?.field, 'name');
      const tooLong = await staff.post('/api/v1/lecturers', { name: 'x'.repeat(121) });
      assert.equal(tooLong.status, 400);
      assert.equal((tooLong.body.errors as { field: string }[])[0]?.field, 'name');
      const bioTooLong = await staff.post('/api/v1/lecturers', { name: 'x', bio: 'b'.repeat(10_001) });
      assert.equal(bioTooLong.status, 400);
      for (const avatar_url of ['ftp://example.org/a.png', 'javascript:alert(1)', 'not a url']) {
        const bad = await staff.post('/api/v1/lecturers', { name: 'x', avatar_url });
        assert.equal(bad.status, 400, avatar_url);
      }
      assert.equal((await staff.post('/api/v1/lecturers', { name: 'x', email: 'nope' })).status, 400);
      const blank = await staff.post('/api/v1/lecturers', { name: '   ' });
      assert.equal(blank.status, 400);
      assert.match(String(blank.body.error_description), /give the lecturer a name/);
      const lecturer = await create({ name: 'Valid' });
      assert.equal((await staff.patch(`/api/v1/lecturers/${lecturer.id}`, {})).status, 400);
      assert.equal((await staff.patch(`/api/v1/lecturers/${lecturer.id}`, { name: ' ' })).status, 400);
      assert.equal((await staff.patch(`/api/v1/lecturers/${lecturer.id}`, { status: 'archived' })).status, 400);
      assert.equal((await staff.patch('/api/v1/lecturers/not-an-id', { name: 'y' })).status, 400);
      assert.equal((await staff.get('/api/v1/lecturers/crs_00000000000000000000000000')).status, 400);
    });

    test('lecturers:write / lecturers:read missing: 403 insufficient_scope with WWW-Authenticate', async () => {
      const anon = await anonymous.post('/api/v1/lecturers', { name: 'Nope' });
      assert.equal(anon.status, 403);
      assert.equal(anon.body.error, 'insufficient_scope');
      assert.match(anon.headers.get('www-authenticate') ?? '', challenge('lecturers:write'));
      const stu = await studentApi.post('/api/v1/lecturers', { name: 'Nope' });
      assert.equal(stu.status, 403, 'a student token never holds lecturers:write');
      assert.match(stu.headers.get('www-authenticate') ?? '', challenge('lecturers:write'));
      const lecturer = await create({ name: 'Guarded' });
      for (const response of [
        await staffReadOnly.post('/api/v1/lecturers', { name: 'Nope' }),
        await staffReadOnly.patch(`/api/v1/lecturers/${lecturer.id}`, { name: 'Nope' }),
        await staffReadOnly.delete(`/api/v1/lecturers/${lecturer.id}`),
        await staffReadOnly.post(`/api/v1/lecturers/${lecturer.id}/archive`),
        await anonymous.post(`/api/v1/lecturers/${lecturer.id}/restore`),
      ]) {
        assert.equal(response.status, 403);
        assert.match(response.headers.get('www-authenticate') ?? '', challenge('lecturers:write'));
      }
      assert.equal((await staff.get<Lecturer>(`/api/v1/lecturers/${lecturer.id}`)).body.name, 'Guarded');
      const noRead = await coursesOnly.get('/api/v1/lecturers');
      assert.equal(noRead.status, 403);
      assert.match(noRead.headers.get('www-authenticate') ?? '', challenge('lecturers:read'));
      assert.equal((await staffReadOnly.get('/api/v1/lecturers')).status, 200);
    });

    test('list filters and cursor pagination, across a page boundary and a deleted cursor item', async () => {
      const tag = `Pager ${Date.now().toString(36)}`;
      // q= ignores case.
      const query = `/api/v1/lecturers?q=${encodeURIComponent(tag.toUpperCase())}`;
      await paginatesLikeEveryList({
        staff,
        query,
        make: (i) => create({ name: `${tag} ${i}` }),
        remove: async (id) => assert.equal((await staff.delete(`/api/v1/lecturers/${id}`)).status, 204),
      });
      const made = (await listAll<Lecturer>(staff, query)).reverse();
      await staff.post(`/api/v1/lecturers/${made[1]?.id}/archive`);
      const active = await listAll<Lecturer>(staff, `${query}&status=active`);
      assert.deepEqual(
        active.map((l) => l.name),
        [`${tag} 4`, `${tag} 2`, `${tag} 0`],
      );
      const archived = await listAll<Lecturer>(staff, `${query}&status=archived`);
      assert.deepEqual(
        archived.map((l) => l.id),
        [made[1]?.id],
      );
      assert.equal((await listAll<Lecturer>(anonymous, query)).length, 3);
      assert.equal((await staff.get(`${query}&status=retired`)).status, 400);
    });

    test('Idempotency-Key replays the first create; another body with the same key is 409', async () => {
      const key = `lecturer-${Date.now()}`;
      const first = await staff.post<Lecturer>('/api/v1/lecturers', { name: 'Once' }, { 'idempotency-key': key });
      const again = await staff.post<Lecturer>('/api/v1/lecturers', { name: 'Once' }, { 'idempotency-key': key });
      assert.equal(first.status, 201);
      assert.equal(again.status, 201);
      assert.equal(again.body.id, first.body.id);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      const different = await staff.post('/api/v1/lecturers', { name: 'Twice' }, { 'idempotency-key': key });
      assert.equal(different.status, 409);
    });
  });
}
