import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { apiClient, schoolWithPeople, tokenFor } from '../../support/api.ts';
import {
  accessibilityProblems,
  downloadedText,
  launchChromium,
  photograph,
  screenshotDir,
} from '../../support/browser.ts';
import { publishWithALesson } from '../../support/course-content.ts';
import { engines } from '../../support/databases.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { linkIn, startSmtpServer } from '../../support/smtp.ts';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
// One engine is enough for the browser: what the data layer decides is tested over HTTP on both.
const engine = engines[0] ?? 'sqlite';

describe(`a student's own account in Chromium (${engine})`, () => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let browser: Browser;
  let staff: ReturnType<typeof apiClient>;
  let course: { id: string; slug: string; title: string };
  const shots = screenshotDir(`account-${engine}`);

  before(async () => {
    smtp = await startSmtpServer();
    server = await startTestServer(engine, { SMTP_URL: smtp.url });
    const people = await schoolWithPeople(server);
    staff = apiClient(
      server.url,
      await tokenFor(server, people.staff, 'courses:write courses:read curriculum:write orders:read students:read'),
    );
    const made = await staff.post<{ id: string; slug: string; title: string }>('/api/v1/courses', {
      title: 'Bookbinding Basics',
    });
    course = made.body;
    assert.equal((await publishWithALesson(staff, course.id)).status, 200);
    browser = await launchChromium();
    console.log(`# screenshots of the account journey (${engine}): ${shots}`);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await smtp?.close();
  });

  /** The link in the newest message to `email` that arrived over SMTP. */
  async function mailedLink(email: string, path: string) {
    await server.services.jobs.runDue();
    for (let tries = 0; tries < 50; tries++) {
      const message = smtp.received.findLast((m) => m.to.includes(email) && m.text.includes(path));
      if (message) return linkIn(message.text, path);
      await smtp.waitFor(smtp.received.length + 1);
    }
    throw new Error(`no ${path} link to ${email}`);
  }

  const noSidewaysScroll = async (page: Page, name: string) => {
    const [scroll, client] = (await page.evaluate(
      '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
    )) as [number, number];
    assert.ok(scroll <= client, `${name} scrolls sideways: ${scroll} > ${client}`);
  };

  test('sign up → buy a free course → change e-mail and re-verify → change password → export → delete', async () => {
    const context = await browser.newContext({ viewport: PHONE, acceptDownloads: true });
    const page = await context.newPage();
    const problems: string[] = [];
    const check = async (name: string) => {
      for (const problem of await accessibilityProblems(page)) problems.push(`${name}: ${problem}`);
      await noSidewaysScroll(page, name);
      await photograph(page, join(shots, `${name}.png`));
    };

    await page.goto(`${server.url}/signup`);
    await page.getByLabel('Name').fill('Ada Account');
    await page.getByLabel('Email').fill('ada@learners.test');
    await page.getByLabel('Password').fill('password1234');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText(/too easy to guess/).waitFor();
    await page.getByLabel('Name').fill('Ada Account');
    await page.getByLabel('Email').fill('ada@learners.test');
    await page.getByLabel('Password').fill('inky quill folded spine');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${server.url}/`);
    assert.match((await page.textContent('main')) ?? '', /Welcome, Ada Account\./, 'a first visit is not "back"');

    // A free course bought at checkout: an order the school must keep.
    await page.goto(`${server.url}/checkout/course/${course.slug}`);
    await page.getByRole('button', { name: 'Get it for free' }).click();
    await page.waitForURL(/\/orders\//);

    await page.getByRole('link', { name: /Signed in as Ada Account/ }).click();
    await page.waitForURL(`${server.url}/account`);
    await check('account-phone');
    await page.setViewportSize(DESKTOP);
    await check('account-desktop');
    await page.setViewportSize(PHONE);
    const text = (await page.textContent('main')) ?? '';
    assert.doesNotMatch(text, /\/api\/|usr_|ses_|current_password|new_password/, 'no API words on screen');
    assert.match(text, /This browser/);

    // A new e-mail address: nothing moves until the link sent to it is opened; the old address is told.
    await page.getByLabel('New e-mail address').fill('ada.new@learners.test');
    await page.getByLabel('Your current password').fill('inky quill folded spine');
    await page.getByRole('button', { name: 'Change e-mail address' }).click();
    await page.getByText('Almost done: open the link we sent to your new address.').waitFor();
    assert.match((await page.textContent('main')) ?? '', /You sign in with ada@learners\.test/);
    await check('account-email-pending');
    await page.goto(await mailedLink('ada.new@learners.test', '/verify-email'));
    assert.match(await mailedLink('ada@learners.test', '/account'), /\/account$/);
    await page.goto(`${server.url}/account`);
    assert.match((await page.textContent('main')) ?? '', /You sign in with ada\.new@learners\.test/);

    // A new password: the current one is asked, a guessable one refused; this browser stays signed in.
    await page.getByLabel('Current password', { exact: true }).fill('inky quill folded spine');
    await page.getByLabel('New password', { exact: true }).fill('qwertyuiop12');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText(/too easy to guess/).waitFor();
    await check('account-password-refused');
    await page.getByLabel('Current password', { exact: true }).fill('inky quill folded spine');
    await page.getByLabel('New password', { exact: true }).fill('marbled endpaper stitches');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password is changed.').waitFor();

    // The data, as a file.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download my data' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^my-data-\d{4}-\d\d-\d\d\.json$/);
    const data = JSON.parse(await downloadedText(download)) as {
      profile: { id: string; email: string };
      enrollments: { course_title: string }[];
      orders: { id: string; items: { title: string }[] }[];
    };
    assert.equal(data.profile.email, 'ada.new@learners.test');
    assert.deepEqual(
      data.enrollments.map((e) => e.course_title),
      [course.title],
    );
    assert.equal(data.orders[0]?.items[0]?.title, course.title);

    // Deleting asks for the password and says what is kept.
    await page.getByRole('link', { name: 'Delete my account…' }).click();
    await check('account-delete');
    await page.getByLabel('Your password, to confirm').fill('not my password');
    await page.getByRole('button', { name: 'Delete my account for good' }).click();
    await page.getByText(/current password is incorrect/).waitFor();
    await page.getByLabel('Your password, to confirm').fill('marbled endpaper stitches');
    await page.getByRole('button', { name: 'Delete my account for good' }).click();
    await page.getByText('Your account is deleted and you are signed out.').waitFor();
    await check('account-deleted');
    assert.equal(await page.getByRole('link', { name: /Signed in as/ }).count(), 0);

    // The owner still sees the order, bought by an anonymous person.
    const order = await staff.get<{ user_id: string; status: string }>(`/api/v1/orders/${data.orders[0]?.id}`);
    assert.deepEqual([order.status, order.body.user_id, order.body.status], [200, data.profile.id, 'paid']);
    const person = await staff.get<{ name: string; email: string }>(`/api/v1/students/${data.profile.id}`);
    assert.equal(person.body.name, 'Deleted account');
    assert.match(person.body.email, /@anonymous\.invalid$/);
    assert.deepEqual(problems, [], 'axe finds no serious problem');
    await context.close();
  });
});
