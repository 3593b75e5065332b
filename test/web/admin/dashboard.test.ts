import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { addToRevenueRollup } from '../../../src/areas/analytics/revenue-rollup.ts';
import { ordersStore } from '../../../src/areas/orders/store.ts';
import { newId } from '../../../src/db/ids.ts';
import { apiClient, type Person, schoolWithPeople, tokenFor } from '../../support/api.ts';
import { accessibilityProblems, launchChromium, photograph, screenshotDir } from '../../support/browser.ts';
import { engines } from '../../support/databases.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { OWNER, WebClient } from '../../support/web-client.ts';

const METRICS = ['revenue', 'enrollments', 'completions', 'active_students', 'new_members', 'churned_members', 'mrr'];

/** How many pixels of a canvas are drawn (a blank canvas is all transparent). */
const drawnPixels = (page: Page, id: string): Promise<number> =>
  page.evaluate(`(() => {
    const canvas = document.getElementById(${JSON.stringify(id)});
    const context = canvas && canvas.getContext('2d');
    if (!context || !canvas.width || !canvas.height) return 0;
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    let drawn = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) drawn++;
    return drawn;
  })()`);

// One engine is enough for the browser: what the data layer decides is tested over HTTP on both.
const engine = engines[0] ?? 'sqlite';

