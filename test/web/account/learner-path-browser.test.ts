import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { apiClient, schoolWithPeople, tokenFor } from '../../support/api.ts';
import { accessibilityProblems, launchChromium, photograph, screenshotDir } from '../../support/browser.ts';
import { engines } from '../../support/databases.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { linkIn, startSmtpServer } from '../../support/smtp.ts';

const PHONE = { width: 390, height: 844 };
// A few seconds of silent WebM would do as well; the player only needs a media URL the page is allowed to load.
const VIDEO_URL = 'https://video.example/first-wash.webm';

// One engine is enough for the browser: what the data layer decides is tested over HTTP on both.
const engine = engines[0] ?? 'sqlite';

describe(`the learner's whole path in Chromium (${engine})`, () => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let browser: Browser;
  let course: { id: string; slug: string; title: string };
  let previewId: string;
  const shots = screenshotDir(`learner-path-${engine}`);

  before(async () => {
    smtp = await startSmtpServer();
    server = await startTestServer(engine, { SMTP_URL: smtp.url });
    const people = await schoolWithPeople(server);
    const staff = apiClient(
      server.url,
      await tokenFor(server, people.staff, 'courses:write courses:read curriculum:write curriculum:read'),
    );
    const ok = async <T>(promise: Promise<{ status: number; body: unknown }>) => {
      const response = await promise;
      assert.ok(response.status < 300, JSON.stringify(response.body));
      return response.body as T;
    };
    course = await ok(
      staff.post('/api/v1/courses', {
        title: 'Watercolour in a Week',
        subtitle: 'Seven short lessons, one painting a day',
        description: 'From the first wash to a finished landscape.',
      }),
    );
    const section = await ok<{ id: string }>(staff.post(`/api/v1/courses/${course.id}/sections`, { title: 'Day one' }));
    await ok(staff.post(`/api/v1/sections/${section.id}/publish`));
    const lesson = async (body: Record<string, unknown>) => {
      const made = await ok<{ id: string }>(staff.post(`/api/v1/sections/${section.id}/lessons`, body));
      await ok(staff.post(`/api/v1/lessons/${made.id}/publish`));
      return made.id;
    };
    previewId = await lesson({ title: 'Your palette', body: 'Three colours are enough to start.', is_preview: true });
    await lesson({ title: 'The first wash', type: 'video', asset_url: VIDEO_URL, body: 'Wet the paper first.' });
    await lesson({
      title: 'What did you learn?',
      type: 'quiz',
      body: 'Two questions about day one.',
      quiz: {
        pass_percent: 100,
        questions: [
          { prompt: 'How many colours do you need to start?', choices: ['Three', 'Twelve'], answers: [0] },
          {
            prompt: 'What comes before a wash?',
            choices: ['Wet the paper', 'Dry the brush', 'Stretch the paper'],
            answers: [0, 2],
          },
        ],
      },
    });
    await ok(staff.post(`/api/v1/courses/${course.id}/publish`));
    browser = await launchChromium();
    console.log(`# screenshots of the learner's path (${engine}): ${shots}`);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await smtp?.close();
  });

  test('visitor → catalog → course → preview → sign up → verify e-mail → enroll → every lesson → certificate; the API agrees', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    await context.route(/^https:\/\//, (route) => route.fulfill({ status: 404, body: '' }));
    const page = await context.newPage();
    const problems: string[] = [];
    const check = async (name: string) => {
      for (const problem of await accessibilityProblems(page)) problems.push(`${name}: ${problem}`);
      await photograph(page, join(shots, `${name}.png`));
    };

    // A visitor finds the course and reads its free preview.
    await page.goto(server.url);
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Courses' }).click();
    await page.getByRole('link', { name: course.title }).first().click();
    await page.waitForURL(`**/courses/${course.slug}`);
    await page.getByRole('link', { name: 'Your palette' }).click();
    await page.waitForURL(`**/courses/${course.slug}/lessons/${previewId}`);
    assert.match((await page.textContent('main')) ?? '', /Three colours are enough to start\./);
    await page.goBack();

    // Signs up on the way to enrolling, and confirms the address from the message the school sends.
    await page.getByRole('link', { name: 'Sign in to enroll' }).click();
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Name').fill('Nora Novice');
    await page.getByLabel('Email').fill('nora@learners.test');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`**/courses/${course.slug}`);
    await server.services.jobs.runDue();
    const [message] = (await smtp.waitFor(1)).filter((m) => m.to.includes('nora@learners.test'));
    assert.ok(message, 'the verification message arrived over SMTP');
    await page.goto(linkIn(message.text, '/verify-email?token='));
    assert.match((await page.textContent('main')) ?? '', /your e-mail address is confirmed/);

    // Enrolls and takes every lesson.
    await page.goto(`${server.url}/courses/${course.slug}`);
    await page.getByRole('button', { name: 'Enroll for free' }).click();
    await page.waitForURL(/\/learn\/[^/]+\/les_/);
    await check('player-text');
    await page.getByRole('button', { name: 'Mark as complete' }).click();
    // The address answers nothing here, so the player may already say it cannot play it: the video is looked for in
    // the page, shown or not.
    await page.waitForSelector('.player-media video', { state: 'attached' });
    assert.equal(await page.getAttribute('.player-media video', 'src'), VIDEO_URL);
    await check('player-video');
    await page.getByRole('button', { name: 'Mark as complete' }).click();
    await page.getByRole('heading', { name: 'What did you learn?' }).waitFor();
    await page.getByLabel('Twelve').check();
    await page.getByLabel('Wet the paper').check();
    await page.getByRole('button', { name: 'Submit answers' }).click();
    await page.getByText('Not passed yet').waitFor();
    await check('player-quiz-failed');
    await page.getByLabel('Three').check();
    await page.getByLabel('Stretch the paper').check();
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByText(/You have completed Watercolour in a Week/).waitFor();
    assert.equal(await page.getAttribute('#course-progress', 'value'), '100');
    await check('player-completed');

    // The certificate, and "My courses".
    await page.getByRole('link', { name: 'See your certificate' }).click();
    await page.waitForURL(/\/certificates\/[A-Za-z0-9_-]{24}$/);
    const certificate = (await page.textContent('main')) ?? '';
    assert.match(certificate, /Valid\./);
    assert.match(certificate, /Nora Novice/);
    await check('certificate');
    await page.goto(`${server.url}/learn`);
    assert.match((await page.textContent('main')) ?? '', /100% · Completed/);
    await check('my-courses');
    const wide = await page.evaluate('document.documentElement.scrollWidth > window.innerWidth');
    assert.equal(wide, false, 'nothing scrolls sideways on a phone');
    await context.close();
    assert.deepEqual(problems, [], 'no serious or critical accessibility problem');

    // The same student's own token reads that progress through the API.
    const own = apiClient(
      server.url,
      await tokenFor(server, { email: 'nora@learners.test', password: 'a long enough password' }, 'students:read'),
    );
    const progress = await own.get<{ percent: number; enrollment_status: string; completed_lessons: number }>(
      `/api/v1/students/me/courses/${course.id}/progress`,
    );
    assert.equal(progress.status, 200, JSON.stringify(progress.body));
    assert.equal(progress.body.percent, 100);
    assert.equal(progress.body.enrollment_status, 'completed');
    assert.equal(progress.body.completed_lessons, 3);
  });
});
