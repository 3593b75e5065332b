import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { buildQuiz } from '../../support/admin-pages.ts';
import { apiClient, createUser, tokenFor } from '../../support/api.ts';
import { accessibilityProblems, launchChromium, photograph, screenshotDir, signInPage } from '../../support/browser.ts';
import { engines } from '../../support/databases.ts';
import { mp4, png } from '../../support/files.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { completeSetup, csrfOf, OWNER, signedInClient } from '../../support/web-client.ts';

/** The one browser function these tests call, typed here (the test files are compiled without the DOM library). */
type BrowserWindow = { getComputedStyle(element: unknown): { color: string } };

// One engine is enough for the browser: what the data layer decides is tested over HTTP on both.
const engine = engines[0] ?? 'sqlite';

/**
 * An owner's first week, in Chromium, through the admin only: a course with a cover, a video lesson, a three-question
 * quiz and a release schedule, published in one step, sold on the site, €10 refunded, and the audit log read as
 * sentences. Everything is done by clicking and typing as a person would, no field is typed as JSON, and each screen
 * on the way is checked with axe.
 */
describe(`an owner's day in the admin (${engine})`, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const shots = screenshotDir('admin-owner-day');
  const problems: string[] = [];

  /** Checks the screen the owner is on, then photographs it. */
  const look = async (name: string) => {
    for (const problem of await accessibilityProblems(page)) problems.push(`${name}: ${problem}`);
    // Nothing on the way asks for JSON: no hint says it and no box holds it.
    if (/JSON/.test(await page.locator('main').innerText())) problems.push(`${name}: a field asks for JSON`);
    for (const box of await page.locator('main textarea').all())
      if (/^\s*[[{]/.test(await box.inputValue())) problems.push(`${name}: a box holds JSON`);
    await photograph(page, join(shots, `${name}.png`));
  };
  /** A form field by its label as shown, with or without the required mark. */
  const field = (label: string) =>
    page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`));
  const notice = () => page.locator('.notice').textContent();

  before(async () => {
    server = await startTestServer(engine, { PAYMENTS_PROVIDER: 'test' });
    await completeSetup(server.url, server.setupUrl ?? '');
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    // A guard against a step that never comes, not a speed check: four browser files share two cores at the run's start.
    page.setDefaultTimeout(30_000);
    await page.goto(`${server.url}/signin?return_to=%2Fadmin`);
    await field('Email').fill(OWNER.email);
    await field('Password').fill(OWNER.password);
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.waitForURL(`${server.url}/admin`);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test("a first week's course: a cover, a video lesson, a three-question quiz, a release schedule, published in one step", async () => {
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Courses' }).click();
    await page.getByRole('link', { name: 'New course' }).click();
    await look('new-course');
    await field('Title').fill('Pottery at Home');
    await field('Web address').fill('pottery-at-home');
    await field('Price: amount').fill('49.00');
    await field('Price: currency (EUR, USD …)').fill('EUR');
    await page.getByRole('button', { name: 'Create course' }).click();
    assert.match((await notice()) ?? '', /The course was created as a draft\./);
    const coursePage = page.url().split('?')[0] ?? '';

    await page.getByRole('link', { name: 'Cover image' }).click();
    await page.getByLabel(/Picture/).setInputFiles({ name: 'bowl.png', mimeType: 'image/png', buffer: png(64) });
    await page.getByRole('button', { name: 'Upload and use it' }).click();
    await page.getByText('The cover image is saved.').waitFor();
    await look('course-cover');
    await page.goto(coursePage);

    await page.getByRole('link', { name: 'Add a section' }).click();
    await field('Title').fill('Getting started');
    await page.getByRole('button', { name: /section/i }).click();
    assert.equal(page.url().split('?')[0], coursePage);
    await page.getByRole('link', { name: 'Add a section' }).click();
    await field('Title').fill('Throwing');
    await page.getByRole('button', { name: /section/i }).click();
    await page.getByRole('link', { name: 'Getting started' }).click();
    const sectionPage = page.url().split('?')[0] ?? '';
    await page.getByRole('link', { name: 'Add a lesson' }).click();
    await field('Title').fill('Welcome to the wheel');
    await field('Type').selectOption({ label: 'Video' });
    await field('Text').fill('# Welcome\n\nClay, water and **patience**.');
    await page.getByRole('button', { name: /lesson/i }).click();
    assert.equal(page.url().split('?')[0], sectionPage);
    await page.getByRole('link', { name: 'Welcome to the wheel' }).click();
    const lessonPage = page.url().split('?')[0] ?? '';
    await page.getByRole('link', { name: 'Upload a file' }).click();
    await page
      .getByLabel(/^File for/)
      .setInputFiles({ name: 'wheel.mp4', mimeType: 'video/mp4', buffer: mp4(3_000_000) });
    await page.getByText('Uploaded wheel.mp4 (100 %); the lesson now uses it.').waitFor();
    assert.equal(await page.locator('progress').getAttribute('value'), '100');
    await look('lesson-upload');
    await page.goto(lessonPage);
    assert.match((await page.locator('main').textContent()) ?? '', /wheel\.mp4/, 'the lesson names its uploaded file');

    // The quiz is built question by question, each choice in its own box: nothing is typed as JSON.
    await page.goto(sectionPage);
    await page.getByRole('link', { name: 'Add a lesson' }).click();
    await field('Title').fill('Clay check');
    await field('Type').selectOption({ label: 'Quiz' });
    await page.getByRole('button', { name: /lesson/i }).click();
    await page.getByRole('link', { name: 'Clay check' }).click();
    await page.getByRole('link', { name: 'Questions' }).click();
    const questions = [
      { prompt: 'What keeps clay workable?', choices: ['Water', 'Sand'], right: [0] },
      {
        prompt: 'How hot is a bisque firing?',
        choices: ['About 950 °C', 'About 200 °C', 'About 2,000 °C'],
        right: [0],
      },
      { prompt: 'Which tools trim a pot?', choices: ['A loop tool', 'A sponge', 'A wire tool'], right: [0, 2] },
    ];
    await buildQuiz(page, questions);
    await page.locator('#q0-explanation').fill('Dry clay cracks; a damp sponge keeps it soft.');
    await look('quiz-builder');
    await page.getByRole('button', { name: 'Save the quiz' }).last().click();
    await page.getByText('The quiz is saved.').waitFor();

    // The second section opens a week after a student enrolls.
    await page.goto(coursePage);
    await page.getByRole('link', { name: 'Release schedule' }).click();
    const throwing = page.locator('fieldset', { has: page.locator('legend', { hasText: 'Throwing' }) });
    await throwing.getByLabel('Some days after the student enrolls').check();
    await throwing.getByLabel('Days after enrolling').fill('7');
    await look('release-schedule');
    await page.getByRole('button', { name: 'Save when they open' }).click();
    await page.goto(coursePage);

    // One step publishes the course with everything in it; the second section has no lesson and stays out of sight.
    await page.getByRole('link', { name: 'What is still a draft' }).click();
    await look('course-drafts');
    await page.getByRole('button', { name: 'Publish the course with its sections and lessons' }).click();
    assert.match((await notice()) ?? '', /published/i);
    await look('course-published');
    const pub = await fetch(`${server.url}/courses/pottery-at-home`);
    assert.equal(pub.status, 200, 'the course is on the public site');
    const publicPage = await pub.text();
    assert.match(publicPage, /Welcome to the wheel/);
    assert.match(publicPage, /Clay check/);

    const reader = apiClient(server.url, await tokenFor(server, OWNER, 'courses:read curriculum:read'));
    const course = (
      await reader.get<{ id: string; status: string; cover_asset_id: string | null }>('/api/v1/courses/pottery-at-home')
    ).body;
    assert.equal(course.status, 'published');
    assert.match(course.cover_asset_id ?? '', /^ast_/, 'the cover is stored as an image asset');
    const sections = (
      await reader.get<{ data: { id: string; title: string; drip: { type: string; days: number | null } }[] }>(
        `/api/v1/courses/${course.id}/sections`,
      )
    ).body.data;
    assert.deepEqual(
      sections.map((s) => [s.title, s.drip.type, s.drip.days]),
      [
        ['Getting started', 'none', null],
        ['Throwing', 'days_after_enrollment', 7],
      ],
    );
    const lessons = (
      await reader.get<{ data: { title: string; type: string; status: string; id: string }[] }>(
        `/api/v1/sections/${sections[0]?.id}/lessons`,
      )
    ).body.data;
    assert.deepEqual(
      lessons.map((l) => [l.title, l.type, l.status]),
      [
        ['Welcome to the wheel', 'video', 'published'],
        ['Clay check', 'quiz', 'published'],
      ],
    );
    const quiz = (
      await reader.get<{ quiz: { questions: { prompt: string; answers: number[] }[] } }>(
        `/api/v1/lessons/${lessons[1]?.id}`,
      )
    ).body.quiz;
    assert.deepEqual(
      quiz.questions.map((q) => [q.prompt, q.answers]),
      questions.map((q) => [q.prompt, q.right]),
    );
  });

  test('invites a student and enrolls them in the course', async () => {
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Students' }).click();
    await page.getByRole('link', { name: 'Invite a student' }).click();
    await field('E-mail address').fill('nina@school.test');
    await field('Name').fill('Nina Novak');
    await page.getByRole('button', { name: 'Invite' }).click();
    assert.match((await notice()) ?? '', /The student was invited by e-mail\./);
    await page.getByRole('link', { name: 'Enroll in a course', exact: true }).click();
    await field('Course').selectOption({ label: 'Pottery at Home' });
    await look('enroll-student');
    await page.getByRole('button', { name: /enroll/i }).click();
    await look('enrolled');
    assert.match((await notice()) ?? '', /The student was enrolled\./);
    assert.match((await page.locator('main').textContent()) ?? '', /Pottery at Home/);
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Overview' }).click();
    const enrollments = page.locator('.figures div', { hasText: 'Enrollments' }).locator('dd');
    assert.equal(await enrollments.textContent(), '1', 'the overview counts the new enrollment');
    assert.match((await page.locator('.overview').textContent()) ?? '', /Nina Novak/);
    await look('overview');
  });

  test('issues a coupon', async () => {
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Coupons' }).click();
    await page.getByRole('link', { name: 'New coupon' }).click();
    await field('Code').fill('SPRING20');
    await field('Percentage off').fill('20');
    await page.getByRole('button', { name: 'Create coupon' }).click();
    assert.match((await notice()) ?? '', /The coupon was created\./);
    await look('coupon');
  });

  test('sells the course to a student who buys it on the site, then refunds €10 of the order', async () => {
    const student = await createUser(server, 'student', 'Bea Buyer');
    const buyer = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    buyer.setDefaultTimeout(30_000);
    await signInPage(buyer, server.url, student);
    await buyer.goto(`${server.url}/courses/pottery-at-home`);
    await buyer.getByRole('link', { name: 'Buy this course' }).click();
    await buyer.getByRole('button', { name: 'Pay €49.00' }).click();
    await buyer.getByRole('button', { name: 'Pay €49.00 (test)' }).click();
    await buyer.waitForURL(/\/orders\/ord_/);
    assert.match((await buyer.textContent('body')) ?? '', /Paid\. Thank you!/);
    await buyer.context().close();
    const orders = apiClient(server.url, await tokenFor(server, OWNER, 'orders:read'));
    const [order] = (await orders.get<{ data: { number: number; status: string }[] }>('/api/v1/orders')).body.data;
    assert.equal(order?.status, 'paid');

    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('link', { name: String(order?.number), exact: true }).click();
    await page.getByRole('link', { name: 'Refund', exact: true }).click();
    // A person types €10 as 10; the server sends the API 1000 cents in the order's currency.
    await field('Amount to refund').fill('10');
    await look('refund');
    await page.getByRole('button', { name: /refund/i }).click();
    assert.match((await notice()) ?? '', /The refund was made\./);
    await look('order-refunded');
    const main = (await page.locator('main').textContent()) ?? '';
    assert.match(main, /Partly refunded/);
    assert.match(main, /Refunded€10\.00/);
    assert.match(main, /Payments and refunds[\s\S]*Payment[\s\S]*Refund/, "the order's payments");
    assert.doesNotMatch(main, /partially_refunded|usr_|cpn_|ord_/);
  });

  test('hides a rude comment, and the post no longer shows it', async () => {
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Posts' }).click();
    await page.getByRole('link', { name: 'New post' }).click();
    await field('Title').fill('Studio news');
    await field('Text').fill('The kiln is back.');
    await page.getByRole('button', { name: 'Create post' }).click();
    await page.getByRole('button', { name: 'Publish now', exact: true }).click();
    assert.match((await notice()) ?? '', /The post is published\./);
    const post = await fetch(`${server.url}/posts`);
    const slug = /href="\/posts\/([a-z0-9-]+)"/.exec(await post.text())?.[1] ?? '';
    const student = await createUser(server, 'student', 'Rude Ron');
    const web = await signedInClient(server.url, student);
    const postPage = await web.get(`/posts/${slug}`);
    const said = await web.postForm(`/posts/${slug}/comments`, {
      _csrf: csrfOf(postPage.text),
      body: 'This is rubbish!',
    });
    assert.equal(said.status, 303);

    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Comments' }).click();
    await page.getByRole('link', { name: 'This is rubbish!' }).click();
    await page.getByRole('button', { name: 'Hide', exact: true }).click();
    await look('hide-comment');
    await page.getByRole('button', { name: /hide/i }).click();
    assert.match((await notice()) ?? '', /The comment is hidden\./);
    assert.doesNotMatch(await (await fetch(`${server.url}/posts/${slug}`)).text(), /This is rubbish!/);
  });

  test('changes the colours and the public site follows', async () => {
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Appearance' }).click();
    await field('Main colour').fill('#8b1e3f');
    const previewed = await page
      .locator('.theme-preview a')
      .first()
      .evaluate((a) => (globalThis as unknown as BrowserWindow).getComputedStyle(a).color);
    assert.equal(previewed, 'rgb(139, 30, 63)', 'the preview follows before saving');
    await look('appearance-preview');
    await page.getByRole('button', { name: 'Save changes' }).click();
    assert.match((await notice()) ?? '', /The look of the site was saved\./);
    await page.goto(`${server.url}/courses`);
    const colour = await page
      .locator('header .site-nav a')
      .first()
      .evaluate((a) => (globalThis as unknown as BrowserWindow).getComputedStyle(a).color);
    assert.equal(colour, 'rgb(139, 30, 63)');
  });

  test('the audit log shows every write of the day, each by the owner through the admin, nothing missing', async () => {
    const reader = apiClient(server.url, await tokenFor(server, OWNER, 'school:read'));
    const entries: { operation: string; channel: string; actor: { email: string } | null }[] = [];
    let cursor = '';
    for (;;) {
      const page = await reader.get<{ data: typeof entries; next_cursor: string | null }>(
        `/api/v1/audit-log?limit=100${cursor ? `&starting_after=${cursor}` : ''}`,
      );
      entries.push(...page.body.data);
      if (!page.body.next_cursor) break;
      cursor = page.body.next_cursor;
    }
    const byAdmin = entries.filter((e) => e.channel === 'admin').reverse();
    assert.deepEqual(
      byAdmin.map((e) => e.operation),
      [
        'createCourse',
        'createAsset',
        'uploadAssetContent',
        'updateCourse',
        'createSection',
        'createSection',
        'createLesson',
        'createAsset',
        'uploadAssetContent',
        'updateLesson',
        'createLesson',
        'updateLesson',
        'updateSection',
        'publishCourseWithContents',
        'createStudent',
        'enrollStudent',
        'createCoupon',
        'refundOrder',
        'createPost',
        'publishPost',
        'hideComment',
        'updateAppearance',
      ],
    );
    assert.ok(byAdmin.every((e) => e.actor?.email === OWNER.email));
    await page.goto(`${server.url}/admin`);
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Audit log' }).click();
    // The log reads as sentences: who did what to which object, when; never the operations' codes.
    const log = (await page.locator('main').textContent()) ?? '';
    assert.match(log, /Ada Owner \(owner\) changed the school's appearance · /);
    assert.match(log, /Ada Owner \(owner\) published the course “Pottery at Home” with its sections and lessons/);
    assert.match(log, /Ada Owner \(owner\) refunded the order/);
    assert.match(log, /Ada Owner \(owner\) created the lesson “Clay check”/);
    assert.match(log, /Ada Owner \(owner\) changed the section “Throwing”/);
    assert.match(log, /Ada Owner \(owner\) uploaded the file “bowl\.png”/);
    assert.doesNotMatch(log, /updateAppearance|publishCourse|refundOrder/);
    await look('audit-log');
  });

  test('no screen on the way had a serious or critical accessibility problem', () => {
    assert.deepEqual(problems, []);
  });
});
