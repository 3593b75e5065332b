import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newId } from '../../src/db/ids.ts';
import type { Principal } from '../../src/http/principal.ts';
import { apiClient, createUser, type Person, schoolWithPeople, tokenFor } from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

type Section = {
  id: string;
  course_id: string;
  title: string;
  position: number;
  drip: { type: string; days: number | null; date: string | null };
  status: string;
  available_at: string | null;
};
type Lesson = {
  id: string;
  course_id: string;
  section_id: string;
  title: string;
  type: string;
  body: string | null;
  asset_url: string | null;
  is_preview: boolean;
  position: number;
  status: string;
  locked: boolean;
  available_at: string | null;
};
type ListPage<T> = { data: T[]; has_more: boolean; next_cursor: string | null };
type Client = ReturnType<typeof apiClient>;

const DAY_MS = 86_400_000;

for (const engine of engines) {
  describe(`curriculum API (${engine})`, () => {
    let server: TestServer;
    let staff: Client;
    let studentApi: Client;
    let enrolledApi: Client;
    let anonymous: Client;
    let enrolled: Person;
    let student: Person;

    before(async () => {
      server = await startTestServer(engine);
      const people = await schoolWithPeople(server);
      student = people.student;
      enrolled = await createUser(server, 'student', 'Enrolled Student');
      const all = 'courses:read courses:write curriculum:read curriculum:write';
      staff = apiClient(server.url, await tokenFor(server, people.staff, all));
      studentApi = apiClient(server.url, await tokenFor(server, student, all));
      enrolledApi = apiClient(server.url, await tokenFor(server, enrolled, all));
      anonymous = apiClient(server.url);
    });
    after(() => server.close());

    const ok = <T>(response: { status: number; body: unknown }, status = 200) => {
      assert.equal(response.status, status, JSON.stringify(response.body));
      return response.body as T;
    };
    const course = async (body: Record<string, unknown> = {}, publish = true) => {
      const made = ok<{ id: string; slug: string }>(
        await staff.post('/api/v1/courses', { title: `Course ${Math.random().toString(36).slice(2)}`, ...body }),
        201,
      );
      // Published as the row, before its curriculum exists: the tests here are of sections and lessons added to a
      // course students can see, while publishing's own rule (a published lesson first) is courses.test.ts's.
      if (publish) {
        await server.database.db
          .updateTable('courses')
          .set({ status: 'published', published_at: new Date().toISOString() })
          .where('id', '=', made.id)
          .execute();
      }
      return made;
    };
    const section = async (courseId: string, body: Record<string, unknown> = {}, publish = false) => {
      const made = ok<Section>(
        await staff.post(`/api/v1/courses/${courseId}/sections`, { title: 'A section', ...body }),
        201,
      );
      return publish ? ok<Section>(await staff.post(`/api/v1/sections/${made.id}/publish`)) : made;
    };
    const lesson = async (sectionId: string, body: Record<string, unknown> = {}, publish = false) => {
      const made = ok<Lesson>(
        await staff.post(`/api/v1/sections/${sectionId}/lessons`, { title: 'A lesson', body: 'Content', ...body }),
        201,
      );
      return publish ? ok<Lesson>(await staff.post(`/api/v1/lessons/${made.id}/publish`)) : made;
    };
    const sections = async (client: Client, courseKey: string, query = '') =>
      ok<ListPage<Section>>(await client.get(`/api/v1/courses/${courseKey}/sections${query}`));
    const lessons = async (client: Client, sectionId: string, query = '') =>
      ok<ListPage<Lesson>>(await client.get(`/api/v1/sections/${sectionId}/lessons${query}`));
    const titles = (items: { title: string; position: number }[]) => items.map((i) => `${i.position}:${i.title}`);
    const enroll = async (courseId: string, person: Person, enrolledAt = new Date(), status = 'active') => {
      await server.database.db
        .insertInto('enrollments')
        .values({
          id: newId('enr'),
          course_id: courseId,
          user_id: person.id,
          source: 'manual',
          status: status as 'active',
          enrolled_at: enrolledAt.toISOString(),
          expires_at: null,
          completed_at: null,
          progress_percent: 0,
        })
        .execute();
    };

    test('quiz lessons: questions checked and stored, answers shown to staff only, needed to publish', async () => {
      const c = await course();
      const s = await section(c.id, {}, true);
      const quiz = {
        pass_percent: 50,
        questions: [
          { prompt: 'Two plus two?', choices: ['3', '4'], answers: [1], explanation: 'Count them.' },
          { prompt: 'Primary colours?', choices: ['Red', 'Green', 'Blue'], answers: [0, 2] },
        ],
      };
      const bare = await lesson(s.id, { type: 'quiz', body: 'Intro' });
      const refused = await staff.post<{ error: string }>(`/api/v1/lessons/${bare.id}/publish`);
      assert.equal(refused.status, 409);
      assert.match(JSON.stringify(refused.body), /needs its questions/);

      const made = await lesson(s.id, { type: 'quiz', body: 'Intro', quiz }, true);
      const asStaff = ok<Lesson & { quiz: Record<string, unknown> }>(await staff.get(`/api/v1/lessons/${made.id}`));
      assert.deepEqual(asStaff.quiz, {
        pass_percent: 50,
        max_attempts: null,
        questions: [
          { prompt: 'Two plus two?', choices: ['3', '4'], multiple: false, answers: [1], explanation: 'Count them.' },
          { prompt: 'Primary colours?', choices: ['Red', 'Green', 'Blue'], multiple: true, answers: [0, 2] },
        ],
      });
      assert.equal(ok<Lesson & { quiz: unknown }>(await enrolledApi.get(`/api/v1/lessons/${made.id}`)).quiz, null);
      await enroll(c.id, enrolled);
      const asStudent = ok<Lesson & { quiz: { questions: Record<string, unknown>[] } }>(
        await enrolledApi.get(`/api/v1/lessons/${made.id}`),
      );
      assert.deepEqual(asStudent.quiz.questions[1], {
        prompt: 'Primary colours?',
        choices: ['Red', 'Green', 'Blue'],
        multiple: true,
      });

      const outOfRange = await staff.patch<{ errors: { field: string }[] }>(`/api/v1/lessons/${made.id}`, {
        quiz: { ...quiz, questions: [{ prompt: 'Q', choices: ['a', 'b'], answers: [2] }] },
      });
      assert.equal(outOfRange.status, 400);
      assert.equal(outOfRange.body.errors[0]?.field, 'quiz.questions.0.answers');
      const onText = await staff.post<{ errors: { field: string }[] }>(`/api/v1/sections/${s.id}/lessons`, {
        title: 'Text with a quiz',
        quiz,
      });
      assert.equal(onText.status, 400);
      assert.equal(onText.body.errors[0]?.field, 'quiz');
      const published = await staff.patch(`/api/v1/lessons/${made.id}`, { quiz: null });
      assert.equal(published.status, 409, 'a published quiz keeps its questions');
      const draft = await lesson(s.id, { type: 'quiz', quiz });
      const retyped = ok<Lesson & { quiz: unknown }>(
        await staff.patch(`/api/v1/lessons/${draft.id}`, { type: 'text' }),
      );
      assert.equal(retyped.quiz, null, 'another type drops the questions');
    });

    test('sections: create at the end or at a position, get, list in order (by course id or slug)', async () => {
      const c = await course();
      const a = await section(c.id, { title: 'Alpha' });
      assert.match(a.id, /^sec_[0-9a-z]{26}$/);
      assert.equal(a.course_id, c.id);
      assert.equal(a.status, 'draft');
      assert.deepEqual(a.drip, { type: 'none', days: null, date: null });
      await section(c.id, { title: 'Gamma' });
      const b = await section(c.id, { title: 'Beta', position: 1 });
      assert.equal(b.position, 1);
      await section(c.id, { title: 'Zero', position: 0 });
      const listed = await sections(staff, c.id);
      assert.deepEqual(titles(listed.data), ['0:Zero', '1:Alpha', '2:Beta', '3:Gamma']);
      assert.equal(listed.has_more, false);
      assert.equal(listed.next_cursor, null);
      assert.deepEqual(titles((await sections(staff, c.slug)).data), titles(listed.data));
      const got = ok<Section>(await staff.get(`/api/v1/sections/${b.id}`));
      assert.equal(got.title, 'Beta');
      assert.equal(got.position, 2);

      const past = ok(await staff.post(`/api/v1/courses/${c.id}/sections`, { title: 'Too far', position: 5 }), 400);
      assert.match(String((past as { error_description: string }).error_description), /between 0 and 4/);
      assert.equal((await staff.post(`/api/v1/courses/${newId('crs')}/sections`, { title: 'x' })).status, 404);
      assert.equal((await staff.get(`/api/v1/courses/${newId('crs')}/sections`)).status, 404);
      assert.equal((await staff.get(`/api/v1/sections/${newId('sec')}`)).status, 404);
    });

    test('sections: update title and drip; drip fields must match the drip type', async () => {
      const c = await course();
      const s = await section(c.id);
      const renamed = ok<Section>(await staff.patch(`/api/v1/sections/${s.id}`, { title: '  Week 1  ' }));
      assert.equal(renamed.title, 'Week 1');
      const days = ok<Section>(
        await staff.patch(`/api/v1/sections/${s.id}`, { drip: { type: 'days_after_enrollment', days: 7 } }),
      );
      assert.deepEqual(days.drip, { type: 'days_after_enrollment', days: 7, date: null });
      assert.equal(days.title, 'Week 1');
      const dated = ok<Section>(
        await staff.patch(`/api/v1/sections/${s.id}`, { drip: { type: 'on_date', date: '2031-02-03T10:00:00+01:00' } }),
      );
      assert.deepEqual(dated.drip, { type: 'on_date', days: null, date: '2031-02-03T09:00:00.000Z' });
      assert.deepEqual(ok<Section>(await staff.get(`/api/v1/sections/${s.id}`)).drip, dated.drip);

      for (const [drip, field] of [
        [{ type: 'days_after_enrollment' }, 'drip.days'],
        [{ type: 'on_date' }, 'drip.date'],
        [{ type: 'none', days: 3 }, 'drip.days'],
        [{ type: 'days_after_enrollment', days: 3, date: '2030-01-01T00:00:00Z' }, 'drip.date'],
      ] as const) {
        const refused = await staff.patch(`/api/v1/sections/${s.id}`, { drip });
        assert.equal(refused.status, 400, JSON.stringify(drip));
        assert.equal((refused.body.errors as { field: string }[])[0]?.field, field);
      }
      assert.equal((await staff.patch(`/api/v1/sections/${s.id}`, { drip: { type: 'weekly' } })).status, 400);
      assert.equal(
        (await staff.patch(`/api/v1/sections/${s.id}`, { drip: { type: 'on_date', date: 'soon' } })).status,
        400,
      );
      assert.equal((await staff.patch(`/api/v1/sections/${s.id}`, { title: '   ' })).status, 400);
      assert.equal((await staff.patch(`/api/v1/sections/${newId('sec')}`, { title: 'x' })).status, 404);
    });

    test('sections: delete only when empty, closing the gap in positions', async () => {
      const c = await course();
      const [a, b, d] = [
        await section(c.id, { title: 'A' }),
        await section(c.id, { title: 'B' }),
        await section(c.id, { title: 'D' }),
      ];
      await lesson(b.id);
      const refused = await staff.delete(`/api/v1/sections/${b.id}`);
      assert.equal(refused.status, 409);
      assert.match(String(refused.body.error_description), /still has 1 lesson.*move them.*or delete them/);
      assert.equal((await staff.delete(`/api/v1/sections/${a.id}`)).status, 204);
      assert.deepEqual(titles((await sections(staff, c.id)).data), ['0:B', '1:D']);
      assert.equal((await staff.get(`/api/v1/sections/${a.id}`)).status, 404);
      assert.equal((await staff.delete(`/api/v1/sections/${a.id}`)).status, 404);
      assert.equal(d.position, 2);
    });

    test('reorder sections: every section exactly once, else 400', async () => {
      const c = await course();
      const [a, b, d] = [
        await section(c.id, { title: 'A' }),
        await section(c.id, { title: 'B' }),
        await section(c.id, { title: 'D' }),
      ];
      const other = await section((await course()).id);
      const path = `/api/v1/courses/${c.id}/sections/reorder`;
      const reordered = ok<ListPage<Section>>(await staff.post(path, { section_ids: [d.id, a.id, b.id] }));
      assert.deepEqual(titles(reordered.data), ['0:D', '1:A', '2:B']);
      assert.deepEqual(titles((await sections(staff, c.id)).data), ['0:D', '1:A', '2:B']);

      const missing = await staff.post(path, { section_ids: [d.id, a.id] });
      assert.equal(missing.status, 400);
      assert.match(String(missing.body.error_description), new RegExp(`every one of the 3 .*missing ${b.id}`));
      const foreign = await staff.post(path, { section_ids: [d.id, a.id, b.id, other.id] });
      assert.equal(foreign.status, 400);
      assert.match(String(foreign.body.error_description), new RegExp(`not in this course ${other.id}`));
      assert.equal((await staff.post(path, { section_ids: [d.id, a.id, a.id] })).status, 400);
      assert.equal((await staff.post(path, { section_ids: 'all' })).status, 400);
      assert.equal(
        (await staff.post(`/api/v1/courses/${newId('crs')}/sections/reorder`, { section_ids: [] })).status,
        404,
      );
      assert.deepEqual(titles((await sections(staff, c.id)).data), ['0:D', '1:A', '2:B'], 'refusals change nothing');
    });

    test('lessons: create, get, update, list in order; publish needs content; delete only drafts', async () => {
      const c = await course();
      const s = await section(c.id);
      const first = await lesson(s.id, { title: 'First', body: '' });
      assert.match(first.id, /^les_[0-9a-z]{26}$/);
      assert.deepEqual(
        [first.type, first.status, first.position, first.locked, first.is_preview],
        ['text', 'draft', 0, false, false],
      );
      const video = await lesson(s.id, { title: 'Video', type: 'video', duration_s: 300 });
      await lesson(s.id, { title: 'Zeroth', position: 0 });
      assert.deepEqual(titles((await lessons(staff, s.id)).data), ['0:Zeroth', '1:First', '2:Video']);
      assert.deepEqual(titles((await lessons(staff, s.id, '?type=video')).data), ['2:Video']);
      assert.equal(ok<Lesson>(await staff.get(`/api/v1/lessons/${video.id}`)).section_id, s.id);

      const noBody = await staff.post(`/api/v1/lessons/${first.id}/publish`);
      assert.equal(noBody.status, 409);
      assert.match(String(noBody.body.error_description), /text lesson needs a body/);
      const noAsset = await staff.post(`/api/v1/lessons/${video.id}/publish`);
      assert.equal(noAsset.status, 409);
      assert.match(String(noAsset.body.error_description), /video lesson needs an asset_url/);
      const updated = ok<Lesson>(
        await staff.patch(`/api/v1/lessons/${video.id}`, { asset_url: 'https://cdn.example/v.mp4', is_preview: true }),
      );
      assert.deepEqual(
        [updated.asset_url, updated.is_preview, updated.title],
        ['https://cdn.example/v.mp4', true, 'Video'],
      );
      assert.equal(ok<Lesson>(await staff.post(`/api/v1/lessons/${video.id}/publish`)).status, 'published');
      assert.deepEqual(titles((await lessons(staff, s.id, '?status=published')).data), ['2:Video']);

      const cleared = await staff.patch(`/api/v1/lessons/${video.id}`, { asset_url: null });
      assert.equal(cleared.status, 409);
      assert.match(String(cleared.body.error_description), /published.*unpublish it first/);
      const published = await staff.delete(`/api/v1/lessons/${video.id}`);
      assert.equal(published.status, 409);
      assert.match(String(published.body.error_description), /unpublish it first/);
      assert.equal(ok<Lesson>(await staff.post(`/api/v1/lessons/${video.id}/unpublish`)).status, 'draft');
      assert.equal(ok<Lesson>(await staff.patch(`/api/v1/lessons/${video.id}`, { asset_url: null })).asset_url, null);

      assert.equal((await staff.delete(`/api/v1/lessons/${first.id}`)).status, 204);
      assert.deepEqual(titles((await lessons(staff, s.id)).data), ['0:Zeroth', '1:Video']);
      assert.equal((await staff.get(`/api/v1/lessons/${first.id}`)).status, 404);
      assert.equal((await staff.delete(`/api/v1/lessons/${first.id}`)).status, 404);
      assert.equal((await staff.post(`/api/v1/sections/${newId('sec')}/lessons`, { title: 'x' })).status, 404);
      assert.equal((await staff.post(`/api/v1/sections/${s.id}/lessons`, { title: 'x', position: 3 })).status, 400);
    });

    test('publish and unpublish sections; publishing twice is harmless', async () => {
      const c = await course();
      const s = await section(c.id);
      assert.equal(ok<Section>(await staff.post(`/api/v1/sections/${s.id}/publish`)).status, 'published');
      assert.equal(ok<Section>(await staff.post(`/api/v1/sections/${s.id}/publish`)).status, 'published');
      assert.equal(ok<Section>(await staff.post(`/api/v1/sections/${s.id}/unpublish`)).status, 'draft');
      assert.equal(ok<Section>(await staff.get(`/api/v1/sections/${s.id}`)).status, 'draft');
      assert.equal((await staff.post(`/api/v1/sections/${newId('sec')}/publish`)).status, 404);
      const l = await lesson(s.id, { type: 'embed', body: '', asset_url: 'https://video.example/embed/1' });
      assert.equal(ok<Lesson>(await staff.post(`/api/v1/lessons/${l.id}/publish`)).status, 'published');
      assert.equal(ok<Lesson>(await staff.post(`/api/v1/lessons/${l.id}/publish`)).status, 'published');
      assert.equal((await staff.post(`/api/v1/lessons/${newId('les')}/publish`)).status, 404);
    });

    test('move a lesson within its section and to another section of the course; positions stay dense', async () => {
      const c = await course();
      const s1 = await section(c.id, { title: 'S1' });
      const s2 = await section(c.id, { title: 'S2' });
      const [a, b, d] = [
        await lesson(s1.id, { title: 'A' }),
        await lesson(s1.id, { title: 'B' }),
        await lesson(s1.id, { title: 'D' }),
      ];
      await lesson(s2.id, { title: 'X' });
      const moved = ok<Lesson>(await staff.post(`/api/v1/lessons/${a.id}/move`, { section_id: s1.id, position: 2 }));
      assert.equal(moved.position, 2);
      assert.deepEqual(titles((await lessons(staff, s1.id)).data), ['0:B', '1:D', '2:A']);
      const across = ok<Lesson>(await staff.post(`/api/v1/lessons/${d.id}/move`, { section_id: s2.id, position: 0 }));
      assert.deepEqual([across.section_id, across.position], [s2.id, 0]);
      assert.deepEqual(titles((await lessons(staff, s1.id)).data), ['0:B', '1:A']);
      assert.deepEqual(titles((await lessons(staff, s2.id)).data), ['0:D', '1:X']);
      const toEnd = ok<Lesson>(await staff.post(`/api/v1/lessons/${b.id}/move`, { section_id: s2.id }));
      assert.equal(toEnd.position, 2);
      assert.deepEqual(titles((await lessons(staff, s1.id)).data), ['0:A']);
      assert.deepEqual(titles((await lessons(staff, s2.id)).data), ['0:D', '1:X', '2:B']);

      const tooFar = await staff.post(`/api/v1/lessons/${a.id}/move`, { section_id: s2.id, position: 4 });
      assert.equal(tooFar.status, 400);
      assert.match(String(tooFar.body.error_description), /between 0 and 3/);
      const sameTooFar = await staff.post(`/api/v1/lessons/${b.id}/move`, { section_id: s2.id, position: 3 });
      assert.equal(sameTooFar.status, 400, 'within its own section a lesson has one place fewer');
      const unknown = await staff.post(`/api/v1/lessons/${a.id}/move`, { section_id: newId('sec') });
      assert.equal(unknown.status, 400);
      assert.equal((unknown.body.errors as { field: string }[])[0]?.field, 'section_id');
      assert.equal((await staff.post(`/api/v1/lessons/${newId('les')}/move`, { section_id: s1.id })).status, 404);
    });

    test('moving a lesson into a section of another course is refused with what to do instead', async () => {
      const mine = await section((await course()).id);
      const theirs = await section((await course()).id);
      const l = await lesson(mine.id);
      const refused = await staff.post(`/api/v1/lessons/${l.id}/move`, { section_id: theirs.id, position: 0 });
      assert.equal(refused.status, 409);
      assert.equal(refused.body.error, 'conflict');
      assert.match(
        String(refused.body.error_description),
        new RegExp(`only between sections of its own course.*POST /api/v1/sections/${theirs.id}/lessons`),
      );
      assert.equal(ok<Lesson>(await staff.get(`/api/v1/lessons/${l.id}`)).section_id, mine.id);
      assert.equal((await lessons(staff, theirs.id)).data.length, 0);
    });

    test('reorder lessons of a section: every lesson exactly once, else 400', async () => {
      const s = await section((await course()).id);
      const [a, b] = [await lesson(s.id, { title: 'A' }), await lesson(s.id, { title: 'B' })];
      const path = `/api/v1/sections/${s.id}/lessons/reorder`;
      assert.deepEqual(titles(ok<ListPage<Lesson>>(await staff.post(path, { lesson_ids: [b.id, a.id] })).data), [
        '0:B',
        '1:A',
      ]);
      assert.deepEqual(titles((await lessons(staff, s.id)).data), ['0:B', '1:A']);
      const missing = await staff.post(path, { lesson_ids: [b.id] });
      assert.equal(missing.status, 400);
      assert.match(String(missing.body.error_description), new RegExp(`missing ${a.id}`));
      assert.equal((await staff.post(path, { lesson_ids: [b.id, a.id, newId('les')] })).status, 400);
    });

    test('positions stay dense when lessons are created and moved concurrently', async () => {
      const c = await course();
      const s1 = await section(c.id);
      const s2 = await section(c.id);
      const made = await Promise.all(Array.from({ length: 8 }, (_, i) => lesson(s1.id, { title: `L${i}` })));
      await Promise.all(
        made.slice(0, 4).map((l) => staff.post(`/api/v1/lessons/${l.id}/move`, { section_id: s2.id, position: 0 })),
      );
      for (const id of [s1.id, s2.id]) {
        assert.deepEqual(
          (await lessons(staff, id)).data.map((l) => l.position),
          [0, 1, 2, 3],
        );
      }
      const more = await Promise.all(Array.from({ length: 6 }, (_, i) => section(c.id, { title: `S${i}` })));
      assert.equal(more.length, 6);
      assert.deepEqual(
        (await sections(staff, c.id)).data.map((s) => s.position),
        [0, 1, 2, 3, 4, 5, 6, 7],
      );
    });

    test('races: deleting and publishing one draft lesson never both succeed', async () => {
      const sec = await section((await course()).id);
      for (let round = 0; round < 10; round++) {
        const draft = await lesson(sec.id, { title: `Race ${round}` });
        const [deleted, published] = await Promise.all([
          staff.delete(`/api/v1/lessons/${draft.id}`),
          staff.post<Lesson>(`/api/v1/lessons/${draft.id}/publish`),
        ]);
        const after = await staff.get<Lesson>(`/api/v1/lessons/${draft.id}`);
        if (deleted.status === 204) {
          assert.equal(published.status, 404, `round ${round}: a deleted lesson cannot also be published`);
          assert.equal(after.status, 404);
        } else {
          assert.equal(deleted.status, 409, `round ${round}: ${JSON.stringify(deleted.body)}`);
          assert.equal(published.status, 200);
          assert.equal(after.body.status, 'published');
        }
      }
      const left = await lessons(staff, sec.id);
      assert.deepEqual(
        left.data.map((l) => l.position),
        left.data.map((_, i) => i),
      );
    });

    test('races: emptying a lesson while publishing it never leaves a published lesson without content', async () => {
      const sec = await section((await course()).id);
      for (let round = 0; round < 10; round++) {
        const draft = await lesson(sec.id, { title: `Empty Race ${round}` });
        const [emptied, published] = await Promise.all([
          staff.patch<Lesson>(`/api/v1/lessons/${draft.id}`, { body: '' }),
          staff.post<Lesson>(`/api/v1/lessons/${draft.id}/publish`),
        ]);
        assert.equal([emptied.status, published.status].filter((s) => s === 200).length, 1, `round ${round}`);
        assert.ok([emptied.status, published.status].includes(409), `round ${round}`);
        const after = ok<Lesson>(await staff.get(`/api/v1/lessons/${draft.id}`));
        assert.ok(after.status !== 'published' || after.body !== '', `round ${round}: published with an empty body`);
      }
    });

    test('deleting a lesson deletes the comments on it', async () => {
      const draft = await lesson((await section((await course()).id)).id);
      const at = new Date().toISOString();
      const commentId = newId('cmt');
      await server.database.db
        .insertInto('comments')
        .values({
          id: commentId,
          target_type: 'lesson',
          target_id: draft.id,
          user_id: student.id,
          parent_id: null,
          body: 'hi',
          status: 'visible',
          created_at: at,
          updated_at: at,
        })
        .execute();
      ok(await staff.delete(`/api/v1/lessons/${draft.id}`), 204);
      const left = await server.database.db.selectFrom('comments').select('id').where('id', '=', commentId).execute();
      assert.deepEqual(left, []);
    });

    test('a course holds at most 100 sections and a section at most 100 lessons', async () => {
      const c = await course();
      for (let i = 0; i < 100; i++) await section(c.id, { title: `S${i}` });
      const full = await staff.post(`/api/v1/courses/${c.id}/sections`, { title: 'One too many' });
      assert.equal(full.status, 409);
      assert.match(String(full.body.error_description), /at most 100 sections/);
      const listed = await sections(staff, c.id);
      assert.equal(listed.data.length, 100, 'the whole list comes in one page');

      const [s1, s2] = listed.data as [Section, Section];
      for (let i = 0; i < 100; i++) await lesson(s1.id, { title: `L${i}` });
      assert.equal((await staff.post(`/api/v1/sections/${s1.id}/lessons`, { title: 'One too many' })).status, 409);
      const other = await lesson(s2.id);
      const moveIn = await staff.post(`/api/v1/lessons/${other.id}/move`, { section_id: s1.id });
      assert.equal(moveIn.status, 409);
      assert.match(String(moveIn.body.error_description), /already holds 100 lessons/);
      assert.equal((await lessons(staff, s1.id)).data.length, 100);
    });

    test('three principals: drafts are 404; bodies only for previews, the enrolled and staff', async () => {
      const c = await course();
      const open = await section(c.id, { title: 'Open' }, true);
      const hidden = await section(c.id, { title: 'Hidden' });
      const previewLesson = await lesson(open.id, { title: 'Preview', body: 'Free body', is_preview: true }, true);
      const paid = await lesson(
        open.id,
        { title: 'Paid', type: 'pdf', body: 'Notes', asset_url: 'https://cdn.example/a.pdf' },
        true,
      );
      const draftLesson = await lesson(open.id, { title: 'Draft' });
      const inHidden = await lesson(hidden.id, { title: 'In hidden section', is_preview: true }, true);
      await enroll(c.id, enrolled);

      for (const client of [anonymous, studentApi, enrolledApi]) {
        const listed = await sections(client, c.id);
        assert.deepEqual(
          listed.data.map((s) => s.title),
          ['Open'],
        );
        assert.deepEqual((await sections(client, c.id, '?status=draft')).data, []);
        assert.equal((await client.get(`/api/v1/sections/${hidden.id}`)).status, 404);
        assert.equal((await client.get(`/api/v1/sections/${hidden.id}/lessons`)).status, 404);
        assert.equal((await client.get(`/api/v1/lessons/${draftLesson.id}`)).status, 404);
        assert.equal(
          (await client.get(`/api/v1/lessons/${inHidden.id}`)).status,
          404,
          'published lesson in a draft section',
        );
        assert.deepEqual(
          (await lessons(client, open.id)).data.map((l) => l.title),
          ['Preview', 'Paid'],
        );
        const preview = ok<Lesson>(await client.get(`/api/v1/lessons/${previewLesson.id}`));
        assert.deepEqual([preview.body, preview.locked], ['Free body', false]);
      }
      for (const client of [anonymous, studentApi]) {
        const locked = ok<Lesson>(await client.get(`/api/v1/lessons/${paid.id}`));
        assert.deepEqual([locked.body, locked.asset_url, locked.locked, locked.available_at], [null, null, true, null]);
        assert.equal(locked.title, 'Paid');
        assert.equal((await lessons(client, open.id)).data[1]?.body, null);
      }
      const unlocked = ok<Lesson>(await enrolledApi.get(`/api/v1/lessons/${paid.id}`));
      assert.deepEqual(
        [unlocked.body, unlocked.asset_url, unlocked.locked],
        ['Notes', 'https://cdn.example/a.pdf', false],
      );

      assert.deepEqual(
        (await sections(staff, c.id)).data.map((s) => s.title),
        ['Open', 'Hidden'],
      );
      assert.deepEqual(
        (await sections(staff, c.id, '?status=draft')).data.map((s) => s.title),
        ['Hidden'],
      );
      assert.deepEqual(
        (await lessons(staff, open.id)).data.map((l) => [l.title, l.locked]),
        [
          ['Preview', false],
          ['Paid', false],
          ['Draft', false],
        ],
      );
      assert.equal(ok<Lesson>(await staff.get(`/api/v1/lessons/${inHidden.id}`)).body, 'Content');
    });

    test('everything in a course the caller cannot see is 404: draft, private, archived', async () => {
      const draft = await course({}, false);
      const priv = await course({ visibility: 'private' });
      const unlisted = await course({ visibility: 'unlisted' });
      const ids: Record<string, { section: Section; lesson: Lesson }> = {};
      for (const [name, c] of Object.entries({ draft, priv, unlisted })) {
        const s = await section(c.id, {}, true);
        ids[name] = { section: s, lesson: await lesson(s.id, { is_preview: true }, true) };
      }
      await enroll(priv.id, enrolled);
      for (const name of ['draft', 'priv']) {
        const { section: s, lesson: l } = ids[name] as { section: Section; lesson: Lesson };
        const courseId = s.course_id;
        for (const client of name === 'priv' ? [anonymous, studentApi] : [anonymous, studentApi, enrolledApi]) {
          assert.equal((await client.get(`/api/v1/courses/${courseId}/sections`)).status, 404, name);
          assert.equal((await client.get(`/api/v1/sections/${s.id}`)).status, 404, name);
          assert.equal((await client.get(`/api/v1/sections/${s.id}/lessons`)).status, 404, name);
          assert.equal((await client.get(`/api/v1/lessons/${l.id}`)).status, 404, name);
        }
        assert.equal((await staff.get(`/api/v1/lessons/${l.id}`)).status, 200);
      }
      assert.equal(ok<Lesson>(await enrolledApi.get(`/api/v1/lessons/${ids.priv?.lesson.id}`)).locked, false);
      assert.equal((await sections(anonymous, unlisted.slug)).data.length, 1, 'unlisted: reachable by its address');

      ok(await staff.post(`/api/v1/courses/${priv.id}/archive`));
      assert.equal(
        (await enrolledApi.get(`/api/v1/lessons/${ids.priv?.lesson.id}`)).status,
        200,
        'enrolled keep access',
      );
      ok(await staff.post(`/api/v1/courses/${unlisted.id}/archive`));
      assert.equal((await anonymous.get(`/api/v1/lessons/${ids.unlisted?.lesson.id}`)).status, 404);
    });

    test('revoked and expired enrollments give no bodies', async () => {
      const c = await course();
      const s = await section(c.id, {}, true);
      const l = await lesson(s.id, {}, true);
      const revoked = await createUser(server, 'student', 'Revoked Student');
      await enroll(c.id, revoked, new Date(), 'revoked');
      const revokedApi = apiClient(server.url, await tokenFor(server, revoked, 'curriculum:read'));
      assert.equal(ok<Lesson>(await revokedApi.get(`/api/v1/lessons/${l.id}`)).locked, true);
      await enroll(c.id, student);
      assert.equal(ok<Lesson>(await studentApi.get(`/api/v1/lessons/${l.id}`)).locked, false);
      await server.database.db
        .updateTable('enrollments')
        .set({ expires_at: new Date(Date.now() - 60_000).toISOString() })
        .where('course_id', '=', c.id)
        .where('user_id', '=', student.id)
        .execute();
      assert.equal(ok<Lesson>(await studentApi.get(`/api/v1/lessons/${l.id}`)).locked, true);
    });

    test('drip: enrolled students wait until the section opens; previews and staff never wait', async () => {
      const c = await course();
      const future = new Date(Date.now() + 3 * DAY_MS).toISOString();
      const weekly = await section(c.id, { title: 'Week 2', drip: { type: 'days_after_enrollment', days: 7 } }, true);
      const dated = await section(c.id, { title: 'Launch', drip: { type: 'on_date', date: future } }, true);
      const past = await section(c.id, { title: 'Old', drip: { type: 'on_date', date: '2020-01-01T00:00:00Z' } }, true);
      const weeklyLesson = await lesson(weekly.id, { body: 'Week 2 body' }, true);
      const weeklyPreview = await lesson(weekly.id, { body: 'Teaser', is_preview: true }, true);
      const datedLesson = await lesson(dated.id, { body: 'Launch body' }, true);
      const pastLesson = await lesson(past.id, { body: 'Old body' }, true);
      const dripStudent = await createUser(server, 'student', 'Drip Student');
      const enrolledAt = new Date(Date.now() - 2 * DAY_MS);
      await enroll(c.id, dripStudent, enrolledAt);
      const dripApi = apiClient(server.url, await tokenFor(server, dripStudent, 'curriculum:read'));

      const opensAt = new Date(enrolledAt.getTime() + 7 * DAY_MS).toISOString();
      const w = ok<Lesson>(await dripApi.get(`/api/v1/lessons/${weeklyLesson.id}`));
      assert.deepEqual([w.body, w.locked, w.available_at], [null, true, opensAt]);
      assert.equal(ok<Section>(await dripApi.get(`/api/v1/sections/${weekly.id}`)).available_at, opensAt);
      const d = ok<Lesson>(await dripApi.get(`/api/v1/lessons/${datedLesson.id}`));
      assert.deepEqual([d.body, d.locked, d.available_at], [null, true, new Date(future).toISOString()]);
      const p = ok<Lesson>(await dripApi.get(`/api/v1/lessons/${pastLesson.id}`));
      assert.deepEqual([p.body, p.locked, p.available_at], ['Old body', false, null]);
      const t = ok<Lesson>(await dripApi.get(`/api/v1/lessons/${weeklyPreview.id}`));
      assert.deepEqual([t.body, t.locked, t.available_at], ['Teaser', false, null]);
      assert.deepEqual(
        (await lessons(dripApi, weekly.id)).data.map((l) => l.locked),
        [true, false],
      );

      const staffView = ok<Lesson>(await staff.get(`/api/v1/lessons/${datedLesson.id}`));
      assert.deepEqual([staffView.body, staffView.locked, staffView.available_at], ['Launch body', false, null]);
      const anon = ok<Lesson>(await anonymous.get(`/api/v1/lessons/${weeklyLesson.id}`));
      assert.deepEqual([anon.locked, anon.available_at], [true, null], 'anonymous: enrollment, not time, unlocks it');

      await server.database.db
        .updateTable('enrollments')
        .set({ enrolled_at: new Date(Date.now() - 8 * DAY_MS).toISOString() })
        .where('user_id', '=', dripStudent.id)
        .execute();
      const opened = ok<Lesson>(await dripApi.get(`/api/v1/lessons/${weeklyLesson.id}`));
      assert.deepEqual([opened.body, opened.locked, opened.available_at], ['Week 2 body', false, null]);
    });

    test('lessonVisibleTo tells the comments area who may see a lesson', async () => {
      const curriculum = server.services.areas.curriculum;
      const c = await course();
      const s = await section(c.id, {}, true);
      const paid = await lesson(s.id, {}, true);
      const preview = await lesson(s.id, { is_preview: true }, true);
      const draft = await lesson(s.id, { is_preview: true });
      const dripped = await section(c.id, { drip: { type: 'days_after_enrollment', days: 3 } }, true);
      const later = await lesson(dripped.id, {}, true);
      const reader = await createUser(server, 'student', 'Reader Student');
      await enroll(c.id, reader);
      const as = (person: Person): Principal => ({
        kind: 'user',
        userId: person.id,
        role: person.role,
        clientId: 'test',
        scopes: new Set(['curriculum:read']),
      });
      const anon: Principal = { kind: 'anonymous' };
      const staffPrincipal: Principal = { ...as(student), role: 'staff' } as Principal;
      assert.equal(await curriculum.lessonVisibleTo(anon, preview.id), true);
      assert.equal(await curriculum.lessonVisibleTo(anon, paid.id), false);
      assert.equal(await curriculum.lessonVisibleTo(as(student), paid.id), false);
      assert.equal(await curriculum.lessonVisibleTo(as(reader), paid.id), true);
      assert.equal(await curriculum.lessonVisibleTo(as(reader), draft.id), false);
      assert.equal(await curriculum.lessonVisibleTo(as(reader), later.id), false, 'drip has not opened it');
      assert.equal(await curriculum.lessonVisibleTo(staffPrincipal, draft.id), true);
      assert.equal(await curriculum.lessonVisibleTo(staffPrincipal, later.id), true);
      assert.equal(await curriculum.lessonVisibleTo(staffPrincipal, newId('les')), false);
      ok(await staff.post(`/api/v1/courses/${c.id}/unpublish`));
      assert.equal(await curriculum.lessonVisibleTo(anon, preview.id), false, 'a draft course hides its lessons');
    });

    test('validation: unknown field, wrong type, too long, bad ids, empty update, bad URL, list query', async () => {
      const c = await course();
      const s = await section(c.id);
      const l = await lesson(s.id);
      const unknown = await staff.post(`/api/v1/courses/${c.id}/sections`, { title: 'x', colour: 'red' });
      assert.equal(unknown.status, 400);
      assert.deepEqual((unknown.body.errors as { field: string; code: string }[])[0], {
        field: 'colour',
        code: 'unknown_field',
        message: 'Unknown field "colour"; remove it.',
      });
      const unknownLesson = await staff.post(`/api/v1/sections/${s.id}/lessons`, { title: 'x', section_id: s.id });
      assert.equal(unknownLesson.status, 400);
      assert.equal((unknownLesson.body.errors as { code: string }[])[0]?.code, 'unknown_field');
      assert.equal((await staff.post(`/api/v1/sections/${s.id}/lessons`, { title: 'x', position: '1' })).status, 400);
      assert.equal(
        (await staff.post(`/api/v1/sections/${s.id}/lessons`, { title: 'x', is_preview: 'yes' })).status,
        400,
      );
      assert.equal((await staff.post(`/api/v1/sections/${s.id}/lessons`, { title: 'x', type: 'podcast' })).status, 400);
      assert.equal((await staff.post(`/api/v1/sections/${s.id}/lessons`, { title: 'x', duration_s: -1 })).status, 400);
      const badUrl = await staff.patch(`/api/v1/lessons/${l.id}`, { asset_url: 'ftp://files.example/a.pdf' });
      assert.equal(badUrl.status, 400);
      assert.equal((badUrl.body.errors as { field: string }[])[0]?.field, 'asset_url');
      const tooLong = await staff.post(`/api/v1/courses/${c.id}/sections`, { title: 'x'.repeat(201) });
      assert.equal(tooLong.status, 400);
      assert.equal((tooLong.body.errors as { field: string }[])[0]?.field, 'title');
      assert.equal((await staff.patch(`/api/v1/lessons/${l.id}`, { body: 'x'.repeat(100_001) })).status, 400);
      assert.equal((await staff.post(`/api/v1/courses/${c.id}/sections`, {})).status, 400);
      assert.equal((await staff.patch(`/api/v1/sections/${s.id}`, {})).status, 400);
      assert.equal((await staff.patch(`/api/v1/lessons/${l.id}`, {})).status, 400);
      assert.equal((await staff.patch(`/api/v1/lessons/${l.id}`, { position: 0 })).status, 400, 'use move');
      assert.equal((await staff.get('/api/v1/sections/not-an-id')).status, 400);
      assert.equal((await staff.get(`/api/v1/lessons/${s.id}`)).status, 400, 'a section id is not a lesson id');
      assert.equal((await staff.post(`/api/v1/lessons/${l.id}/move`, {})).status, 400);
      assert.equal((await staff.post(`/api/v1/lessons/${l.id}/move`, { section_id: s.id, position: -1 })).status, 400);
      // Lists are bounded and in position order: one page, no cursor to pass.
      assert.equal((await staff.get(`/api/v1/courses/${c.id}/sections?limit=10`)).status, 400);
      assert.equal((await staff.get(`/api/v1/sections/${s.id}/lessons?starting_after=${l.id}`)).status, 400);
      assert.equal((await staff.get(`/api/v1/sections/${s.id}/lessons?status=gone`)).status, 400);
    });

    test('scopes: anonymous and student writes are 403 insufficient_scope; so is a token lacking it', async () => {
      const c = await course();
      const s = await section(c.id, {}, true);
      const l = await lesson(s.id, {}, true);
      const header = (scope: string) =>
        new RegExp(
          `^Bearer error="insufficient_scope", error_description="[^"]+", scope="${scope}", ` +
            'resource_metadata="http://127\\.0\\.0\\.1:\\d+/\\.well-known/oauth-protected-resource"$',
        );
      for (const [method, path, body] of [
        ['POST', `/api/v1/courses/${c.id}/sections`, { title: 'x' }],
        ['PATCH', `/api/v1/sections/${s.id}`, { title: 'x' }],
        ['DELETE', `/api/v1/lessons/${l.id}`, undefined],
        ['POST', `/api/v1/lessons/${l.id}/move`, { section_id: s.id }],
        ['POST', `/api/v1/lessons/${l.id}/unpublish`, {}],
      ] as const) {
        for (const client of [anonymous, studentApi]) {
          const refused = await client.call(method, path, body);
          assert.equal(refused.status, 403, `${method} ${path}`);
          assert.equal(refused.body.error, 'insufficient_scope');
          assert.match(refused.headers.get('www-authenticate') ?? '', header('curriculum:write'));
        }
      }
      const people = { staff: await createUser(server, 'staff', 'Reader Staff') };
      const readOnly = apiClient(server.url, await tokenFor(server, people.staff, 'curriculum:read'));
      const writeRefused = await readOnly.post(`/api/v1/sections/${s.id}/lessons`, { title: 'x' });
      assert.equal(writeRefused.status, 403);
      assert.match(writeRefused.headers.get('www-authenticate') ?? '', header('curriculum:write'));
      assert.equal((await readOnly.get(`/api/v1/lessons/${l.id}`)).status, 200);
      const coursesOnly = apiClient(server.url, await tokenFor(server, people.staff, 'courses:read'));
      const readRefused = await coursesOnly.get(`/api/v1/sections/${s.id}/lessons`);
      assert.equal(readRefused.status, 403);
      assert.match(readRefused.headers.get('www-authenticate') ?? '', header('curriculum:read'));
      assert.equal(ok<Lesson>(await staff.get(`/api/v1/lessons/${l.id}`)).status, 'published', 'nothing changed');
    });

    test('Idempotency-Key on creating sections and lessons replays the first response', async () => {
      const c = await course();
      const key = `sec-${Date.now()}`;
      const path = `/api/v1/courses/${c.id}/sections`;
      const first = await staff.post<Section>(path, { title: 'Once' }, { 'idempotency-key': key });
      const again = await staff.post<Section>(path, { title: 'Once' }, { 'idempotency-key': key });
      assert.equal(again.status, 201);
      assert.equal(again.body.id, first.body.id);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal((await staff.post(path, { title: 'Twice' }, { 'idempotency-key': key })).status, 409);
      assert.equal((await sections(staff, c.id)).data.length, 1);
      const lessonKey = `les-${Date.now()}`;
      const lessonPath = `/api/v1/sections/${first.body.id}/lessons`;
      const l1 = await staff.post<Lesson>(lessonPath, { title: 'L' }, { 'idempotency-key': lessonKey });
      const l2 = await staff.post<Lesson>(lessonPath, { title: 'L' }, { 'idempotency-key': lessonKey });
      assert.equal(l2.body.id, l1.body.id);
      assert.equal((await lessons(staff, first.body.id)).data.length, 1);
    });
  });
}
