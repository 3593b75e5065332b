import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { apiClient, createUser, type Person, schoolWithPeople, tokenFor } from '../../support/api.ts';
import { accessibilityProblems, launchChromium, photograph, screenshotDir } from '../../support/browser.ts';
import { engines } from '../../support/databases.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startSmtpServer } from '../../support/smtp.ts';

const PHONE = { width: 390, height: 844 };
const DAY_MS = 86_400_000;

// One engine is enough for the browser: what the data layer decides is tested over HTTP on both.
const engine = engines[0] ?? 'sqlite';

describe(`buying in Chromium with the test payment provider (${engine})`, () => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let browser: Browser;
  let staff: ReturnType<typeof apiClient>;
  let skew = 0;
  const shots = screenshotDir(`checkout-${engine}`);

  const ok = async <T>(promise: Promise<{ status: number; body: unknown }>) => {
    const response = await promise;
    assert.ok(response.status < 300, JSON.stringify(response.body));
    return response.body as T;
  };

  /** A published course of one published text lesson, at `price`. */
  async function course(title: string, price: { amount: number; currency: string } | null) {
    const made = await ok<{ id: string; slug: string; title: string }>(
      staff.post('/api/v1/courses', { title, ...(price ? { price } : {}) }),
    );
    const section = await ok<{ id: string }>(staff.post(`/api/v1/courses/${made.id}/sections`, { title: 'Start' }));
    await ok(staff.post(`/api/v1/sections/${section.id}/publish`));
    const lesson = await ok<{ id: string }>(
      staff.post(`/api/v1/sections/${section.id}/lessons`, { title: 'The first lesson', body: 'Welcome.' }),
    );
    await ok(staff.post(`/api/v1/lessons/${lesson.id}/publish`));
    await ok(staff.post(`/api/v1/courses/${made.id}/publish`));
    return { ...made, lessonId: lesson.id };
  }

  async function signIn(page: Page, person: Person, returnTo: string) {
    await page.goto(`${server.url}/signin?return_to=${encodeURIComponent(returnTo)}`);
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === returnTo.split('?')[0]);
  }

  before(async () => {
    smtp = await startSmtpServer();
    server = await startTestServer(
      engine,
      { SMTP_URL: smtp.url, PAYMENTS_PROVIDER: 'test', OAUTH_ACCESS_TOKEN_TTL_SECONDS: '86400', JOBS_POLL_MS: '50' },
      { clock: { now: () => new Date(Date.now() + skew) } },
    );
    const people = await schoolWithPeople(server);
    staff = apiClient(
      server.url,
      await tokenFor(
        server,
        people.staff,
        'courses:write courses:read curriculum:write curriculum:read coupons:write membership_plans:write',
      ),
    );
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await smtp?.close();
  });

  test('a paid course with a coupon: course page → sign in → review → coupon → test payment → enrolled → receipt e-mail', async () => {
    const bought = await course('Oil Sketching', { amount: 4900, currency: 'EUR' });
    await ok(staff.post('/api/v1/coupons', { code: 'SPRING20', percent_off: 20, max_redemptions: 5 }));
    const buyer = await createUser(server, 'student', 'Bea Buyer');
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/courses/${bought.slug}`);
      await page.getByRole('link', { name: 'Buy this course' }).click();
      await page.waitForURL(/\/signin/);
      await page.getByLabel('Email').fill(buyer.email);
      await page.getByLabel('Password').fill(buyer.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${server.url}/checkout/course/${bought.slug}`);
      assert.equal(await page.getByRole('heading', { name: 'Your order' }).isVisible(), true);
      await page.getByLabel('Coupon code').fill('NOPE');
      await page.getByRole('button', { name: 'Apply' }).click();
      assert.match(
        (await page.textContent('#coupon-problem')) ?? '',
        /./,
        'an unknown code is refused next to its field',
      );
      await page.getByLabel('Coupon code').fill('spring20');
      await page.getByRole('button', { name: 'Apply' }).click();
      assert.match((await page.textContent('.order-lines')) ?? '', /Coupon SPRING20\s*−€9\.80/);
      assert.deepEqual(await accessibilityProblems(page), []);
      await photograph(page, join(shots, '1-review.png'));
      await page.getByRole('button', { name: 'Pay €39.20' }).click();
      await page.waitForURL(/\/pay\/test\//);
      assert.match((await page.textContent('body')) ?? '', /TEST PAYMENT/);
      assert.deepEqual(await accessibilityProblems(page), []);
      await photograph(page, join(shots, '2-test-payment.png'));
      await page.getByRole('button', { name: 'Pay €39.20 (test)' }).click();
      await page.waitForURL(/\/orders\/ord_/);
      assert.match((await page.textContent('body')) ?? '', /Paid\. Thank you!/);
      assert.deepEqual(await accessibilityProblems(page), []);
      await photograph(page, join(shots, '3-receipt.png'));
      await page.getByRole('link', { name: 'Start learning' }).first().click();
      await page.goto(`${server.url}/learn/${bought.slug}/${bought.lessonId}`);
      assert.match((await page.textContent('body')) ?? '', /Welcome\./, 'the bought course opens');
      const receiptOf = () => smtp.received.find((m) => m.to.includes(buyer.email) && /receipt/.test(m.subject));
      await server.services.jobs.runDue();
      if (!receiptOf()) await smtp.waitFor(smtp.received.length + 1);
      const receipt = receiptOf();
      assert.match(receipt?.text ?? '', /Oil Sketching: €49\.00/);
      assert.match(receipt?.text ?? '', /Discount: −€9\.80/);
      assert.match(receipt?.text ?? '', /Total paid: €39\.20/);
    } finally {
      await context.close();
    }
  });

  test('a declined payment leaves no access and a clear message', async () => {
    const refused = await course('Charcoal', { amount: 2500, currency: 'EUR' });
    const buyer = await createUser(server, 'student', 'Dee Declined');
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    try {
      await signIn(page, buyer, `/checkout/course/${refused.slug}`);
      await page.getByRole('button', { name: 'Pay €25.00' }).click();
      await page.waitForURL(/\/pay\/test\//);
      await page.getByRole('button', { name: 'Decline (test)' }).click();
      await page.waitForURL(/\/orders\/ord_/);
      const text = (await page.textContent('body')) ?? '';
      assert.match(text, /The payment did not go through: nothing was charged and nothing was granted\./);
      assert.equal(await page.getByRole('link', { name: 'Try again' }).isVisible(), true);
      await photograph(page, join(shots, '4-declined.png'));
      await page.goto(`${server.url}/learn/${refused.slug}/${refused.lessonId}`);
      await page.waitForURL(`${server.url}/courses/${refused.slug}`);
      assert.equal(await page.getByRole('link', { name: 'Buy this course' }).isVisible(), true, 'still for sale');
    } finally {
      await context.close();
    }
  });

  test('a plan with a trial: subscribe → its course opens → cancel at period end → the period passes → access closes', async () => {
    const included = await course('Members Only Drawing', { amount: 9900, currency: 'EUR' });
    const plan = await ok<{ id: string; slug: string }>(
      staff.post('/api/v1/membership-plans', {
        name: 'Studio Membership',
        description: 'Every studio course.',
        benefits: ['All studio courses'],
        course_ids: [included.id],
        visibility: 'public',
      }),
    );
    await ok(
      staff.post(`/api/v1/membership-plans/${plan.id}/prices`, {
        amount: 1500,
        currency: 'EUR',
        interval: 'month',
        trial_days: 7,
      }),
    );
    const member = await createUser(server, 'student', 'Mia Member');
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const lessonUrl = `${server.url}/learn/${included.slug}/${included.lessonId}`;
    try {
      await signIn(page, member, `/plans/${plan.slug}`);
      await page.getByRole('link', { name: /Start the free trial/ }).click();
      await page.waitForURL(/\/checkout\/plan\/pri_/);
      assert.match((await page.textContent('.order-lines')) ?? '', /7 days, then €15\.00 every month/);
      await page.getByRole('button', { name: 'Start the 7-day free trial' }).click();
      await page.waitForURL(/\/pay\/test\//);
      await page.getByRole('button', { name: /Pay €0\.00 \(test\)/ }).click();
      await page.waitForURL(/\/orders\/ord_/);
      await page.goto(lessonUrl);
      assert.match((await page.textContent('body')) ?? '', /Welcome\./, 'the plan opens its course');

      await page.getByRole('link', { name: 'My orders' }).click();
      assert.match(
        (await page.textContent('.my-memberships')) ?? '',
        /Studio Membership — trialing\. Free trial until/,
      );
      assert.deepEqual(await accessibilityProblems(page), []);
      await page.getByRole('button', { name: 'Cancel at the end of the period' }).click();
      await page.waitForURL(`${server.url}/orders`);
      assert.match((await page.textContent('.my-memberships')) ?? '', /Ends on/);
      await photograph(page, join(shots, '5-membership-ending.png'));
      await page.goto(lessonUrl);
      assert.match((await page.textContent('body')) ?? '', /Welcome\./, 'open until the period ends');

      skew += 8 * DAY_MS;
      await server.services.jobs.runDue();
      await page.goto(lessonUrl);
      await page.waitForURL(`${server.url}/courses/${included.slug}`);
      await page.goto(`${server.url}/orders`);
      assert.match((await page.textContent('.my-memberships')) ?? '', /Studio Membership — canceled/);
    } finally {
      await context.close();
    }
  });
});
