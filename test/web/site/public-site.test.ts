import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiClient, createUser, type Person, tokenFor } from '../../support/api.ts';
import { publishWithALesson } from '../../support/course-content.ts';
import { engines } from '../../support/databases.ts';
import { enroll, publicSiteSchool } from '../../support/public-site.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { WebClient } from '../../support/web-client.ts';

type School = Awaited<ReturnType<typeof publicSiteSchool>>;

/** The JSON-LD blocks of a page, parsed. */
const jsonLd = (page: string) =>
  [...page.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map(
    (m) => JSON.parse(m[1] ?? '') as Record<string, unknown>,
  );
const meta = (page: string, property: string) =>
  new RegExp(`<meta (?:property|name)="${property}" content="([^"]*)">`).exec(page)?.[1];
const mainOf = (page: string) => /<main id="main">([\s\S]*)<\/main>/.exec(page)?.[1] ?? '';

for (const engine of engines) {
  describe(`the public website (${engine})`, () => {
    let server: TestServer;
    let school: School;
    let visitor: WebClient;
    let student: WebClient;
    let staffViewer: WebClient;
    let studentPerson: Person;

    before(async () => {
      // Without the micro-cache, so each request shows the data as it is now (its own test below turns it on).
      server = await startTestServer(engine, { LIST_CACHE_MS: '0' });
      school = await publicSiteSchool(server);
      studentPerson = school.people.student;
      visitor = new WebClient(server.url);
      student = new WebClient(server.url);
      const login = { email: studentPerson.email, password: studentPerson.password };
      assert.equal((await student.submit('/signin', '/signin', login)).status, 303);
      staffViewer = new WebClient(server.url);
      const staffLogin = { email: school.people.staff.email, password: school.people.staff.password };
      assert.equal((await staffViewer.submit('/signin', '/signin', staffLogin)).status, 303);
    });
    after(() => server.close());

    test('the catalog lists exactly the published public courses, newest first, with prices', async () => {
      const page = await visitor.get('/courses');
      assert.equal(page.status, 200);
      const titles = [
        ...mainOf(page.text).matchAll(/<h2><a class="card-link" href="\/courses\/([a-z0-9-]+)">([^<]+)<\/a><\/h2>/g),
      ].map((m) => m[2]);
      assert.deepEqual(titles, ['Closed Course', 'Free Sketching', 'Oil Painting']);
      assert.match(page.text, /<p class="price">€49\.00<\/p>/);
      assert.match(page.text, /<p class="price">Free<\/p>/);
      assert.match(
        page.text,
        /<h2><a class="card-link" href="\/courses\/oil-painting">Oil Painting<\/a><\/h2><p>Colour &amp; light<\/p>/,
      );
      for (const hidden of ['Unlisted Course', 'Private Course', 'Draft Course'])
        assert.ok(!page.text.includes(hidden), hidden);
      // The same list for signed-in students and staff: it is the public catalog.
      for (const client of [student, staffViewer]) {
        const theirs = mainOf((await client.get('/courses')).text);
        for (const hidden of ['Unlisted Course', 'Private Course', 'Draft Course']) assert.ok(!theirs.includes(hidden));
      }
    });

    test('catalog search, lecturer and price filters are plain GET parameters', async () => {
      const titles = async (query: string) =>
        [...mainOf((await visitor.get(`/courses?${query}`)).text).matchAll(/<h2><a [^>]+>([^<]+)<\/a>/g)].map(
          (m) => m[1],
        );
      assert.deepEqual(await titles('q=sketching'), ['Free Sketching']);
      assert.deepEqual(await titles('price=paid'), ['Oil Painting']);
      assert.deepEqual(await titles('price=free'), ['Closed Course', 'Free Sketching']);
      assert.deepEqual(await titles(`lecturer=${school.lecturers.ada.id}`), ['Free Sketching', 'Oil Painting']);
      assert.deepEqual(await titles(`lecturer=${school.lecturers.ada.id}&price=free`), ['Free Sketching']);
      assert.deepEqual(await titles('q=nothing-like-this'), []);
      assert.match((await visitor.get('/courses?q=nothing-like-this')).text, /No courses match “nothing-like-this”/);
      // The form keeps what was asked; nonsense filters are ignored rather than refused.
      const kept = await visitor.get(`/courses?q=oil&price=paid&lecturer=${school.lecturers.ada.id}`);
      assert.match(kept.text, /<input id="f-q" name="q" type="search" value="oil"/);
      assert.match(kept.text, /<option value="paid" selected>Paid<\/option>/);
      assert.match(kept.text, new RegExp(`<option value="${school.lecturers.ada.id}" selected>Ada Painter</option>`));
      assert.ok(!kept.text.includes('Archie Gone'), 'archived lecturers are not offered');
      assert.equal((await visitor.get('/courses?price=cheap&lecturer=nobody')).status, 200);
      // The API's list takes the same price filter.
      const paid = await apiClient(server.url).get<{ data: { title: string }[] }>('/api/v1/courses?price=paid');
      assert.deepEqual(
        paid.body.data.map((c) => c.title),
        ['Oil Painting'],
      );
      assert.equal((await apiClient(server.url).get('/api/v1/courses?price=cheap')).status, 400);
      assert.equal((await visitor.get('/courses?after=not-a-cursor')).status, 400);
    });

    test('pagination: Next and Previous links walk the catalog both ways', async () => {
      const made: string[] = [];
      for (let i = 0; i < 14; i++) {
        const c = await school.staff.post<{ id: string; title: string }>('/api/v1/courses', { title: `Paged ${i}` });
        await publishWithALesson(school.staff, c.body.id);
        made.push(c.body.title);
      }
      const seen: string[] = [];
      let path: string | null = '/courses?q=paged';
      const forward: string[] = [];
      while (path) {
        forward.push(path);
        const page = await visitor.get(path);
        seen.push(...[...mainOf(page.text).matchAll(/<h2><a [^>]+>([^<]+)<\/a>/g)].map((m) => m[1] ?? ''));
        path = /<a href="([^"]+)" rel="next">/.exec(page.text)?.[1]?.replaceAll('&amp;', '&') ?? null;
      }
      assert.deepEqual(seen, [...made].reverse(), 'every course once, newest first');
      assert.equal(forward.length, 2);
      const second = await visitor.get(forward[1] ?? '');
      const previous = /<a href="([^"]+)" rel="prev">/.exec(second.text)?.[1]?.replaceAll('&amp;', '&') ?? '';
      assert.match(previous, /^\/courses\?q=paged&before=rank_/, "a search's own cursor");
      const back = await visitor.get(previous);
      const titles = [...mainOf(back.text).matchAll(/<h2><a [^>]+>([^<]+)<\/a>/g)].map((m) => m[1]);
      assert.deepEqual(titles, [...made].reverse().slice(0, 12), 'Previous shows the first page again');
      assert.doesNotMatch(back.text, /rel="prev"/, 'and nothing is newer than the first page');
      assert.match(back.text, /rel="next"/);
      for (const c of (await school.staff.get<{ data: { id: string }[] }>('/api/v1/courses?q=paged&limit=100')).body
        .data)
        await school.staff.post(`/api/v1/courses/${c.id}/archive`);
    });

    test('a course page: description, lecturers, outline with previews, price, OG tags and schema.org Course', async () => {
      const page = await visitor.get('/courses/oil-painting');
      assert.equal(page.status, 200);
      assert.match(page.text, /<h1>Oil Painting<\/h1>/);
      assert.match(page.text, /<p>Paint with oils\.<\/p>\s*<p>From the first &lt;stroke&gt;\.<\/p>/);
      assert.match(page.text, new RegExp(`<a href="/lecturers/${school.lecturers.ada.id}">Ada Painter</a>`));
      assert.ok(!page.text.includes('Archie Gone'), 'an archived lecturer is left out');
      assert.ok(!page.text.includes('ada@school.test'), 'no contact address on the public site');
      assert.match(page.text, /<p class="price">€49\.00<\/p>/);
      assert.match(
        page.text,
        /<button type="button" disabled>Buy this course<\/button><\/p><p class="note">This school does not take payments yet\./,
      );
      assert.match(page.text, /<div class="course-media">.*src="https:\/\/images\.school\.test\/oil\.jpg"/);
      assert.equal(meta(page.text, 'og:title'), 'Oil Painting');
      assert.equal(meta(page.text, 'og:description'), 'Colour &amp; light');
      assert.equal(meta(page.text, 'og:url'), `${server.url}/courses/oil-painting`);
      assert.equal(meta(page.text, 'og:image'), 'https://images.school.test/oil.jpg');
      assert.equal(meta(page.text, 'og:site_name'), 'Test Academy');
      assert.match(page.text, new RegExp(`<link rel="canonical" href="${server.url}/courses/oil-painting">`));
      assert.equal(meta(page.text, 'robots'), undefined);
      const [course] = jsonLd(page.text);
      assert.equal(course?.['@context'], 'https://schema.org');
      assert.equal(course?.['@type'], 'Course');
      assert.equal(course?.name, 'Oil Painting');
      assert.equal(course?.description, 'Paint with oils. From the first <stroke>.');
      assert.equal(course?.url, `${server.url}/courses/oil-painting`);
      assert.deepEqual(course?.provider, { '@type': 'Organization', name: 'Test Academy', url: server.url });
      assert.deepEqual(course?.offers, {
        '@type': 'Offer',
        category: 'Paid',
        price: '49.00',
        priceCurrency: 'EUR',
        availability: 'https://schema.org/InStock',
        url: `${server.url}/courses/oil-painting`,
      });
      assert.deepEqual(course?.instructor, [
        { '@type': 'Person', name: 'Ada Painter', url: `${server.url}/lecturers/${school.lecturers.ada.id}` },
      ]);
      assert.ok(!page.text.includes('<stroke>'), 'JSON-LD escapes "<" so the data cannot end the script');

      const free = await visitor.get('/courses/free-sketching');
      assert.match(
        free.text,
        /<details open><summary><span class="title">Basics<\/span><span class="meta">2 lessons · 20 min<\/span><\/summary><ol>/,
      );
      const { preview, locked, draftLesson } = school.lessons;
      assert.match(
        free.text,
        new RegExp(
          `<span class="lesson-title"><a href="/courses/free-sketching/lessons/${preview.id}">Holding the pencil</a></span> <strong class="badge">Free preview</strong> <span class="meta">text, 10 min</span>`,
        ),
      );
      assert.match(
        free.text,
        /<span class="lesson-title">Shading<\/span> <span class="meta">text, 10 min<\/span><\/li>/,
      );
      assert.ok(!free.text.includes(`lessons/${locked.id}`), 'a lesson that opens on enrolling is not a link');
      assert.ok(!free.text.includes(draftLesson.id), 'unpublished lessons are not in the outline');
      assert.match(free.text, /2 lessons, 20 min in all/);
      const [sketch] = jsonLd(free.text);
      assert.equal((sketch?.offers as Record<string, unknown> | undefined)?.category, 'Free');
      assert.equal(sketch?.isAccessibleForFree, true);
    });

    test('the enroll button: sign in first, then a CSRF form; closed enrollment says so', async () => {
      const anonymous = await visitor.get('/courses/free-sketching');
      assert.match(
        anonymous.text,
        /<a class="button" href="\/signin\?return_to=%2Fcourses%2Ffree-sketching">Sign in to enroll<\/a>/,
      );
      assert.doesNotMatch(anonymous.text, /name="_csrf"/);
      const signedIn = await student.get('/courses/free-sketching');
      assert.match(
        signedIn.text,
        /<form method="post" action="\/courses\/free-sketching\/enroll"><input type="hidden" name="_csrf" value="[^"]+"><p><button type="submit">Enroll for free<\/button><\/p><\/form>/,
      );
      assert.equal(signedIn.headers.get('cache-control'), 'private, no-store');
      const closed = await student.get('/courses/closed-course');
      assert.match(closed.text, /Enrollment in this course is closed\./);
      assert.doesNotMatch(closed.text, /Enroll for free|Sign in to enroll/);
      // Signing in from the course page comes back to it.
      const back = await new WebClient(server.url).submit('/signin?return_to=%2Fcourses%2Ffree-sketching', '/signin', {
        email: studentPerson.email,
        password: studentPerson.password,
        return_to: '/courses/free-sketching',
      });
      assert.equal(back.location, '/courses/free-sketching');
    });

    test('unlisted courses open by link (noindex); private and draft ones are 404 as the API decides', async () => {
      const unlisted = await visitor.get('/courses/unlisted-course');
      assert.equal(unlisted.status, 200);
      assert.equal(meta(unlisted.text, 'robots'), 'noindex');
      assert.match(unlisted.text, /This course is unlisted/);
      const api = apiClient(server.url);
      for (const slug of ['private-course', 'draft-course', 'no-such-course']) {
        const page = await visitor.get(`/courses/${slug}`);
        assert.equal(page.status, 404, slug);
        assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
        assert.equal((await api.get(`/api/v1/courses/${slug}`)).status, 404, `the API agrees on ${slug}`);
      }
      assert.equal((await student.get('/courses/private-course')).status, 404);
      await enroll(server, studentPerson, school.courses.hidden.id);
      const enrolled = await student.get('/courses/private-course');
      assert.equal(enrolled.status, 200, 'an enrolled student sees their private course');
      assert.match(enrolled.text, /This course is private/);
      const draft = await staffViewer.get('/courses/draft-course');
      assert.equal(draft.status, 200, 'staff see drafts, marked');
      assert.match(draft.text, /This course is draft: only staff can see this page\./);
      assert.equal(meta(draft.text, 'robots'), 'noindex');
    });

    test('lessons: a preview is readable by anyone, other lessons say to enroll, foreign or draft ones are 404', async () => {
      const { preview, locked, draftLesson } = school.lessons;
      const open = await visitor.get(`/courses/free-sketching/lessons/${preview.id}`);
      assert.equal(open.status, 200);
      assert.match(open.text, /<h1>Holding the pencil<\/h1>/);
      assert.match(open.text, /<p>Holding the pencil body text\.<\/p>\s*<p>Second paragraph\.<\/p>/);
      const closed = await visitor.get(`/courses/free-sketching/lessons/${locked.id}`);
      assert.equal(closed.status, 200);
      assert.match(closed.text, /Enroll in <a href="\/courses\/free-sketching">Free Sketching<\/a> to open it\./);
      assert.ok(!closed.text.includes('Shading body text'), 'the body of a locked lesson is not on the page');
      assert.equal(meta(closed.text, 'robots'), 'noindex');
      assert.equal((await visitor.get(`/courses/free-sketching/lessons/${draftLesson.id}`)).status, 404);
      assert.equal((await visitor.get(`/courses/oil-painting/lessons/${preview.id}`)).status, 404, 'another course');
      assert.equal((await visitor.get(`/courses/private-course/lessons/${preview.id}`)).status, 404);
      assert.equal((await visitor.get('/courses/free-sketching/lessons/les_nope')).status, 404);
    });

    test('Markdown fields render through the one renderer on the public pages, safely', async () => {
      const markdown =
        'Start with **hatching**, then [shade](https://example.org/shade).\n\n- light\n- dark\n\n<script>alert(1)</script>';
      const course = await school.staff.post<{ id: string; slug: string }>('/api/v1/courses', {
        title: 'Hatching',
        slug: 'hatching',
        description: markdown,
      });
      await publishWithALesson(school.staff, course.body.id);
      await school.staff.patch(`/api/v1/lecturers/${school.lecturers.ada.id}`, { bio: 'Paints **every** day.' });
      const page = await visitor.get('/courses/hatching');
      assert.equal(page.status, 200);
      assert.match(page.text, /<p>Start with <strong>hatching<\/strong>, then <a href="https:\/\/example\.org\/shade"/);
      assert.match(page.text, /<ul>\s*<li>light<\/li>\s*<li>dark<\/li>\s*<\/ul>/);
      assert.ok(!page.text.includes('**'), 'no raw Markdown on the page');
      assert.ok(!page.text.includes('<script>alert'), 'raw HTML is shown as text, never run');
      assert.match(page.text, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
      // Link previews and search engines read the words, not the markup.
      assert.match(meta(page.text, 'og:description') ?? '', /^Start with hatching, then shade\. light dark/);
      assert.match(String(jsonLd(page.text)[0]?.description), /^Start with hatching, then shade\./);
      const ada = await visitor.get(`/lecturers/${school.lecturers.ada.id}`);
      assert.match(ada.text, /<p>Paints <strong>every<\/strong> day\.<\/p>/);
      const list = await visitor.get('/lecturers');
      assert.match(list.text, /<p>Paints every day\.<\/p>/, 'a card shows the words on one line');
      await school.staff.patch(`/api/v1/lecturers/${school.lecturers.ada.id}`, { bio: 'Paints every day.' });
    });

    test('lecturers: the list and each profile with their courses; archived ones are 404', async () => {
      const list = await visitor.get('/lecturers');
      assert.match(list.text, new RegExp(`<h2><a href="/lecturers/${school.lecturers.ada.id}">Ada Painter</a></h2>`));
      assert.ok(!list.text.includes('Archie Gone'));
      const ada = await visitor.get(`/lecturers/${school.lecturers.ada.id}`);
      assert.equal(ada.status, 200);
      assert.match(ada.text, /<p class="lead">Oil painter<\/p>/);
      assert.match(ada.text, /<p>Paints every day\.<\/p>/);
      const taught = [
        ...mainOf(ada.text).matchAll(/<h3><a class="card-link" href="\/courses\/[^"]+">([^<]+)<\/a><\/h3>/g),
      ].map((m) => m[1]);
      assert.deepEqual(taught, ['Free Sketching', 'Oil Painting']);
      assert.equal(meta(ada.text, 'og:type'), 'profile');
      assert.equal((await visitor.get(`/lecturers/${school.lecturers.gone.id}`)).status, 404);
      assert.equal((await visitor.get('/lecturers/not-an-id')).status, 404);
    });

    test('posts list and school pages under /p/: published only, drafts 404', async () => {
      const posts = await visitor.get('/posts');
      assert.match(posts.text, /<h2><a href="\/posts\/spring-term">Spring term<\/a><\/h2>/);
      assert.match(posts.text, /New courses this spring\./);
      for (const hidden of ['Draft post', 'Members only']) assert.ok(!posts.text.includes(hidden), hidden);
      const post = await visitor.get('/posts/spring-term');
      assert.equal(meta(post.text, 'og:type'), 'article');
      assert.equal(meta(post.text, 'og:description'), 'New courses this spring.');
      assert.equal(meta(post.text, 'og:url'), `${server.url}/posts/spring-term`);
      assert.equal(post.headers.get('cache-control'), 'public, no-cache');
      const about = await visitor.get('/p/about');
      assert.equal(about.status, 200);
      assert.match(about.text, /<h1>About<\/h1>\s*<p>We teach painting\.<\/p>/);
      assert.equal(meta(about.text, 'description'), 'About of the school');
      assert.equal((await visitor.get('/p/coming-soon')).status, 404);
      assert.equal((await student.get('/p/coming-soon')).status, 404);
      const preview = await staffViewer.get('/p/coming-soon');
      assert.equal(preview.status, 200, 'staff preview a draft page');
      assert.match(preview.text, /This page is a draft/);
      // A page's slug cannot shadow a route of the site: pages live under /p/.
      const shadow = await school.staff.post<{ id: string }>('/api/v1/pages', {
        title: 'Courses',
        slug: 'courses',
        draft_body: 'x',
      });
      await school.staff.post(`/api/v1/pages/${shadow.body.id}/publish`);
      assert.match((await visitor.get('/courses')).text, /<form class="search"/);
      assert.match((await visitor.get('/p/courses')).text, /<h1>Courses<\/h1>\s*<p>x<\/p>/);
    });

    test('home: the hero, then featured (most enrolled) courses, lecturers and latest posts', async () => {
      const other = await createUser(server, 'student', 'Second Student');
      await enroll(server, other, school.courses.oil.id);
      await enroll(server, studentPerson, school.courses.oil.id);
      await enroll(server, other, school.courses.sketching.id);
      await enroll(server, other, school.courses.unlisted.id);
      const home = await visitor.get('/');
      assert.equal(home.status, 200);
      assert.match(home.text, /<title>Test Academy<\/title>/);
      assert.match(
        home.text,
        /<h1 id="hero-heading">Test Academy<\/h1>/,
        "the school's name until a promise is written",
      );
      assert.match(home.text, /<p class="lead">Painting and languages, taught well\.<\/p>/);
      assert.match(home.text, /<a class="button large" href="\/courses">Browse the courses<\/a>/);
      const section = (id: string) =>
        new RegExp(`<section class="band" aria-labelledby="${id}">([\\s\\S]*?)</section>`).exec(home.text)?.[1] ?? '';
      const titles = (html: string) => [...html.matchAll(/<h3><a [^>]*>([^<]+)<\/a><\/h3>/g)].map((m) => m[1]);
      assert.deepEqual(titles(section('featured-heading')), ['Oil Painting', 'Free Sketching'], 'most enrolled first');
      assert.match(section('lecturers-heading'), /Ada Painter/);
      assert.deepEqual(titles(section('posts-heading')), ['Spring term']);
      assert.equal(section('newest-heading'), '', 'new courses only when the owner asks for them');
      assert.equal(jsonLd(home.text)[0]?.['@type'], 'EducationalOrganization');
      assert.match((await student.get('/')).text, /Welcome( back)?, Stu Dent\./);
    });

    test("home: the owner's promise, button, parts in their order and featured courses", async () => {
      await school.staff.patch('/api/v1/appearance', {
        home: {
          headline: 'Paint what you see',
          text: 'Small classes, real feedback.',
          call_to_action: { label: 'Start with oils', url: '/courses/oil-painting' },
          sections: ['posts', 'new_courses', 'featured_courses'],
          featured_course_ids: [school.courses.closed.id, school.courses.draft.id],
        },
      });
      const home = (await visitor.get('/')).text;
      assert.match(home, /<p class="eyebrow">Test Academy<\/p><h1 id="hero-heading">Paint what you see<\/h1>/);
      assert.match(home, /<p class="lead">Small classes, real feedback\.<\/p>/);
      assert.match(home, /<a class="button large" href="\/courses\/oil-painting">Start with oils<\/a>/);
      const order = [...home.matchAll(/<section class="band" aria-labelledby="([a-z]+)-heading">/g)].map((m) => m[1]);
      assert.deepEqual(order, ['posts', 'newest', 'featured'], 'in the order chosen, lecturers left out');
      const featured = /aria-labelledby="featured-heading">([\s\S]*?)<\/section>/.exec(home)?.[1] ?? '';
      assert.match(featured, /Closed Course/);
      assert.doesNotMatch(featured, /Draft Course/, 'a draft is never featured');
      const newest = /aria-labelledby="newest-heading">([\s\S]*?)<\/section>/.exec(home)?.[1] ?? '';
      assert.match(newest, /Closed Course/);
      await school.staff.patch('/api/v1/appearance', {
        home: {
          headline: '',
          text: '',
          call_to_action: { label: 'Browse the courses', url: '/courses' },
          sections: ['featured_courses', 'lecturers', 'events', 'posts'],
          featured_course_ids: [],
        },
      });
    });

    test('sitemap.xml lists exactly the public items; robots.txt names it and keeps crawlers out of the rest', async () => {
      const sitemap = await visitor.get('/sitemap.xml');
      assert.equal(sitemap.status, 200);
      assert.equal(sitemap.headers.get('content-type'), 'application/xml; charset=utf-8');
      assert.match(
        sitemap.text,
        /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/,
      );
      const locs = [...sitemap.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => (m[1] ?? '').slice(server.url.length));
      const publicCourses = (
        await apiClient(server.url).get<{ data: { slug: string }[] }>('/api/v1/courses?limit=100')
      ).body.data.map((c) => `/courses/${c.slug}`);
      assert.deepEqual(
        locs.filter((l) => l.startsWith('/courses/')).sort(),
        publicCourses.sort(),
        'the courses the API lists anonymously, no more',
      );
      for (const l of [
        '/',
        '/courses',
        '/lecturers',
        '/posts',
        '/p/about',
        '/posts/spring-term',
        `/lecturers/${school.lecturers.ada.id}`,
      ])
        assert.ok(locs.includes(l), l);
      for (const l of [
        '/courses/unlisted-course',
        '/courses/private-course',
        '/courses/draft-course',
        '/p/coming-soon',
        '/posts/draft-post',
        '/posts/members-only',
        `/lecturers/${school.lecturers.gone.id}`,
      ])
        assert.ok(!locs.includes(l), l);
      const etag = sitemap.headers.get('etag') ?? '';
      assert.equal((await visitor.request('GET', '/sitemap.xml', { headers: { 'if-none-match': etag } })).status, 304);

      const robots = await visitor.get('/robots.txt');
      assert.equal(robots.status, 200);
      assert.equal(robots.headers.get('content-type'), 'text/plain; charset=utf-8');
      const lines = robots.text.split('\n');
      for (const line of [
        'User-agent: *',
        'Allow: /',
        'Disallow: /api/',
        'Disallow: /oauth/',
        'Disallow: /account',
        'Disallow: /signin',
        'Disallow: /admin',
        'Disallow: /learn',
        'Disallow: /checkout/',
        'Disallow: /orders',
        `Sitemap: ${server.url}/sitemap.xml`,
      ])
        assert.ok(lines.includes(line), line);
    });

    test('the default menu and footer link what the school has: its pages, and its plans once it offers one', async () => {
      const navOf = (page: string, name: string) =>
        [
          ...(new RegExp(`<nav aria-label="${name}"[^>]*>([\\s\\S]*?)</nav>`).exec(page)?.[1] ?? '').matchAll(
            /<a href="([^"]+)"[^>]*>([^<]+)<\/a>/g,
          ),
        ].map((m) => `${m[2]} ${m[1]}`);
      const before = await visitor.get('/courses');
      assert.deepEqual(navOf(before.text, 'Site'), [
        'Courses /courses',
        'Events /events',
        'Lecturers /lecturers',
        'Posts /posts',
        'About /p/about',
      ]);
      const footer = navOf(before.text, 'Footer');
      assert.ok(footer.includes('About /p/about'), footer.join(', '));
      assert.ok(!footer.some((link) => link.includes('coming-soon')), 'a draft page is not linked');
      assert.ok(!footer.some((link) => link.includes('/plans')), 'no plans while there are none');

      const plans = apiClient(
        server.url,
        await tokenFor(server, school.people.staff, 'membership_plans:read membership_plans:write'),
      );
      const plan = await plans.post<{ id: string }>('/api/v1/membership-plans', { name: 'Studio pass' });
      assert.equal(plan.status, 201);
      const after = await visitor.get('/courses');
      assert.ok(navOf(after.text, 'Site').includes('Plans /plans'), 'a write through the API shows at once');
      assert.ok(navOf(after.text, 'Footer').includes('Plans /plans'));
      assert.ok(navOf((await student.get('/learn')).text, 'Footer').includes('Plans /plans'), 'on every page');
      await plans.post(`/api/v1/membership-plans/${plan.body.id}/archive`);
      assert.ok(!navOf((await visitor.get('/courses')).text, 'Site').includes('Plans /plans'));

      // The owner's own footer replaces the default one; an empty list brings the default back.
      await school.staff.patch('/api/v1/appearance', { footer: [{ label: 'Imprint', url: '/p/about' }] });
      assert.deepEqual(navOf((await visitor.get('/courses')).text, 'Footer'), ['Imprint /p/about']);
      await school.staff.patch('/api/v1/appearance', { footer: [] });
      assert.ok(navOf((await visitor.get('/courses')).text, 'Footer').includes('About /p/about'));
    });

    test("the school's appearance: its colours in /assets/theme.css, its logo and menu on every page", async () => {
      await school.staff.patch('/api/v1/appearance', {
        colors: { primary: '#7c2d12' },
        fonts: { heading: 'Georgia' },
        logo_url: 'https://images.school.test/logo.png',
        navigation: [
          { label: 'Catalog', url: '/courses' },
          { label: 'About us', url: '/p/about' },
        ],
        custom_css: '.card { border-width: 2px; }',
      });
      const page = await visitor.get('/courses');
      assert.match(
        page.text,
        /<a class="brand" href="\/"><img src="https:\/\/images\.school\.test\/logo\.png" alt="Test Academy" class="logo"><\/a>/,
      );
      assert.match(
        page.text,
        /<nav aria-label="Site" class="site-nav"><ul><li><a href="\/courses" aria-current="page">Catalog<\/a><\/li><li><a href="\/p\/about">About us<\/a><\/li><\/ul><\/nav>/,
      );
      assert.doesNotMatch(page.text, /style=/, 'no inline styles: the CSP allows only stylesheets of this origin');
      const link = /<link rel="stylesheet" href="(\/assets\/theme\.css\?v=[^"]+)">/.exec(page.text)?.[1] ?? '';
      const theme = await visitor.get(link);
      assert.equal(theme.status, 200);
      assert.equal(theme.headers.get('content-type'), 'text/css; charset=utf-8');
      assert.equal(theme.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.match(theme.text, /--primary: #7c2d12;/);
      assert.match(
        theme.text,
        /--heading-font: Georgia, "DejaVu Serif", "Liberation Serif", "Times New Roman", serif;/,
      );
      assert.match(theme.text, /\.card \{ border-width: 2px; \}/);
      const plain = await visitor.get('/assets/theme.css');
      assert.equal(plain.headers.get('cache-control'), 'public, no-cache');
      const etag = plain.headers.get('etag') ?? '';
      assert.equal(
        (await visitor.request('GET', '/assets/theme.css', { headers: { 'if-none-match': etag } })).status,
        304,
      );
      await school.staff.patch('/api/v1/appearance', { colors: { primary: '#1d4ed8' } });
      const changed = /<link rel="stylesheet" href="(\/assets\/theme\.css\?v=[^"]+)">/.exec(
        (await visitor.get('/courses')).text,
      )?.[1];
      assert.notEqual(changed, link, 'a change of colours is a new stylesheet URL');
    });

    test("the school's icon: its initial in its primary colour, linked from every page, also at /favicon.ico", async () => {
      await school.staff.patch('/api/v1/appearance', { colors: { primary: '#7c2d12' } });
      for (const path of ['/', '/courses/oil-painting', '/signin', '/no-such-page']) {
        const page = await visitor.request('GET', path, { headers: { accept: 'text/html' } });
        assert.match(page.text, /<link rel="icon" href="\/favicon\.svg" type="image\/svg\+xml">/, path);
      }
      for (const path of ['/favicon.svg', '/favicon.ico']) {
        const icon = await visitor.get(path);
        assert.equal(icon.status, 200, path);
        assert.equal(icon.headers.get('content-type'), 'image/svg+xml', path);
        assert.match(icon.text, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
        assert.match(icon.text, /fill="#7c2d12"/, 'the primary colour');
        assert.match(icon.text, />T<\/text><\/svg>$/, "the school's initial");
        assert.doesNotMatch(icon.text, /style/, 'no inline style: the CSP admits none');
        const etag = icon.headers.get('etag') ?? '';
        assert.equal((await visitor.request('GET', path, { headers: { 'if-none-match': etag } })).status, 304);
      }
      await school.staff.patch('/api/v1/appearance', { colors: { primary: '#1d4ed8' } });
      assert.match((await visitor.get('/favicon.svg')).text, /fill="#1d4ed8"/, 'a new colour is a new icon');
    });

    test('signed-out pages carry an ETag and answer 304; signed-in pages are never stored', async () => {
      const page = await visitor.get('/courses/oil-painting');
      assert.equal(page.headers.get('cache-control'), 'public, no-cache');
      // A signed-in visitor sees another page, and a compressed answer is another body (http/compression.ts).
      assert.equal(page.headers.get('vary'), 'Cookie, accept-encoding');
      const etag = page.headers.get('etag') ?? '';
      assert.match(etag, /^"[\w-]{27}"$/);
      const again = await visitor.request('GET', '/courses/oil-painting', { headers: { 'if-none-match': etag } });
      assert.equal(again.status, 304);
      assert.equal(again.text, '');
      await school.staff.patch(`/api/v1/courses/${school.courses.oil.id}`, { subtitle: 'Colour, light and shade' });
      const changed = await visitor.request('GET', '/courses/oil-painting', { headers: { 'if-none-match': etag } });
      assert.equal(changed.status, 200);
      assert.match(changed.text, /Colour, light and shade/);
      const mine = await student.get('/courses/oil-painting');
      assert.equal(mine.headers.get('cache-control'), 'private, no-store');
      assert.equal(mine.headers.get('etag'), null);
    });
  });
}

