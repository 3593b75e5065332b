import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, test } from 'node:test';
import type { Db } from '../src/db/tables.ts';
import { apiClient, listAll, tokenFor } from './support/api.ts';
import { type Engine, engines, freshDatabaseUrl } from './support/databases.ts';
import { freePort, startTestServer } from './support/server.ts';
import { completeSetup, OWNER, WebClient } from './support/web-client.ts';

type Course = {
  id: string;
  title: string;
  status: string;
  price: { amount: number; currency: string } | null;
  cover_url: string | null;
};
type Credential = { role: string; email: string; password: string };

/** Runs the real `npm run demo` program (node src/demo/main.ts) against a database. */
function runDemo(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['src/demo/main.ts'], {
    env: { ...process.env, BASE_URL: '', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += String(chunk);
  });
  child.stderr.on('data', (chunk) => {
    stderr += String(chunk);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`demo did not finish: ${stdout}${stderr}`));
    }, 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The printed credentials: lines of role, email and password. */
function credentials(stdout: string): Credential[] {
  return [...stdout.matchAll(/^ {2}(owner|staff|student) +(\S+@\S+) +(\S+)$/gm)].map(([, role, email, password]) => ({
    role,
    email,
    password,
  }));
}

/** Every row of every table the demo writes, to show a refused run changed nothing. */
async function snapshot(db: Db) {
  const tables = [
    'users',
    'school',
    'lecturers',
    'courses',
    'sections',
    'lessons',
    'enrollments',
    'lesson_progress',
    'pages',
    'posts',
    'comments',
    'appearance',
    'setup_tokens',
  ] as const;
  const all: Record<string, unknown[]> = {};
  for (const table of tables) {
    // biome-ignore lint/suspicious/noExplicitAny: one generic read over tables of different shapes.
    all[table] = await (db as any).selectFrom(table).selectAll().execute();
    all[table].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  }
  return all;
}

async function signsIn(base: string, person: { email: string; password: string }) {
  const browser = new WebClient(base);
  const posted = await browser.submit('/signin', '/signin', { email: person.email, password: person.password });
  return posted.status === 303 && (await browser.get('/account/apps')).status === 200;
}

