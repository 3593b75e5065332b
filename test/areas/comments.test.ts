import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newId } from '../../src/db/ids.ts';
import type { CommentsTable } from '../../src/db/tables.ts';
import { apiClient, listAll, type Person, schoolWithPeople, tokenFor } from '../support/api.ts';
import { publishWithALesson } from '../support/course-content.ts';
import { engines } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { WebClient } from '../support/web-client.ts';

type Comment = {
  id: string;
  target_type: string;
  target_id: string;
  user_id: string;
  author_name: string;
  parent_id: string | null;
  body: string;
  status: string;
};
type List = { data: Comment[]; has_more: boolean; next_cursor: string | null };
type Client = ReturnType<typeof apiClient>;

for (const engine of engines) {
  describe(`comments API (${engine})`, () => {
    let server: TestServer;
    let staff: Client;
    let studentApi: Client;
    let anonymous: Client;
    let otherScope: Client;
    let student: Person;
    let staffPerson: Person;
    let seq = 0;

    before(async () => {
      server = await startTestServer(engine);
      const people = await schoolWithPeople(server);
      student = people.student;
      staffPerson = people.staff;
      staff = apiClient(
        server.url,
        await tokenFor(
          server,
          people.staff,
          'comments:read posts:read posts:write courses:read courses:write curriculum:write',
        ),
      );
      studentApi = apiClient(server.url, await tokenFor(server, student, 'comments:read'));
      otherScope = apiClient(server.url, await tokenFor(server, people.staff, 'posts:read'));
      anonymous = apiClient(server.url);
    });
    after(() => server.close());

    const post = async (body: Record<string, unknown>, publish = true) => {
      const created = await staff.post<{ id: string; slug: string }>('/api/v1/posts', body);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      if (publish) assert.equal((await staff.post(`/api/v1/posts/${created.body.id}/publish`)).status, 200);
      return created.body;
    };
    /** Comments are written only from the school's pages; rows in other states are put in the database directly. */
    const comment = async (
      target: { id: string },
      fields: Partial<CommentsTable> & { user_id?: string } = {},
    ): Promise<string> => {
      const at = new Date().toISOString();
      const id = newId('cmt', Date.now() + seq++);
      await server.database.db
        .insertInto('comments')
        .values({
          id,
          target_type: target.id.startsWith('les_') ? 'lesson' : 'post',
          target_id: target.id,
          user_id: student.id,
          parent_id: null,
          body: `comment ${id}`,
          status: 'visible',
          created_at: at,
          updated_at: at,
          ...fields,
        })
        .execute();
      return id;
    };
    const ids = async (client: Client, query = '') =>
      new Set((await listAll<Comment>(client, `/api/v1/comments${query}`)).map((c) => c.id));

    test('a comment written on the post page is listed and fetched with its author', async () => {
      const target = await post({ title: 'Written From The Page' });
      const web = new WebClient(server.url);
      await web.submit('/signin', '/signin', { email: student.email, password: student.password });
      const posted = await web.submit(`/posts/${target.slug}`, `/posts/${target.slug}/comments`, {
        body: 'Great post!',
      });
      assert.equal(posted.status, 303, posted.text.slice(0, 500));
      const id = /#comment-(cmt_[0-9a-z]{26})$/.exec(posted.location ?? '')?.[1];
      assert.ok(id, posted.location ?? '');
      const got = await anonymous.get<Comment>(`/api/v1/comments/${id}`);
      assert.equal(got.status, 200);
      assert.deepEqual(
        { ...got.body, created_at: undefined, updated_at: undefined },
        {
          id,
          target_type: 'post',
          target_id: target.id,
          user_id: student.id,
          author_name: student.name,
          parent_id: null,
          body: 'Great post!',
          status: 'visible',
          created_at: undefined,
          updated_at: undefined,
        },
      );
      const listed = await anonymous.get<List>(`/api/v1/comments?target_id=${target.id}`);
      assert.deepEqual(
        listed.body.data.map((c) => c.id),
        [id],
      );
    });

    test('anonymous and students see visible comments on posts they may read; staff see all', async () => {
      const pub = await post({ title: 'Comments Public' });
      const members = await post({ title: 'Comments Members', visibility: 'members' });
      const plans = await post({ title: 'Comments Plans', visibility: 'plans', plan_ids: ['pln_gold'] });
      const draft = await post({ title: 'Comments Draft' }, false);
      const onPublic = await comment(pub);
      const hidden = await comment(pub, { status: 'hidden' });
      const deleted = await comment(pub, { status: 'deleted' });
      const onMembers = await comment(members, { user_id: staffPerson.id });
      const onPlans = await comment(plans, { user_id: staffPerson.id });
      const onDraft = await comment(draft);

      const anon = await ids(anonymous);
      assert.ok(anon.has(onPublic));
      for (const id of [hidden, deleted, onMembers, onPlans, onDraft]) assert.ok(!anon.has(id), id);
      // Members and plans posts fail closed until memberships exist, and their comments with them.
      const stu = await ids(studentApi);
      assert.ok(stu.has(onPublic));
      for (const id of [hidden, deleted, onMembers, onPlans, onDraft]) assert.ok(!stu.has(id), id);
      const all = await ids(staff);
      for (const id of [onPublic, hidden, deleted, onMembers, onPlans, onDraft]) assert.ok(all.has(id), id);

      assert.equal((await anonymous.get(`/api/v1/comments/${onPublic}`)).status, 200);
      for (const id of [hidden, deleted, onMembers, onDraft])
        assert.equal((await anonymous.get(`/api/v1/comments/${id}`)).status, 404, id);
      for (const id of [onMembers, onPlans])
        assert.equal((await studentApi.get(`/api/v1/comments/${id}`)).status, 404, id);
      const onPlansList = await studentApi.get<List>(`/api/v1/comments?target_id=${plans.id}`);
      assert.deepEqual(onPlansList.body.data, []);
      assert.equal((await staff.get(`/api/v1/comments/${onPlans}`)).status, 200);
      assert.equal((await studentApi.get(`/api/v1/comments/${hidden}`)).status, 404);
      assert.equal((await staff.get<Comment>(`/api/v1/comments/${hidden}`)).body.status, 'hidden');
      assert.equal((await staff.get(`/api/v1/comments/${onDraft}`)).status, 200);
      assert.equal((await staff.get(`/api/v1/comments/cmt_${'0'.repeat(26)}`)).status, 404);

      // Unpublishing a post takes its comments out of the public view; hiding a comment does too.
      await staff.post(`/api/v1/posts/${pub.id}/unpublish`);
      assert.equal((await anonymous.get(`/api/v1/comments/${onPublic}`)).status, 404);
      assert.ok(!(await ids(anonymous)).has(onPublic));
    });

    test('lesson comments follow the lesson: previews for anyone, the rest for the enrolled and staff', async () => {
      const course = await staff.post<{ id: string }>('/api/v1/courses', { title: 'Commented Course' });
      await publishWithALesson(staff, course.body.id);
      const at = new Date().toISOString();
      const sectionId = newId('sec');
      await server.database.db
        .insertInto('sections')
        .values({
          id: sectionId,
          course_id: course.body.id,
          title: 'Week 1',
          position: 0,
          drip_type: 'none',
          drip_days: null,
          drip_date: null,
          status: 'published',
          created_at: at,
          updated_at: at,
        })
        .execute();
      const lesson = async (isPreview: 0 | 1, position: number) => {
        const id = newId('les');
        await server.database.db
          .insertInto('lessons')
          .values({
            id,
            course_id: course.body.id,
            section_id: sectionId,
            title: `Lesson ${position}`,
            type: 'text',
            body: 'text',
            asset_url: null,
            duration_s: null,
            is_preview: isPreview,
            position,
            status: 'published',
            created_at: at,
            updated_at: at,
          })
          .execute();
        return { id };
      };
      const preview = await lesson(1, 0);
      const locked = await lesson(0, 1);
      const onPreview = await comment(preview);
      const onLocked = await comment(locked, { user_id: staffPerson.id });
      const hiddenOnPreview = await comment(preview, { status: 'hidden' });

      const byLesson = async (client: Client, id: string) =>
        (await client.get<List>(`/api/v1/comments?target_type=lesson&target_id=${id}`)).body.data.map((c) => c.id);
      assert.deepEqual(await byLesson(anonymous, preview.id), [onPreview]);
      assert.deepEqual(await byLesson(anonymous, locked.id), []);
      assert.deepEqual(await byLesson(studentApi, locked.id), []);
      assert.equal((await anonymous.get(`/api/v1/comments/${onPreview}`)).status, 200);
      assert.equal((await anonymous.get(`/api/v1/comments/${onLocked}`)).status, 404);
      assert.equal((await anonymous.get(`/api/v1/comments/${hiddenOnPreview}`)).status, 404);
      assert.ok(!(await ids(anonymous)).has(onPreview), 'without target_id, lists hold post comments only');

      await server.database.db
        .insertInto('enrollments')
        .values({
          id: newId('enr'),
          course_id: course.body.id,
          user_id: student.id,
          source: 'manual',
          status: 'active',
          enrolled_at: at,
          expires_at: null,
          completed_at: null,
          progress_percent: 0,
        })
        .execute();
      assert.deepEqual(await byLesson(studentApi, locked.id), [onLocked]);
      assert.equal((await studentApi.get(`/api/v1/comments/${onLocked}`)).status, 200);
      assert.deepEqual(new Set(await byLesson(staff, preview.id)), new Set([onPreview, hiddenOnPreview]));
      assert.ok((await ids(staff)).has(onLocked));
    });

    test('filters: target_type, target_id, user_id, status', async () => {
      const a = await post({ title: 'Filter Target A' });
      const b = await post({ title: 'Filter Target B' });
      const aStudent = await comment(a);
      const aStaff = await comment(a, { user_id: staffPerson.id });
      const bHidden = await comment(b, { status: 'hidden', user_id: staffPerson.id });
      const bVisible = await comment(b);
      const sorted = async (client: Client, query: string) => [...(await ids(client, query))].sort();
      assert.deepEqual(await sorted(staff, `?target_id=${a.id}`), [aStudent, aStaff].sort());
      assert.deepEqual(await sorted(staff, `?target_id=${b.id}&status=hidden`), [bHidden]);
      assert.deepEqual(await sorted(staff, `?target_id=${b.id}&user_id=${staffPerson.id}`), [bHidden]);
      assert.deepEqual(await sorted(anonymous, `?target_id=${b.id}`), [bVisible]);
      assert.deepEqual(await sorted(anonymous, `?target_id=${b.id}&status=hidden`), [], 'filters never widen');
      assert.deepEqual(await sorted(staff, `?target_type=lesson&target_id=${a.id}`), []);
      const byStaff = await ids(staff, `?user_id=${staffPerson.id}&target_type=post`);
      assert.ok(byStaff.has(aStaff) && byStaff.has(bHidden) && !byStaff.has(aStudent));
    });

    test('cursor pagination across a page boundary and a deleted cursor item', async () => {
      const target = await post({ title: 'Paged Comments' });
      const made: string[] = [];
      for (let i = 0; i < 5; i++) made.push(await comment(target));
      const query = `/api/v1/comments?target_id=${target.id}`;
      const first = await anonymous.get<List>(`${query}&limit=2`);
      assert.deepEqual(
        first.body.data.map((c) => c.id),
        [made[4], made[3]],
      );
      assert.equal(first.body.has_more, true);
      assert.equal(first.body.next_cursor, made[3]);
      await server.database.db.deleteFrom('comments').where('id', '=', String(made[3])).execute();
      const second = await anonymous.get<List>(`${query}&limit=2&starting_after=${first.body.next_cursor}`);
      assert.deepEqual(
        second.body.data.map((c) => c.id),
        [made[2], made[1]],
      );
      const third = await anonymous.get<List>(`${query}&limit=2&starting_after=${second.body.next_cursor}`);
      assert.deepEqual(
        third.body.data.map((c) => c.id),
        [made[0]],
      );
      assert.equal(third.body.has_more, false);
      assert.equal(third.body.next_cursor, null);
      assert.equal((await anonymous.get<List>(`${query}&sort=created_at&limit=1`)).body.data[0]?.id, made[0]);
    });

    test('staff moderate: hide, restore, delete (text erased); the post page follows; wrong state 409; others refused', async () => {
      const moderator = apiClient(server.url, await tokenFor(server, staffPerson, 'comments:read school:write'));
      const p = await post({ title: `Moderated ${seq}` });
      const id = await comment(p, { body: 'Rude words here' });
      const hidden = await moderator.post<Comment>(`/api/v1/comments/${id}/hide`);
      assert.equal(hidden.status, 200);
      assert.equal(hidden.body.status, 'hidden');
      const publicPage = await fetch(`${server.url}/posts/${p.slug}`);
      assert.doesNotMatch(await publicPage.text(), /Rude words here/, 'a hidden comment is not on the page');
      assert.equal((await studentApi.get(`/api/v1/comments/${id}`)).status, 404);
      assert.equal((await moderator.post(`/api/v1/comments/${id}/hide`)).status, 409, 'already hidden');
      const restored = await moderator.post<Comment>(`/api/v1/comments/${id}/restore`);
      assert.equal(restored.body.status, 'visible');
      assert.match(await (await fetch(`${server.url}/posts/${p.slug}`)).text(), /Rude words here/);
      const deleted = await moderator.delete<Comment>(`/api/v1/comments/${id}`);
      assert.equal(deleted.status, 200);
      assert.equal(deleted.body.status, 'deleted');
      assert.equal(deleted.body.body, '', 'the text is erased');
      assert.equal(
        (await moderator.post(`/api/v1/comments/${id}/restore`)).status,
        409,
        'a deleted comment stays deleted',
      );
      assert.equal((await moderator.delete(`/api/v1/comments/${id}`)).status, 409);
      const studentMod = apiClient(server.url, await tokenFor(server, student, 'comments:read school:write'));
      assert.equal(
        (await studentMod.post(`/api/v1/comments/${id}/hide`)).status,
        403,
        'a student cannot hold school:write',
      );
      assert.equal((await staff.post(`/api/v1/comments/${id}/hide`)).status, 403, 'a token without school:write');
    });

    test('validation and scope: bad filters are 400; a token without comments:read is 403; no API writes comments', async () => {
      for (const query of [
        'target_type=course',
        'target_id=crs_00000000000000000000000000',
        'user_id=bob',
        'status=spam',
        'limit=101',
        'starting_after=nope',
        'unknown=1',
      ])
        assert.equal((await staff.get(`/api/v1/comments?${query}`)).status, 400, query);
      assert.equal((await staff.get('/api/v1/comments/not-an-id')).status, 400);
      const noScope = await otherScope.get('/api/v1/comments');
      assert.equal(noScope.status, 403);
      assert.equal(noScope.body.error, 'insufficient_scope');
      assert.match(
        noScope.headers.get('www-authenticate') ?? '',
        new RegExp(
          `^Bearer error="insufficient_scope", error_description="[^"]+", scope="comments:read", ` +
            `resource_metadata="${server.url}/.well-known/oauth-protected-resource"$`,
        ),
      );
      const anon = await anonymous.get('/api/v1/comments');
      assert.equal(anon.status, 200, 'anonymous is served, never challenged');
      assert.equal((await staff.post('/api/v1/comments', { body: 'x' })).status, 404, 'no API to write a comment');
    });
  });
}
