import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { schoolStore } from '../../src/areas/school/store.ts';
import { newId } from '../../src/db/ids.ts';
import { catalogStore } from '../../src/discovery/catalog-store.ts';
import { discoveryDocuments } from '../../src/discovery/documents.ts';
import { LLMS_TXT_LIMIT } from '../../src/discovery/llms-txt.ts';
import { apiClient, schoolWithPeople, tokenFor } from '../support/api.ts';
import { publishWithALesson } from '../support/course-content.ts';
import { engines } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

type Course = { id: string; slug: string; title: string };

/** Inserts published public courses straight into the database (fast; bypasses the API and its invalidation). */
async function insertCourses(
  server: TestServer,
  count: number,
  title = (i: number) => `Bulk course ${i}`,
  batch = 200,
) {
  const at = Date.now() - count * 1000;
  const rows = Array.from({ length: count }, (_, i) => {
    const created = new Date(at + i * 1000).toISOString();
    return {
      id: newId('crs', at + i * 1000),
      title: title(i),
      slug: `bulk-${i}-${Math.random().toString(36).slice(2, 7)}`,
      subtitle: '',
      description: '',
      cover_url: null,
      lecturer_ids: '[]',
      price_amount: 1000 + i,
      price_currency: 'EUR',
      status: 'published' as const,
      visibility: 'public' as const,
      enrollment_open: 1 as const,
      published_at: created,
      created_at: created,
      updated_at: created,
    };
  });
  for (let i = 0; i < rows.length; i += batch)
    await server.database.db
      .insertInto('courses')
      .values(rows.slice(i, i + batch))
      .execute();
}