describe(`the owner's dashboard (${engine})`, () => {
  let server: TestServer;
  let browser: Browser;
  let student: Person;
  const shots = screenshotDir(`dashboard-${engine}`);

  before(async () => {
    server = await startTestServer(engine);
    const people = await schoolWithPeople(server);
    student = people.student;
    const staff = apiClient(
      server.url,
      await tokenFor(server, people.staff, 'courses:write curriculum:write students:write students:read'),
    );
    const ok = async <T>(promise: Promise<{ status: number; body: unknown }>) => {
      const response = await promise;
      assert.ok(response.status < 300, JSON.stringify(response.body));
      return response.body as T;
    };
    const course = await ok<{ id: string }>(staff.post('/api/v1/courses', { title: 'Charcoal drawing' }));
    const section = await ok<{ id: string }>(staff.post(`/api/v1/courses/${course.id}/sections`, { title: 'One' }));
    await ok(staff.post(`/api/v1/sections/${section.id}/publish`));
    const lesson = await ok<{ id: string }>(
      staff.post(`/api/v1/sections/${section.id}/lessons`, { title: 'Lines', body: 'Text' }),
    );
    await ok(staff.post(`/api/v1/lessons/${lesson.id}/publish`));
    await ok(staff.post(`/api/v1/courses/${course.id}/publish`));
    await ok(staff.post(`/api/v1/students/${student.id}/enrollments`, { course_id: course.id }));
    await ok(staff.post(`/api/v1/students/${student.id}/lessons/${lesson.id}/complete`));

    // A sale yesterday, as the checkout records one: the order, its item and the ledger's charge.
    const store = ordersStore({ revenue: { add: addToRevenueRollup } });
    const at = new Date(Date.now() - 86_400_000).toISOString();
    const orderId = newId('ord');
    await server.database.db.transaction().execute(async (trx) => {
      await store.insertOrder(trx, {
        id: orderId,
        number: await store.nextNumber(trx),
        user_id: student.id,
        kind: 'purchase',
        status: 'paid',
        currency: 'EUR',
        subtotal: 4900,
        discount: 0,
        total: 4900,
        coupon_id: null,
        coupon_code: null,
        provider: 'test',
        provider_ref: null,
        subscription_id: null,
        failure_reason: null,
        paid_at: at,
        created_at: at,
        updated_at: at,
      });
      await store.insertItems(trx, [
        {
          id: newId('oit'),
          order_id: orderId,
          item_type: 'course',
          item_id: course.id,
          price_id: null,
          title: 'Charcoal drawing',
          unit_amount: 4900,
          discount: 0,
          amount: 4900,
          currency: 'EUR',
        },
      ]);
      await store.insertPayment(trx, {
        id: newId('pay'),
        order_id: orderId,
        kind: 'charge',
        amount: 4900,
        currency: 'EUR',
        provider: 'test',
        provider_ref: `pi_${orderId}`,
        created_at: at,
      });
    });
    browser = await launchChromium();
    console.log(`# screenshots of the dashboard (${engine}): ${shots}`);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const signIn = async (page: Page, person: { email: string; password: string }) => {
    await page.goto(`${server.url}/dashboard`);
    await page.waitForURL(/\/signin\?return_to=%2Fdashboard$/);
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };

  test('the owner sees every chart drawn, switches interval and range by links, and axe finds nothing serious', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      // Chromium asks every site for /favicon.ico on its own; the school has none.
      if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico'))
        problems.push(`console: ${message.text()} ${message.location().url}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    await signIn(page, OWNER);
    await page.waitForURL(`${server.url}/dashboard`);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.waitForSelector('canvas[data-drawn="true"]');
    for (const metric of METRICS) {
      assert.equal(await page.getAttribute(`#chart-${metric}`, 'data-drawn'), 'true', metric);
      assert.ok((await drawnPixels(page, `chart-${metric}`)) > 500, `${metric}: the canvas has a chart on it`);
    }
    // The table under the revenue chart carries yesterday's sale; the enrollments' carry the one enrollment.
    await page.getByText('Revenue as a table', { exact: true }).click();
    assert.match((await page.textContent('#chart-revenue-title + p')) ?? '', /€49\.00/);
    assert.match(
      (await page.locator('section', { has: page.locator('#chart-revenue') }).textContent()) ?? '',
      /€49\.00/,
    );
    assert.match((await page.textContent('#chart-enrollments-title + p')) ?? '', /In this range: 1$/);
    problems.push(...(await accessibilityProblems(page)));
    await photograph(page, join(shots, 'dashboard-day-30d.png'));

    await page.getByRole('link', { name: 'Week', exact: true }).click();
    await page.waitForURL(/interval=week&range=30d/);
    await page.waitForSelector('#chart-mrr[data-drawn="true"]');
    assert.equal(
      await page.getAttribute('nav[aria-label="Dashboard range"] a[aria-current]', 'href'),
      '/dashboard?interval=week&range=30d',
    );
    await page.getByRole('link', { name: '12 months' }).click();
    await page.waitForURL(/interval=week&range=12m/);
    await page.getByRole('link', { name: 'Day', exact: true }).click();
    await page.getByRole('link', { name: '3 years' }).click();
    await page.waitForURL(/interval=day&range=3y/);
    // Three years by day would be over 400 days: drawn by week, and the page says so.
    assert.match((await page.textContent('main')) ?? '', /shown by week/);
    await page.waitForSelector('#chart-revenue[data-drawn="true"]');
    assert.ok((await drawnPixels(page, 'chart-revenue')) > 500);
    problems.push(...(await accessibilityProblems(page)));
    await photograph(page, join(shots, 'dashboard-3y.png'));
    await context.close();
    assert.deepEqual(problems, [], 'no console error, CSP refusal or serious accessibility problem');
  });

  test('a student cannot open it; a signed-out visitor is sent to sign in', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, student);
    await page.waitForURL(`${server.url}/dashboard`);
    const response = await page.goto(`${server.url}/dashboard`);
    assert.equal(response?.status(), 404);
    assert.equal(await page.locator('canvas').count(), 0);
    await context.close();

    const visitor = await new WebClient(server.url).get('/dashboard');
    assert.equal(visitor.status, 303);
    assert.equal(visitor.location, '/signin?return_to=%2Fdashboard');
  });

  test('without JavaScript the tables carry the figures; the scripts are the school’s own, cached for long', async () => {
    const owner = new WebClient(server.url);
    await owner.submit('/signin', '/signin', { email: OWNER.email, password: OWNER.password });
    const page = await owner.get('/dashboard?interval=month&range=12m');
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('cache-control'), 'no-store');
    assert.equal((page.text.match(/<table>/g) ?? []).length, METRICS.length);
    assert.match(page.text, /<td>€49\.00<\/td>/);
    const data = /<script type="application\/json" id="dashboard-data">([^<]*)<\/script>/.exec(page.text);
    const charts = JSON.parse(data?.[1] ?? '{}').charts as { id: string; labels: string[] }[];
    assert.deepEqual(
      charts.map((c) => c.id),
      METRICS.map((m) => `chart-${m}`),
    );
    assert.ok(charts.every((c) => c.labels.length === 12));
    const scripts = [...page.text.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1] as string);
    assert.equal(scripts.length, 2);
    for (const src of [
      ...scripts,
      /<link rel="stylesheet" href="(\/assets\/dashboard\.css[^"]+)"/.exec(page.text)?.[1],
    ]) {
      assert.match(src ?? '', /^\/assets\/[^?]+\?v=[\w.-]+$/, 'served from the school, versioned');
      const asset = await fetch(`${server.url}${src}`);
      assert.equal(asset.status, 200, src);
      assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.ok((await asset.text()).length > 500);
    }
    assert.ok(scripts[0]?.startsWith('/assets/vendor/chart.umd.js?v=4.'), 'Chart.js from node_modules');
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  });
});