describe('signed-out pages share the micro-cache, and a write clears it', () => {
  test('a hit is served from the cache; a change through the API shows at once', async () => {
    const server = await startTestServer(engines[0] ?? 'sqlite', { LIST_CACHE_MS: '60000' });
    try {
      const school = await publicSiteSchool(server);
      const visitor = new WebClient(server.url);
      const first = await visitor.get('/courses/oil-painting');
      assert.equal(first.headers.get('x-cache'), null);
      const second = await visitor.get('/courses/oil-painting');
      assert.equal(second.headers.get('x-cache'), 'hit');
      assert.equal(second.text, first.text);
      assert.equal(second.headers.get('etag'), first.headers.get('etag'));
      assert.equal(
        (
          await visitor.request('GET', '/courses/oil-painting', {
            headers: { 'if-none-match': first.headers.get('etag') ?? '' },
          })
        ).status,
        304,
      );
      await school.staff.patch(`/api/v1/courses/${school.courses.oil.id}`, { title: 'Oil Painting Renamed' });
      const after = await visitor.get('/courses/oil-painting');
      assert.equal(after.headers.get('x-cache'), null);
      assert.match(after.text, /<h1>Oil Painting Renamed<\/h1>/);
      const student = new WebClient(server.url);
      const person = school.people.student;
      await student.submit('/signin', '/signin', { email: person.email, password: person.password });
      const signedIn = await student.get('/courses/oil-painting');
      assert.equal(signedIn.headers.get('x-cache'), null, 'a signed-in visitor never gets the shared page');
      assert.match(signedIn.text, /Signed in as Stu Dent/);
    } finally {
      await server.close();
    }
  });
});