for (const engine of engines) {
  describe(`/llms.txt, /llms-full.txt and /pricing.md (${engine})`, () => {
    let server: TestServer;
    let staff: ReturnType<typeof apiClient>;
    let painting: Course;
    let free: Course;
    const hidden: Course[] = [];

    const fetchText = async (path: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${server.url}${path}`, { headers });
      return { status: response.status, headers: response.headers, text: await response.text() };
    };

    before(async () => {
      server = await startTestServer(engine);
      const people = await schoolWithPeople(server);
      staff = apiClient(
        server.url,
        await tokenFor(
          server,
          people.staff,
          'courses:read courses:write curriculum:write posts:write pages:write school:write',
        ),
      );
      await staff.patch('/api/v1/school', {
        description: 'Painting and\nlanguages, taught well.',
        terms_url: 'https://school.test/terms',
      });
      const course = async (body: Record<string, unknown>, publish = true) => {
        const created = (await staff.post<Course>('/api/v1/courses', body)).body;
        if (publish) await publishWithALesson(staff, created.id);
        return created;
      };
      painting = await course(
        {
          title: 'Oil Painting',
          subtitle: 'Colour | light',
          description: 'Paint with oils.\nFrom the first stroke.',
          price: { amount: 4900, currency: 'EUR' },
        },
        false,
      );
      free = await course({ title: 'Free Sketching' });
      hidden.push(await course({ title: 'Draft Course', price: { amount: 100, currency: 'EUR' } }, false));
      hidden.push(
        await course({ title: 'Private Course', visibility: 'private', price: { amount: 100, currency: 'EUR' } }),
      );
      hidden.push(await course({ title: 'Unlisted Course', visibility: 'unlisted' }));
      const section = (await staff.post<{ id: string }>(`/api/v1/courses/${painting.id}/sections`, { title: 'Basics' }))
        .body;
      await staff.post(`/api/v1/sections/${section.id}/publish`);
      for (const [title, duration_s, is_preview] of [
        ['Brushes', 600, true],
        ['Mixing', 1500, false],
      ] as const) {
        const lesson = (
          await staff.post<{ id: string }>(`/api/v1/sections/${section.id}/lessons`, {
            title,
            type: 'video',
            asset_url: 'https://cdn.school.test/v.mp4',
            duration_s,
            is_preview,
          })
        ).body;
        const done = await staff.post(`/api/v1/lessons/${lesson.id}/publish`);
        assert.equal(done.status, 200, JSON.stringify(done.body));
      }
      const onSale = await staff.post(`/api/v1/courses/${painting.id}/publish`);
      assert.equal(onSale.status, 200, JSON.stringify(onSale.body));
      const post = (await staff.post<{ id: string }>('/api/v1/posts', { title: 'Hello world', excerpt: 'First post' }))
        .body;
      await staff.post(`/api/v1/posts/${post.id}/publish`);
      await staff.post('/api/v1/posts', { title: 'Secret draft post' });
      const page = (await staff.post<{ id: string }>('/api/v1/pages', { title: 'About us', draft_body: 'Hi' })).body;
      await staff.post(`/api/v1/pages/${page.id}/publish`);
    });
    after(() => server.close());

    test('llms.txt has the llmstxt.org shape: H1, summary, sections of links, public items only', async () => {
      const { status, headers, text } = await fetchText('/llms.txt');
      assert.equal(status, 200);
      assert.equal(headers.get('content-type'), 'text/plain; charset=utf-8');
      const lines = text.split('\n');
      assert.equal(lines[0], '# Test Academy');
      assert.equal(lines[2], '> Painting and languages, taught well.');
      const headings = lines.filter((l) => l.startsWith('## '));
      assert.deepEqual(headings, [
        '## Start here',
        '## Courses',
        '## Membership plans',
        '## Digital products',
        '## Upcoming events',
        '## Posts',
        '## Pages',
        '## Optional',
      ]);
      // The school's terms may live elsewhere (its settings' terms_url); every other link is to this origin.
      assert.ok(text.includes('- [Terms, including refunds](https://school.test/terms)'));
      for (const line of lines.filter((l) => l.startsWith('- ') && !l.startsWith('- [Terms, including refunds]')))
        assert.match(line, /^- \[[^\]]+\]\(http:\/\/127\.0\.0\.1:\d+\/[^)]*\)(: .+)?$/, line);
      assert.ok(
        text.includes(
          `- [Oil Painting](${server.url}/courses/oil-painting): Colour | light · €49.00 · 2 lessons, 35 min · API ${server.url}/api/v1/courses/${painting.id}`,
        ),
        text,
      );
      assert.ok(
        text.includes(
          `- [Free Sketching](${server.url}/courses/free-sketching): free · 1 lesson · API ${server.url}/api/v1/courses/${free.id}`,
        ),
      );
      for (const course of hidden) assert.ok(!text.includes(course.title), course.title);
      assert.ok(text.includes(`- [Hello world](${server.url}/posts/hello-world): First post`));
      assert.ok(!text.includes('Secret draft post'));
      assert.ok(text.includes(`- [About us](${server.url}/p/about-us)`));
      assert.ok(text.includes(`- [Course catalog](${server.url}/courses): `));
      assert.ok(text.includes(`- [Everything above in full](${server.url}/llms-full.txt)`));
    });

    test("llms.txt links the website's public pages, generated from live data, and every link opens", async () => {
      const { text } = await fetchText('/llms.txt');
      const links = [...text.matchAll(/\]\((http[^)]+)\)/g)].map((m) => m[1] ?? '');
      assert.ok(links.includes(`${server.url}/courses`));
      assert.ok(links.includes(`${server.url}/courses/oil-painting`));
      for (const link of links.filter((l) => l.startsWith(server.url) && !l.endsWith('/mcp'))) {
        const response = await fetch(link, { headers: { accept: 'text/html,*/*' } });
        assert.equal(response.status, 200, link);
      }
      const renamed = (await staff.post<Course>('/api/v1/courses', { title: 'Fresh Course', slug: 'fresh-course' }))
        .body;
      await publishWithALesson(staff, renamed.id);
      assert.ok((await fetchText('/llms.txt')).text.includes(`- [Fresh Course](${server.url}/courses/fresh-course)`));
      await staff.post(`/api/v1/courses/${renamed.id}/archive`);
    });

    test('llms-full.txt adds each course description and outline', async () => {
      const { text } = await fetchText('/llms-full.txt');
      assert.ok(text.includes('  Paint with oils.\n  From the first stroke.'), text);
      assert.ok(
        text.includes('  Basics:\n  - Brushes (video, 10 min, free preview)\n  - Mixing (video, 25 min)'),
        text,
      );
      assert.ok(!text.includes('llms-full.txt)'), 'it does not link itself');
    });

    test('pricing.md: every published public course with its price, one table per kind, terms', async () => {
      const { status, headers, text } = await fetchText('/pricing.md');
      assert.equal(status, 200);
      assert.equal(headers.get('content-type'), 'text/markdown; charset=utf-8');
      assert.ok(text.startsWith('# Pricing — Test Academy\n'));
      assert.ok(text.includes('| Course | Price | Lessons | Duration | Access | Details |'));
      assert.ok(
        text.includes(
          `| Oil Painting | €49.00 | 2 | 35 min | lifetime | ${server.url}/api/v1/courses/${painting.id} |`,
        ),
      );
      assert.ok(text.includes(`| Free Sketching | free | 1 | — | lifetime |`));
      for (const course of hidden) assert.ok(!text.includes(course.title), course.title);
      assert.match(text, /## Membership plans\n\nThe school offers no membership plans\./);
      assert.match(text, /## Digital products\n\nThe school offers no digital products\./);
      assert.ok(text.includes('- [Terms, including refunds](https://school.test/terms)'));
      assert.match(text, /## How to buy/);
    });

    test('ETag and Last-Modified: 304 for a current copy by its ETag; a write through the API shows at once, with a new ETag', async () => {
      const first = await fetchText('/pricing.md');
      const etag = first.headers.get('etag') ?? '';
      assert.match(etag, /^"[\w-]{32}"$/);
      assert.equal((await fetchText('/pricing.md', { 'if-none-match': etag })).status, 304);
      assert.equal((await fetchText('/pricing.md', { 'if-none-match': '"other"' })).status, 200);
      assert.equal((await fetchText('/pricing.md', { 'if-none-match': `W/${etag}, "x"` })).status, 304);
      const modified = first.headers.get('last-modified') ?? '';
      assert.ok(Date.parse(modified) > 0, 'Last-Modified is sent');
      // Dated per instance and to the second, it cannot say "unchanged": only the ETag decides.
      assert.equal((await fetchText('/pricing.md', { 'if-modified-since': modified })).status, 200);
      await staff.patch(`/api/v1/courses/${painting.id}`, { price: { amount: 5900, currency: 'EUR' } });
      const repriced = await fetchText('/pricing.md', { 'if-none-match': etag, 'if-modified-since': modified });
      assert.equal(repriced.status, 200, 'a change within the same second is not a 304');
      assert.notEqual(repriced.headers.get('etag'), etag);
      assert.ok(repriced.text.includes('| Oil Painting | €59.00 |'));
      const published = (await staff.post<Course>('/api/v1/courses', { title: 'Brand New' })).body;
      await publishWithALesson(staff, published.id);
      assert.ok((await fetchText('/llms.txt')).text.includes('[Brand New]'));
      assert.ok((await fetchText('/pricing.md')).text.includes('| Brand New | free |'));
    });

    test('every published priced public course of a small catalog is in pricing.md', async () => {
      await insertCourses(server, 30, (i) => `Priced ${i}`);
      const anonymous = apiClient(server.url);
      const courses: { title: string; price: { amount: number } | null }[] = [];
      for (let cursor: string | null = null, first = true; first || cursor; first = false) {
        const page: { body: { data: typeof courses; next_cursor: string | null } } = await anonymous.get(
          `/api/v1/courses?limit=100${cursor ? `&starting_after=${cursor}` : ''}`,
        );
        courses.push(...page.body.data);
        cursor = page.body.next_cursor;
      }
      await staff.post('/api/v1/courses', { title: 'Just to clear the cache' });
      const { text } = await fetchText('/pricing.md');
      for (const course of courses.filter((c) => c.price))
        assert.match(text, new RegExp(`^\\| ${course.title} \\| €[\\d.,]+ \\|`, 'm'), course.title);
    });
  });
}

describe('llms.txt stays bounded for a large catalog', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite', { DOCS_CACHE_SECONDS: '0' });
    await schoolWithPeople(server);
    await insertCourses(server, LLMS_TXT_LIMIT + 7);
  });
  after(() => server.close());

  test(`the newest ${LLMS_TXT_LIMIT} courses, the total, and how to page through the API`, async () => {
    const text = await (await fetch(`${server.url}/llms.txt`)).text();
    const courses = text.split('## Courses')[1]?.split('## Membership plans')[0] ?? '';
    const listed = courses.split('\n').filter((l) => l.startsWith('- [') && !l.startsWith('- [Course catalog]'));
    assert.equal(listed.length, LLMS_TXT_LIMIT);
    assert.ok(courses.includes(`[Bulk course ${LLMS_TXT_LIMIT + 6}]`), 'the newest is there');
    assert.ok(!courses.includes('[Bulk course 0]'), 'the oldest is not');
    assert.ok(
      courses.includes(
        `The newest ${LLMS_TXT_LIMIT} of ${LLMS_TXT_LIMIT + 7} courses are listed. Page through all of them with GET ${server.url}/api/v1/courses?limit=100`,
      ),
    );
  });
});

describe('pricing.md stays bounded for a large catalog', () => {
  test('at 100,000 courses: the newest LLMS_TXT_LIMIT, the total, and how to page through the API', async () => {
    const server = await startTestServer('sqlite', { DOCS_CACHE_SECONDS: '0' });
    try {
      await schoolWithPeople(server);
      const total = 100_000;
      // Straight into the table, 2,000 rows a statement: building the data through the API would take minutes.
      await insertCourses(server, total, (i) => `Many ${i}`, 2_000);
      const response = await fetch(`${server.url}/pricing.md`);
      const text = await response.text();
      const rows = text.split('\n').filter((l) => l.startsWith('| Many '));
      assert.equal(rows.length, LLMS_TXT_LIMIT);
      assert.ok(rows[0]?.startsWith(`| Many ${total - 1} |`), 'the newest first');
      assert.ok(
        text.includes(
          `The newest ${LLMS_TXT_LIMIT} of ${total} courses are listed. Every course with its price: GET ${server.url}/api/v1/courses?limit=100`,
        ),
      );
      assert.ok(Buffer.byteLength(text) < 20_000, `${Buffer.byteLength(text)} bytes`);
    } finally {
      await server.close();
    }
  });
});

describe('generated documents are kept for the cache time and dropped by a write', () => {
  test('a change made behind its back shows after the TTL; invalidate() shows it at once', async () => {
    const server = await startTestServer('sqlite');
    try {
      await schoolWithPeople(server);
      let now = new Date('2030-01-01T00:00:00Z');
      const documents = discoveryDocuments({
        db: server.database.db,
        clock: { now: () => now },
        baseUrl: server.url,
        school: schoolStore(),
        store: catalogStore(),
        ttlMs: 60_000,
        takesPayments: false,
        upcomingEvents: (limit) => server.services.areas.events.upcomingPublic(limit),
      });
      const before = await documents.llmsTxt();
      await insertCourses(server, 1, () => 'Sneaky course');
      assert.equal((await documents.llmsTxt()).etag, before.etag, 'kept while fresh');
      now = new Date(now.getTime() + 61_000);
      const after = await documents.llmsTxt();
      assert.ok(after.body.includes('Sneaky course'));
      assert.equal(after.lastModified.toISOString(), '2030-01-01T00:01:01.000Z', 'Last-Modified: when it changed');
      await insertCourses(server, 1, () => 'Second course');
      documents.invalidate();
      assert.ok((await documents.llmsTxt()).body.includes('Second course'));
    } finally {
      await server.close();
    }
  });
});
