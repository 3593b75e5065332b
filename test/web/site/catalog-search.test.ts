import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiClient, schoolWithPeople, tokenFor } from '../../support/api.ts';
import { CONTENT_SCOPES, publishWithALesson } from '../../support/course-content.ts';
import { engines } from '../../support/databases.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { WebClient } from '../../support/web-client.ts';

const mainOf = (page: string) => /<main id="main">([\s\S]*)<\/main>/.exec(page)?.[1] ?? '';
/** The titles of the cards on a catalog page, in order. */
const titlesOf = (page: string) =>
  [...mainOf(page).matchAll(/<h2><a [^>]*href="\/courses\/[^"]+">([^<]+)<\/a><\/h2>/g)].map((m) => m[1] ?? '');
const linkOf = (page: string, rel: 'next' | 'prev') =>
  new RegExp(`<a href="([^"]+)" rel="${rel}">`).exec(page)?.[1]?.replaceAll('&amp;', '&') ?? null;

for (const engine of engines) {
  describe(`the catalog's search (${engine})`, () => {
    let server: TestServer;
    let staff: ReturnType<typeof apiClient>;
    let visitor: WebClient;
    let lecturerId: string;

    const course = async (body: Record<string, unknown>, lesson?: string) => {
      const made = await staff.post<{ id: string }>('/api/v1/courses', body);
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const published = await publishWithALesson(staff, made.body.id, lesson);
      assert.equal(published.status, 200, JSON.stringify(published.body));
      return made.body.id;
    };

    before(async () => {
      server = await startTestServer(engine, { LIST_CACHE_MS: '0' });
      const people = await schoolWithPeople(server);
      staff = apiClient(
        server.url,
        await tokenFor(server, people.staff, `courses:read lecturers:write ${CONTENT_SCOPES}`),
      );
      visitor = new WebClient(server.url);
      const lecturer = await staff.post<{ id: string }>('/api/v1/lecturers', { name: 'Mirabel Ochre' });
      lecturerId = lecturer.body.id;
      await course(
        {
          title: 'Botanical Illustration',
          subtitle: 'Draw plants in pencil and watercolour',
          price: { amount: 3900, currency: 'EUR' },
          lecturer_ids: [lecturerId],
        },
        'Leaves and stems',
      );
      await course({ title: 'Watercolour Skies', description: "<script>alert('x')</script> Washes & glazes." });
      await course({ title: 'Figure Drawing' }, 'A watercolour study');
      await course({ title: 'Pottery' });
    });
    after(() => server.close());

    test('says how many courses it found for the words, best first, each with where they were found', async () => {
      const page = await visitor.get('/courses?q=watercolour');
      assert.equal(page.status, 200);
      const main = mainOf(page.text);
      assert.match(main, /<p class="catalog-count" role="status">3 courses for “watercolour”<\/p>/);
      assert.deepEqual(titlesOf(page.text), ['Watercolour Skies', 'Botanical Illustration', 'Figure Drawing']);
      assert.match(main, /<p class="snippet">Draw plants in pencil and <mark>watercolour<\/mark><\/p>/);
      assert.match(main, /<p class="snippet">.*A <mark>watercolour<\/mark> study.*<\/p>/);
      assert.doesNotMatch(
        /<li class="card">.*?Watercolour Skies.*?<\/li>/s.exec(main)?.[0] ?? '',
        /class="snippet"/,
        'a title match is the card title itself: no snippet repeats it',
      );
      assert.match(main, /<p class="price">€39\.00<\/p>/);
      const one = await visitor.get('/courses?q=pottery');
      assert.match(mainOf(one.text), /1 course for “pottery”/);
    });

    test("finds by a lecturer's name and a lesson title; keeps the other filters", async () => {
      assert.deepEqual(titlesOf((await visitor.get('/courses?q=ochre')).text), ['Botanical Illustration']);
      assert.deepEqual(titlesOf((await visitor.get('/courses?q=stems')).text), ['Botanical Illustration']);
      const paid = await visitor.get(`/courses?q=watercolour&price=paid&lecturer=${lecturerId}`);
      assert.deepEqual(titlesOf(paid.text), ['Botanical Illustration']);
      assert.match(mainOf(paid.text), /1 course for “watercolour”/);
      assert.match(paid.text, /<input id="f-q" name="q" type="search" value="watercolour"/);
      assert.match(paid.text, /<option value="paid" selected>Paid<\/option>/);
      assert.deepEqual(titlesOf((await visitor.get('/courses?q=watercolour&price=free')).text), [
        'Watercolour Skies',
        'Figure Drawing',
      ]);
    });

    test('escapes what a course says: a <script> in a description is text, and only <mark> is markup', async () => {
      await course({
        title: 'Glazing',
        description: '<script>alert("glaze")</script> Glaze <b>layers</b> & more glaze.',
      });
      const page = await visitor.get('/courses?q=glaze');
      const main = mainOf(page.text);
      const snippet = /<p class="snippet">(.*?)<\/p>/.exec(main)?.[1] ?? '';
      assert.match(snippet, /<mark>Glaze<\/mark>/);
      assert.match(snippet, /&amp; more <mark>glaze<\/mark>/);
      assert.doesNotMatch(snippet, /<(?!\/?mark>)/, 'no tag but <mark>');
      assert.doesNotMatch(main, /<script>alert/);
    });

    test('an empty search says so and offers a way on', async () => {
      const none = await visitor.get('/courses?q=quokka');
      assert.equal(none.status, 200);
      const main = mainOf(none.text);
      assert.match(main, /<div class="empty" role="status"><p>No courses match “quokka”\.<\/p>/);
      assert.match(main, /<a href="\/courses">see all courses<\/a>/);
      assert.doesNotMatch(main, /search every course/, 'no filters to drop');
      const filtered = mainOf((await visitor.get('/courses?q=pottery&price=paid')).text);
      assert.match(filtered, /No courses match “pottery” with these filters\./);
      assert.match(filtered, /<a href="\/courses\?q=pottery">search every course<\/a>/);
      const odd = await visitor.get(`/courses?q=${encodeURIComponent('"&<>')}`);
      assert.equal(odd.status, 200, 'a search of no words finds nothing, without an error');
      assert.match(mainOf(odd.text), /No courses match “&quot;&amp;&lt;&gt;”\./);
    });

    test('pages through the ranked results with Next and Previous, each course once', async () => {
      for (let i = 0; i < 13; i++) await course({ title: `Kiln ${i}` });
      await course({ title: 'Raku' }, 'Firing the kiln');
      const seen: string[] = [];
      const pages: string[] = [];
      let path: string | null = '/courses?q=kiln';
      while (path) {
        const page = await visitor.get(path);
        assert.equal(page.status, 200, path);
        assert.match(mainOf(page.text), /14 courses for “kiln”/, 'the count on every page');
        pages.push(path);
        seen.push(...titlesOf(page.text));
        path = linkOf(page.text, 'next');
      }
      assert.equal(pages.length, 2);
      assert.deepEqual(seen, [...Array.from({ length: 13 }, (_, i) => `Kiln ${12 - i}`), 'Raku']);
      const second = await visitor.get(pages[1] ?? '');
      const previous = linkOf(second.text, 'prev');
      assert.match(previous ?? '', /^\/courses\?q=kiln&before=rank_/);
      const back = await visitor.get(previous ?? '');
      assert.deepEqual(titlesOf(back.text), seen.slice(0, 12), 'Previous shows the first page again');
      assert.equal(linkOf(back.text, 'prev'), null, 'and nothing comes before it');
      assert.equal(linkOf(back.text, 'next'), pages[1]);
      assert.equal((await visitor.get('/courses?q=kiln&after=rank_nonsense')).status, 400);
      const plain = /after=(crs_[0-9a-z]{26})/.exec((await visitor.get('/courses')).text)?.[1];
      assert.ok(plain, "the catalog's own Next link");
      assert.equal(
        (await visitor.get(`/courses?q=kiln&after=${plain}`)).status,
        400,
        "the catalog's cursor is not the search's",
      );
    });
  });
}