const count = async (db: Db, table: 'courses' | 'lecturers' | 'pages' | 'posts' | 'comments') =>
  Number(
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

for (const engine of engines) {
  describe(`npm run demo (${engine})`, () => {
    test('fills an empty school, prints credentials that sign in; a second run changes nothing', async (t) => {
      const databaseUrl = await freshDatabaseUrl(engine as Engine);
      const port = await freePort();
      const first = await runDemo({ DATABASE_URL: databaseUrl, PORT: String(port) });
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stdout, /"Meridian Academy" is ready: 12 courses \(10 published, 2 drafts\), 4 lecturers/);
      assert.ok(first.stdout.includes(`sign in at http://127.0.0.1:${port}/signin`), first.stdout);
      const printed = credentials(first.stdout);
      assert.deepEqual(
        printed.map((c) => c.role),
        ['owner', 'staff', 'student'],
        first.stdout,
      );
      for (const c of printed) assert.ok(c.password.length >= 16, 'a long random password');
      assert.equal(new Set(printed.map((c) => c.password)).size, 3, 'each account has its own password');

      const server = await startTestServer(engine, { PORT: String(port) }, { databaseUrl });
      t.after(() => server.close());
      assert.equal(server.setupUrl, undefined, 'the demo made the owner, so no setup link is logged');
      for (const person of printed) assert.ok(await signsIn(server.url, person), `${person.role} signs in`);

      const byRole = Object.fromEntries(printed.map((c) => [c.role, c]));
      const studentApi = apiClient(server.url, await tokenFor(server, byRole.student, 'account:read courses:read'));
      assert.equal((await studentApi.get<{ role: string }>('/api/v1/account')).body.role, 'student');
      const staffApi = apiClient(server.url, await tokenFor(server, byRole.staff, 'account:read courses:read'));
      assert.equal((await staffApi.get<{ role: string }>('/api/v1/account')).body.role, 'staff');
      assert.equal((await listAll<Course>(staffApi, '/api/v1/courses')).length, 12, 'staff see the drafts too');

      const upcoming = (
        await apiClient(server.url).get<{ data: { title: string; status: string; lecturer_ids: string[] }[] }>(
          '/api/v1/events?when=upcoming',
        )
      ).body.data;
      assert.deepEqual(
        upcoming.map((e) => [e.title, e.status, e.lecturer_ids.length]),
        [
          ['Live Q&A: your questions on learning a language', 'scheduled', 1],
          ['Open studio afternoon', 'scheduled', 1],
        ],
        'two upcoming events anyone can see',
      );
      assert.match(first.stdout, /2 upcoming events and a question form on the FAQ page\./);

      // A digital product on sale, with its file, so /products and its pages can be tried.
      const products = (
        await apiClient(server.url).get<{ data: { slug: string; status: string; files: { filename: string }[] }[] }>(
          '/api/v1/digital-products',
        )
      ).body.data;
      assert.deepEqual(
        products.map((p) => [p.slug, p.status, p.files.map((f) => f.filename)]),
        [['colour-mixing-chart', 'published', ['Colour-mixing chart.pdf']]],
      );
      const shop = await (await fetch(`${server.url}/products`)).text();
      assert.match(shop, /<a href="\/products\/colour-mixing-chart">Watercolour Colour-Mixing Chart<\/a>/);
      assert.match(shop, /€9\.00/);
      assert.match(shop, /<a href="\/products">Products<\/a>/, 'the menu links the products');
      const pricing = await (await fetch(`${server.url}/pricing.md`)).text();
      assert.ok(
        pricing.includes(
          `| Watercolour Colour-Mixing Chart | €9.00 | 1 | ${server.url}/products/colour-mixing-chart |`,
        ),
        pricing,
      );
      const faq = await (await fetch(`${server.url}/p/faq`)).text();
      assert.match(faq, /Ask us a question/, 'the FAQ page carries the question form');
      for (const label of ['Your name', 'Your e-mail', 'What is it about?', 'Your question', 'I agree that the school'])
        assert.ok(faq.includes(label), label);

      const catalog = await listAll<Course>(apiClient(server.url), '/api/v1/courses');
      assert.ok(catalog.length >= 10, `anonymous sees ${catalog.length} courses`);
      assert.ok(catalog.every((c) => c.status === 'published'));
      assert.ok(catalog.some((c) => c.price === null) && catalog.some((c) => c.price?.currency === 'EUR'));
      assert.ok(!catalog.some((c) => c.title === 'Accessible Web Design'), 'drafts stay hidden');
      assert.ok(
        catalog.every((c) => c.cover_url?.startsWith(`${server.url}/media/ast_`)),
        'every course has its uploaded cover',
      );
      // The demo's own media: the welcome video plays (a range, as a player seeks), with its captions and poster.
      const welcome = await server.database.db
        .selectFrom('lessons')
        .select('id')
        .where('title', '=', 'Welcome and what you need')
        .executeTakeFirstOrThrow();
      const seen = (await apiClient(server.url).get(`/api/v1/lessons/${welcome.id}`)).body as {
        asset_url: string;
        poster_url: string;
        captions: { language: string; url: string }[];
      };
      const part = await fetch(seen.asset_url, { headers: { range: 'bytes=0-99' } });
      assert.equal(part.status, 206);
      assert.equal(part.headers.get('content-type'), 'video/mp4');
      const captions = await fetch(seen.captions[0]?.url ?? '');
      assert.equal(captions.headers.get('content-type'), 'text/vtt');
      assert.match(await captions.text(), /^WEBVTT\n\n1\n00:00\.300 --> /);
      assert.equal((await fetch(seen.poster_url)).headers.get('content-type'), 'image/jpeg');

      const db = server.database.db;
      const sections = await db.selectFrom('sections').select(['id', 'course_id']).execute();
      const lessons = await db.selectFrom('lessons').select(['section_id', 'type', 'is_preview']).execute();
      for (const course of catalog) {
        const own = sections.filter((s) => s.course_id === course.id);
        assert.ok(own.length >= 2 && own.length <= 4, `${course.title}: ${own.length} sections`);
        for (const section of own) {
          const n = lessons.filter((l) => l.section_id === section.id).length;
          assert.ok(n >= 2 && n <= 5, `${course.title}: a section with ${n} lessons`);
        }
      }
      assert.ok(new Set(lessons.map((l) => l.type)).size >= 5, 'lesson types are mixed');
      assert.ok(lessons.some((l) => Number(l.is_preview) === 1));
      assert.equal(await count(db, 'lecturers'), 4);
      const pages = await db.selectFrom('pages').select(['slug', 'status']).execute();
      assert.deepEqual(pages.map((p) => `${p.slug}:${p.status}`).sort(), [
        'about:published',
        'faq:published',
        'terms:published',
      ]);
      const posts = await db.selectFrom('posts').select('status').execute();
      assert.deepEqual(posts.map((p) => p.status).sort(), [
        'draft',
        'published',
        'published',
        'published',
        'scheduled',
      ]);
      assert.ok((await count(db, 'comments')) >= 4);
      const comments = await db.selectFrom('comments').select(['id', 'parent_id', 'target_type']).execute();
      const commentIds = new Set(comments.map((c) => c.id));
      assert.ok(
        comments.some((c) => c.target_type === 'post' && c.parent_id !== null),
        'a post comment is answered',
      );
      assert.ok(
        comments.some((c) => c.target_type === 'lesson' && c.parent_id !== null),
        'a lesson question is answered',
      );
      assert.ok(
        comments.every((c) => c.parent_id === null || commentIds.has(c.parent_id)),
        'replies answer demo comments',
      );
      const enrolled = await db
        .selectFrom('enrollments')
        .innerJoin('users', 'users.id', 'enrollments.user_id')
        .select('users.email')
        .execute();
      assert.ok(enrolled.length >= 2 && enrolled.length <= 3);
      assert.ok(enrolled.every((e) => e.email === byRole.student.email));
      // The student's progress is made of completed lessons, and each enrollment's percent agrees with them.
      for (const enrollment of await db.selectFrom('enrollments').selectAll().execute()) {
        const lessons = await db
          .selectFrom('lessons')
          .select('id')
          .where('course_id', '=', enrollment.course_id)
          .execute();
        const done = await db
          .selectFrom('lesson_progress')
          .select('lesson_id')
          .where('course_id', '=', enrollment.course_id)
          .where('user_id', '=', enrollment.user_id)
          .execute();
        assert.equal(Number(enrollment.progress_percent), Math.floor((done.length * 100) / lessons.length));
        assert.equal(enrollment.status, done.length === lessons.length ? 'completed' : 'active');
      }
      assert.ok(await db.selectFrom('appearance').select('id').executeTakeFirst(), 'the appearance is stored');
      // Made through the services, the demo holds only what they would allow: each published lesson carries what
      // publishing asks of its type, a completed course has its certificate, and the scheduled post its job.
      const published = await db.selectFrom('lessons').selectAll().where('status', '=', 'published').execute();
      const unready = published.filter((l) =>
        l.type === 'text'
          ? !l.body.trim()
          : l.type === 'quiz'
            ? !l.quiz
            : l.type !== 'embed' && !l.asset_url && !l.asset_id,
      );
      assert.deepEqual(
        unready.map((l) => `${l.type}: ${l.title}`),
        [],
        'published lessons have their content',
      );
      const completed = await db
        .selectFrom('enrollments')
        .select('course_id')
        .where('status', '=', 'completed')
        .execute();
      const certificates = await db.selectFrom('certificates').select('course_id').execute();
      assert.ok(completed.length >= 1, 'a course is completed');
      assert.deepEqual(certificates.map((c) => c.course_id).sort(), completed.map((c) => c.course_id).sort());
      const scheduled = await db.selectFrom('posts').select('scheduled_at').where('status', '=', 'scheduled').execute();
      const due = await db.selectFrom('jobs').select('run_at').where('kind', '=', 'posts.publish_due').execute();
      assert.deepEqual(
        due.map((j) => j.run_at),
        scheduled.map((p) => p.scheduled_at),
        'the scheduled post will be published',
      );

      const before = await snapshot(db);
      const second = await runDemo({ DATABASE_URL: databaseUrl, PORT: String(port) });
      assert.equal(second.code, 1);
      assert.match(second.stderr, /already has 12 courses.*fills only an empty school and changed nothing/);
      assert.deepEqual(credentials(second.stdout), [], 'no new credentials are printed');
      assert.deepEqual(await snapshot(db), before, 'nothing changed');
      for (const person of printed) assert.ok(await signsIn(server.url, person), `${person.role} still signs in`);
    });

    test('after first-run setup it keeps the school and owner, adding the content and two accounts', async (t) => {
      const server = await startTestServer(engine);
      t.after(() => server.close());
      await completeSetup(server.url, server.setupUrl ?? '', 'Harbour School');
      const result = await runDemo({ DATABASE_URL: server.databaseUrl, PORT: String(new URL(server.url).port) });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /"Harbour School" is ready/);
      assert.match(result.stdout, /^ {2}owner +owner@school\.test +\(your password from first-run setup\)$/m);
      assert.deepEqual(
        credentials(result.stdout).map((c) => c.role),
        ['staff', 'student'],
      );
      for (const person of credentials(result.stdout)) assert.ok(await signsIn(server.url, person), person.role);
      assert.ok(await signsIn(server.url, OWNER), 'the owner keeps their password');
      const school = await server.database.db.selectFrom('school').selectAll().executeTakeFirstOrThrow();
      assert.equal(school.name, 'Harbour School');
      assert.equal(school.description, '', 'the school row is not rewritten');
      assert.equal(await count(server.database.db, 'courses'), 12);
      const owners = await server.database.db.selectFrom('users').select('id').where('role', '=', 'owner').execute();
      assert.equal(owners.length, 1);
    });

    test('a school with content of its own is refused with exit code 1', async () => {
      const databaseUrl = await freshDatabaseUrl(engine as Engine);
      const server = await startTestServer(engine, {}, { databaseUrl });
      try {
        const now = new Date().toISOString();
        await server.database.db
          .insertInto('pages')
          .values({
            id: 'pag_00000000000000000000000000',
            title: 'Our own page',
            slug: 'own',
            draft_body: '',
            published_body: null,
            seo_title: null,
            seo_description: null,
            status: 'draft',
            published_at: null,
            created_at: now,
            updated_at: now,
          })
          .execute();
        const result = await runDemo({ DATABASE_URL: databaseUrl });
        assert.equal(result.code, 1);
        assert.match(result.stderr, /already has 1 pages; the demo fills only an empty school/);
        assert.equal(await count(server.database.db, 'courses'), 0);
        const users = await server.database.db.selectFrom('users').select('id').execute();
        assert.equal(users.length, 0, 'no accounts were made');
      } finally {
        await server.close();
      }
    });
  });
}
