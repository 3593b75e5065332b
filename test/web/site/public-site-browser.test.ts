import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser } from 'playwright-core';
import { apiClient, tokenFor } from '../../support/api.ts';
import { launchChromium, photograph, screenshotDir } from '../../support/browser.ts';
import { publishWithALesson } from '../../support/course-content.ts';
import { engines } from '../../support/databases.ts';
import { enroll, publicSiteSchool } from '../../support/public-site.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** Images of https:// URLs (covers, logos) come from this picture instead of the network, which tests never reach. */
const PICTURE = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="450"><rect width="800" height="450" fill="#8fb3d9"/><circle cx="600" cy="120" r="60" fill="#f5d76e"/><path d="M0 450 L250 200 L450 380 L600 260 L800 450 Z" fill="#3c6e47"/></svg>`;

async function context(browser: Browser, viewport: { width: number; height: number }, javaScriptEnabled = true) {
  const ctx = await browser.newContext({ viewport, javaScriptEnabled });
  await ctx.route(/^https:\/\//, (route) => route.fulfill({ contentType: 'image/svg+xml', body: PICTURE }));
  return ctx;
}

// The browser is the same on both engines; what the data layer decides is tested in public-site.test.ts.
const engine = engines[0] ?? 'sqlite';

describe(`the public website in Chromium (${engine})`, () => {
  let server: TestServer;
  let browser: Browser;
  let school: Awaited<ReturnType<typeof publicSiteSchool>>;
  let pages: [string, string][];
  const shots = screenshotDir(`public-site-${engine}`);

  before(async () => {
    server = await startTestServer(engine);
    school = await publicSiteSchool(server);
    await school.staff.patch(`/api/v1/courses/${school.courses.sketching.id}`, {
      cover_url: 'https://images.school.test/sketch.jpg',
    });
    await enroll(server, school.people.student, school.courses.oil.id);
    const plans = apiClient(server.url, await tokenFor(server, school.people.staff, 'membership_plans:write'));
    const plan = await plans.post<{ id: string; slug: string }>('/api/v1/membership-plans', {
      name: 'Painters’ Club',
      description: 'Every painting course, and a monthly critique.',
      benefits: ['All painting courses', 'Monthly critique'],
      course_ids: [school.courses.oil.id, school.courses.sketching.id],
    });
    for (const price of [
      { amount: 1500, currency: 'EUR', interval: 'month', trial_days: 14 },
      { amount: 29900, currency: 'EUR', interval: 'one_time' },
    ])
      await plans.post(`/api/v1/membership-plans/${plan.body.id}/prices`, price);
    browser = await launchChromium();
    console.log(`# screenshots of the public website (${engine}): ${shots}`);
    const { ada } = school.lecturers;
    const { preview, locked } = school.lessons;
    pages = [
      ['home', '/'],
      ['catalog', '/courses'],
      ['catalog-search', '/courses?q=painting&price=paid'],
      ['course-paid', '/courses/oil-painting'],
      ['course-free', '/courses/free-sketching'],
      ['course-unlisted', '/courses/unlisted-course'],
      ['lesson-preview', `/courses/free-sketching/lessons/${preview.id}`],
      ['lesson-locked', `/courses/free-sketching/lessons/${locked.id}`],
      ['lecturers', '/lecturers'],
      ['lecturer', `/lecturers/${ada.id}`],
      ['posts', '/posts'],
      ['post', '/posts/spring-term'],
      ['page-about', '/p/about'],
      ['plans', '/plans'],
      ['plan', '/plans/painters-club'],
      ['not-found', '/courses/draft-course'],
    ];
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('every public page: no serious or critical axe violation, nothing blocked by the CSP, fits a phone', async () => {
    for (const [size, viewport] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      const ctx = await context(browser, viewport);
      const page = await ctx.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`${page.url()}: ${message.text()}`);
      });
      for (const [name, path] of pages) {
        const response = await page.goto(`${server.url}${path}`);
        assert.equal(response?.status(), name === 'not-found' ? 404 : 200, path);
        const results = await new AxeBuilder({ page }).analyze();
        const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        assert.deepEqual(
          serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
          [],
          `${path} at ${size}`,
        );
        if (size === 'phone') {
          const width = Number(await page.evaluate('document.documentElement.scrollWidth'));
          assert.ok(width <= PHONE.width, `${path} scrolls sideways on a phone (${width}px)`);
        }
        await photograph(page, join(shots, `${name}-${size}.png`));
      }
      assert.deepEqual(
        problems.filter((p) => !/status of 404/.test(p)),
        [],
        'no console errors (a CSP violation shows up here)',
      );
      await ctx.close();
    }
  });

  test('without JavaScript: the catalog search and its Next / Previous links work', async () => {
    for (let i = 0; i < 13; i++) {
      const c = await school.staff.post<{ id: string }>('/api/v1/courses', { title: `Watercolour ${i}` });
      await publishWithALesson(school.staff, c.body.id);
    }
    const ctx = await context(browser, PHONE, false);
    const page = await ctx.newPage();
    await page.goto(`${server.url}/courses`);
    await page.getByLabel('Search').fill('watercolour');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\/courses\?q=watercolour&/);
    const titles = () => page.locator('main .card h2').allTextContents();
    const first = await titles();
    assert.equal(first.length, 12);
    assert.equal(first[0], 'Watercolour 12');
    await photograph(page, join(shots, 'nojs-search-phone.png'));
    await page.getByRole('link', { name: 'Next →' }).click();
    await page.waitForURL(/after=rank_/);
    assert.deepEqual(await titles(), ['Watercolour 0']);
    assert.equal(await page.getByLabel('Search').inputValue(), 'watercolour', 'the search is kept');
    await page.getByRole('link', { name: '← Previous' }).click();
    await page.waitForURL(/before=rank_/);
    assert.deepEqual(await titles(), first);
    await page.getByLabel('Price').selectOption('free');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/price=free/);
    assert.equal((await titles()).length, 12);
    await ctx.close();
  });
});
