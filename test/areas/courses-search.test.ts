import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiClient, schoolWithPeople, tokenFor } from '../support/api.ts';
import { CONTENT_SCOPES, publishWithALesson } from '../support/course-content.ts';
import { engines } from '../support/databases.ts';
import { enroll } from '../support/public-site.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

type Course = { id: string; title: string; snippet?: string };
type Page = { data: Course[]; has_more: boolean; next_cursor: string | null; total?: number };
type Refusal = { error: string; error_description: string; errors?: { field: string; code: string }[] };

for (const engine of engines) {
  describe(`course search, q= of the courses list (${engine})`, () => {
    let server: TestServer;
    let staff: ReturnType<typeof apiClient>;
    let student: ReturnType<typeof apiClient>;
    let anonymous: ReturnType<typeof apiClient>;
    let studentId: string;

    before(async () => {
      server = await startTestServer(engine);
      const people = await schoolWithPeople(server);
      studentId = people.student.id;
      const scopes = `courses:read curriculum:read lecturers:read lecturers:write ${CONTENT_SCOPES}`;
      staff = apiClient(server.url, await tokenFor(server, people.staff, scopes));
      student = apiClient(server.url, await tokenFor(server, people.student, 'courses:read'));
      anonymous = apiClient(server.url);
    });
    after(() => server.close());

    const made = async <T = Course>(response: { status: number; body: unknown }) => {
      assert.ok(response.status === 200 || response.status === 201, JSON.stringify(response.body));
      return response.body as T;
    };
    /** A published course with one published lesson (`lesson` its title), made from `body`. */
    const published = async (body: Record<string, unknown>, lesson = 'Welcome') => {
      const course = await made(await staff.post('/api/v1/courses', body));
      await made(await publishWithALesson(staff, course.id, lesson));
      return course;
    };
    const search = async (client: ReturnType<typeof apiClient>, q: string, more = '') => {
      const page = await client.get<Page>(`/api/v1/courses?q=${encodeURIComponent(q)}${more}`);
      assert.equal(page.status, 200, JSON.stringify(page.body));
      return page.body;
    };
    const titles = (page: Page) => page.data.map((c) => c.title);

    test('ranks a title above a subtitle above a lesson title; English endings and accents do not matter', async () => {
      const lesson = await published({ title: 'Flowers of the Meadow' }, 'Mixing watercolours');
      const subtitle = await published({
        title: 'Botanical Illustration',
        subtitle: 'Draw plants in pencil and watercolour',
      });
      const title = await published({ title: 'Watercolour Landscapes' });
      const page = await search(anonymous, 'watercolour');
      assert.deepEqual(
        page.data.map((c) => c.id),
        [title.id, subtitle.id, lesson.id],
      );
      assert.equal(page.total, 3);
      assert.equal(page.has_more, false);
      assert.deepEqual(titles(await search(anonymous, 'Watercolours')), titles(page), 'the plural finds the singular');
      assert.deepEqual(titles(await search(anonymous, 'pencil plants')), ['Botanical Illustration'], 'every word');
      assert.deepEqual(titles(await search(anonymous, 'pencil oils')), [], 'a course needs every word');
      assert.deepEqual(titles(await search(anonymous, 'Botanical illustration in pencil')), ['Botanical Illustration']);
      const accented = await published({ title: 'Café Sketching' });
      assert.deepEqual(
        (await search(anonymous, 'cafe sketching')).data.map((c) => c.id),
        [accented.id],
        'accents folded',
      );
    });

    test('each result carries a snippet: where the words are, HTML-escaped, each found word in <mark>', async () => {
      await published({
        title: 'Marbling Paper',
        subtitle: 'Tom & Jerry’s <b>favourite</b> zanzibar pastime',
        description: "Intro.\n\n<script>alert('zanzibar')</script> and **bold** zanzibar ink.",
      });
      const [found] = (await search(anonymous, 'zanzibar')).data;
      const snippet = found?.snippet ?? '';
      assert.match(snippet, /<mark>zanzibar<\/mark>/);
      assert.match(snippet, /Tom &amp; Jerry/);
      assert.doesNotMatch(snippet, /<(?!\/?mark>)/, 'no tag but <mark>');
      const script = await published({
        title: 'Ink Wash',
        description: "<script>alert('quagga')</script> quagga",
      });
      const [scripted] = (await search(anonymous, 'quagga')).data;
      assert.equal(scripted?.id, script.id);
      assert.match(scripted?.snippet ?? '', /<mark>quagga<\/mark>/);
      assert.doesNotMatch(scripted?.snippet ?? '', /<script|<\/script/, 'the description is never markup');
      const [titled] = (await search(anonymous, 'marbling')).data;
      assert.equal(titled?.snippet, '<mark>Marbling</mark> Paper', 'found only in the title: the title');
      const listed = await anonymous.get<Page>('/api/v1/courses?limit=1');
      assert.equal(listed.body.data[0]?.snippet, undefined, 'the list without q has no snippets');
      assert.equal(listed.body.total, undefined, 'nor a count');
    });

    test("finds a course by its lecturer's name, and follows a renamed or archived lecturer", async () => {
      const lecturer = await made<{ id: string }>(await staff.post('/api/v1/lecturers', { name: 'Hildegard Quince' }));
      const course = await published({ title: 'Herbals', lecturer_ids: [lecturer.id] });
      assert.deepEqual(
        (await search(anonymous, 'quince')).data.map((c) => c.id),
        [course.id],
      );
      await made(await staff.patch(`/api/v1/lecturers/${lecturer.id}`, { name: 'Hildegard Medlar' }));
      assert.deepEqual(titles(await search(anonymous, 'quince')), [], 'the old name is forgotten');
      assert.deepEqual(titles(await search(anonymous, 'medlar')), ['Herbals'], 'the new one found');
      await made(await staff.post(`/api/v1/lecturers/${lecturer.id}/archive`));
      assert.deepEqual(
        titles(await search(anonymous, 'medlar')),
        [],
        'an archived lecturer is not shown, nor searched',
      );
      await made(await staff.post(`/api/v1/lecturers/${lecturer.id}/restore`));
      assert.deepEqual(titles(await search(anonymous, 'medlar')), ['Herbals']);
    });

    test('shows what the list shows: drafts, private courses and unpublished lessons stay hidden', async () => {
      const course = await published({ title: 'Bookbinding' });
      const [section] = (await staff.get<{ data: { id: string }[] }>(`/api/v1/courses/${course.id}/sections`)).body
        .data;
      const draft = await made<{ id: string }>(
        await staff.post(`/api/v1/sections/${section?.id}/lessons`, { title: 'Secret zeppelin stitch', body: 'x' }),
      );
      for (const client of [anonymous, student, staff])
        assert.deepEqual(titles(await search(client, 'zeppelin')), [], "a draft lesson's title is not searched");
      await made(await staff.post(`/api/v1/lessons/${draft.id}/publish`));
      assert.deepEqual(titles(await search(anonymous, 'zeppelin')), ['Bookbinding'], 'once published, it is');
      await made(await staff.post(`/api/v1/sections/${section?.id}/unpublish`));
      assert.deepEqual(titles(await search(anonymous, 'zeppelin')), [], 'nor in a draft section');

      await made(await staff.post('/api/v1/courses', { title: 'Gilding draft' }));
      const hidden = await published({ title: 'Gilding private', visibility: 'private' });
      await published({ title: 'Gilding unlisted', visibility: 'unlisted' });
      await published({ title: 'Gilding public' });
      assert.deepEqual(titles(await search(anonymous, 'gilding')), ['Gilding public']);
      assert.equal((await search(anonymous, 'gilding')).total, 1, 'the count is of what the caller sees');
      assert.deepEqual(titles(await search(student, 'gilding')), ['Gilding public']);
      await enroll(server, { id: studentId }, hidden.id);
      assert.deepEqual(titles(await search(student, 'gilding')), ['Gilding public', 'Gilding private']);
      assert.deepEqual(
        new Set(titles(await search(staff, 'gilding'))),
        new Set(['Gilding draft', 'Gilding private', 'Gilding unlisted', 'Gilding public']),
      );
      assert.deepEqual(titles(await search(staff, 'gilding', '&status=draft')), ['Gilding draft'], 'filters apply');
      assert.deepEqual(titles(await search(staff, 'gilding', '&visibility=unlisted')), ['Gilding unlisted']);
    });

    test('the index follows a rename and a delete; operators and odd characters are plain text', async () => {
      const course = await made(await staff.post('/api/v1/courses', { title: 'The "Quiet" Brush' }));
      assert.deepEqual(titles(await search(staff, '"quiet" brush*')), ['The "Quiet" Brush']);
      assert.deepEqual(titles(await search(staff, 'quiet OR NEAR(brush) -loud')), [], '"loud" is a word to find too');
      assert.deepEqual(titles(await search(staff, 'QUIET')), ['The "Quiet" Brush'], 'case is ignored');
      await made(await staff.patch(`/api/v1/courses/${course.id}`, { title: 'Loud Palette' }));
      assert.deepEqual(titles(await search(staff, 'quiet')), []);
      assert.deepEqual(titles(await search(staff, 'palette')), ['Loud Palette']);
      assert.equal((await staff.delete(`/api/v1/courses/${course.id}`)).status, 204);
      assert.deepEqual(titles(await search(staff, 'palette')), []);
      for (const odd of ['%', '_', '"', '*', '()', "'"]) {
        const page = await search(staff, odd);
        assert.deepEqual([page.data, page.total], [[], 0], `${odd} finds nothing, without an error`);
      }
    });

    test("a course's status and visibility decide at once whether the public search shows it", async () => {
      const course = await published({ title: 'Tapestry Weaving' });
      const found = async (client: ReturnType<typeof apiClient>) => (await search(client, 'tapestry')).total;
      assert.equal(await found(anonymous), 1);
      await made(await staff.post(`/api/v1/courses/${course.id}/unpublish`));
      assert.deepEqual([await found(anonymous), await found(staff)], [0, 1], 'a draft again: staff only');
      await made(await staff.post(`/api/v1/courses/${course.id}/publish`));
      assert.equal(await found(anonymous), 1);
      await made(await staff.patch(`/api/v1/courses/${course.id}`, { visibility: 'unlisted' }));
      assert.deepEqual([await found(anonymous), await found(student), await found(staff)], [0, 0, 1]);
      await made(await staff.patch(`/api/v1/courses/${course.id}`, { visibility: 'public' }));
      await made(await staff.post(`/api/v1/courses/${course.id}/archive`));
      assert.deepEqual([await found(anonymous), await found(staff)], [0, 1], 'archived: hidden from the catalog');
    });

    test('pages through a ranked list by its own cursor, without a duplicate or a gap', async () => {
      // Ties (same title length, same word count) and different ranks, so pages cut through both.
      const courses = [];
      for (const title of ['Kiln', 'Kiln firing', 'Kiln glazes', 'Raku kiln basics', 'Kiln', 'Wood kiln', 'Kiln'])
        courses.push(await published({ title }));
      await published({ title: 'Throwing pots' }, 'Loading the kiln');
      const whole = await search(anonymous, 'kiln', '&limit=100');
      assert.equal(whole.total, 8);
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: Page = await search(anonymous, 'kiln', `&limit=3${cursor ? `&starting_after=${cursor}` : ''}`);
        assert.equal(page.total, 8, 'every page counts them all');
        seen.push(...page.data.map((c) => c.id));
        cursor = page.next_cursor;
        assert.equal(page.has_more, cursor !== null);
        pages += 1;
      } while (cursor);
      assert.equal(pages, 3);
      assert.deepEqual(
        seen,
        whole.data.map((c) => c.id),
        'the same order, each once',
      );
      assert.equal(whole.data.at(-1)?.title, 'Throwing pots', 'a lesson title ranks last');
      const kilns = whole.data.filter((c) => c.title === 'Kiln').map((c) => c.id);
      assert.deepEqual(kilns, [courses[6]?.id, courses[4]?.id, courses[0]?.id], 'ties: newest first');

      // A course deleted after its page was read still marks the place.
      const first = await search(staff, 'kiln', '&limit=2&status=published');
      const last = first.data.at(-1);
      assert.ok(last);
      await made(await staff.post(`/api/v1/courses/${last.id}/archive`));
      const next = await search(staff, 'kiln', `&limit=100&status=published&starting_after=${first.next_cursor}`);
      assert.deepEqual(
        next.data.map((c) => c.id),
        whole.data.slice(2).map((c) => c.id),
      );
    });

    test('a cursor of one list is refused by the other, and a cursor of a search by another search', async () => {
      const page = await search(anonymous, 'kiln', '&limit=1');
      const ranked = String(page.next_cursor);
      assert.match(ranked, /^rank_[A-Za-z0-9_-]+$/);
      const plain = (await anonymous.get<Page>('/api/v1/courses?limit=1')).body.next_cursor;
      const refusals: [string, RegExp][] = [
        [`/api/v1/courses?starting_after=${ranked}`, /cursor of a search \(q=\)/],
        [`/api/v1/courses?q=kiln&starting_after=${plain}`, /an id, the cursor of the list without q/],
        [`/api/v1/courses?q=raku&starting_after=${ranked}`, /a search for other words/],
        [`/api/v1/courses?q=kiln&starting_after=rank_${'A'.repeat(52)}`, /next_cursor of a previous page/],
        ['/api/v1/courses?q=kiln&starting_after=nonsense', /next_cursor of a previous page/],
      ];
      for (const [path, description] of refusals) {
        const refused = await anonymous.get<Refusal>(path);
        assert.equal(refused.status, 400, path);
        assert.equal(refused.body.error, 'invalid_request', path);
        assert.match(refused.body.error_description, description, path);
        assert.deepEqual(
          refused.body.errors?.map((e) => [e.field, e.code]),
          [['starting_after', 'format']],
        );
      }
      // The same words in another order or case are the same search.
      assert.equal((await anonymous.get(`/api/v1/courses?q=KILN&starting_after=${ranked}`)).status, 200);
    });
  });
}
