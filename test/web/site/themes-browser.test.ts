import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { accessibilityProblems, launchChromium, photograph, screenshotDir, signInPage } from '../../support/browser.ts';
import { engines } from '../../support/databases.ts';
import { enroll, publicSiteSchool } from '../../support/public-site.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const SIZES = [
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1280, height: 800 }],
] as const;
const THEMES = ['classic', 'studio', 'night'] as const;

/** Images of https:// URLs (covers, logos) come from this picture instead of the network, which tests never reach. */
const PICTURE = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="450"><rect width="800" height="450" fill="#c9b79c"/><circle cx="560" cy="150" r="70" fill="#f2d16b"/><path d="M0 450 L260 190 L470 390 L620 250 L800 450 Z" fill="#5b7b5a"/></svg>`;

// The browser is the same on both engines; what the data layer decides is tested over HTTP.
const engine = engines[0] ?? 'sqlite';

describe(`the built-in themes in Chromium (${engine})`, () => {
  let server: TestServer;
  let browser: Browser;
  let school: Awaited<ReturnType<typeof publicSiteSchool>>;
  const shots = screenshotDir(`themes-${engine}`);

  async function context(viewport: { width: number; height: number }): Promise<BrowserContext> {
    const ctx = await browser.newContext({ viewport });
    await ctx.route(/^https:\/\//, (route) => route.fulfill({ contentType: 'image/svg+xml', body: PICTURE }));
    return ctx;
  }

  before(async () => {
    server = await startTestServer(engine, { PAYMENTS_PROVIDER: 'test', LIST_CACHE_MS: '0' });
    school = await publicSiteSchool(server);
    const { oil } = school.courses;
    const saved = await school.staff.patch(`/api/v1/courses/${oil.id}`, {
      outcomes: ['Mix colours that stay clean', 'Paint light falling on a still life', 'Varnish and frame your work'],
      audience: ['Beginners who have drawn a little', 'Acrylic painters moving to oils'],
      requirements: ['A set of six oil colours', 'Two brushes and a canvas board'],
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    // The student learns in the free course, so each theme's player is seen too.
    await enroll(server, school.people.student, school.courses.sketching.id);
    browser = await launchChromium();
    console.log(`# screenshots of each theme: ${shots}`);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('the owner picks a theme in the admin: its sample is shown, and the site takes it at once', async () => {
    const ctx = await context({ width: 1280, height: 800 });
    const page = await ctx.newPage();
    await signInPage(page, server.url, school.people.staff);
    await page.goto(`${server.url}/admin/appearance`);
    await page.getByRole('link', { name: 'Theme' }).click();
    await page.waitForURL(/\/admin\/appearance\/theme$/);
    assert.ok(await page.getByRole('radio', { name: /Classic/ }).isChecked(), 'the theme in use is chosen');
    assert.deepEqual(await accessibilityProblems(page), [], 'the theme screen');
    await photograph(page, join(shots, 'admin-theme-desktop.png'));
    await page.getByRole('radio', { name: /Night/ }).check();
    await page.getByRole('button', { name: 'Use this theme' }).click();
    await page.waitForURL(/saved=1/);
    await page.goto(`${server.url}/`);
    assert.equal(await page.locator('html').getAttribute('class'), 'theme-night');
    assert.equal(
      await page.locator('html').getAttribute('lang'),
      'en-GB',
      "the school's locale is the pages' language",
    );
    const background = await page.evaluate('getComputedStyle(document.documentElement).backgroundColor');
    assert.equal(background, 'rgb(16, 20, 28)', "the night theme's background");
    await ctx.close();
  });

  test('the owner writes the home page: headline, button, parts in order; the site shows them', async () => {
    const ctx = await context({ width: 390, height: 844 });
    const page = await ctx.newPage();
    await signInPage(page, server.url, school.people.staff);
    await page.goto(`${server.url}/admin/appearance/home`);
    await page.getByLabel('Headline', { exact: true }).fill('Paint what you see');
    await page.getByLabel('Button text').fill('Find your course');
    await page.getByRole('checkbox', { name: 'Lecturers' }).uncheck();
    await page.getByRole('checkbox', { name: 'Oil Painting' }).check();
    assert.deepEqual(await accessibilityProblems(page), [], 'the home page screen');
    await photograph(page, join(shots, 'admin-home-phone.png'));
    await page.getByRole('button', { name: 'Save the home page' }).click();
    await page.waitForURL(/saved=1/);
    await page.getByLabel('Button link').fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Save the home page' }).click();
    assert.match((await page.locator('.field-error').first().textContent()) ?? '', /path like \/courses/);
    assert.equal(await page.getByLabel('Button link').inputValue(), 'javascript:alert(1)', 'kept as typed');
    await page.goto(`${server.url}/`);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Paint what you see');
    assert.equal(await page.getByRole('link', { name: 'Find your course' }).getAttribute('href'), '/courses');
    assert.equal(await page.getByRole('heading', { name: 'Meet the lecturers' }).count(), 0);
    const featured = page.getByRole('region', { name: 'Featured courses' });
    assert.deepEqual(await featured.getByRole('heading', { level: 3 }).allTextContents(), ['Oil Painting']);
    await ctx.close();
  });

  test('every theme: every public page, the player and checkout read well at both widths (axe, no sideways scroll)', async () => {
    const { preview, locked } = school.lessons;
    const { ada } = school.lecturers;
    /** [name, path, signed in, status] */
    const pages: [string, string, boolean, number][] = [
      ['home', '/', false, 200],
      ['catalog', '/courses', false, 200],
      ['catalog-search', '/courses?q=painting', false, 200],
      ['course', '/courses/oil-painting', false, 200],
      ['course-free', '/courses/free-sketching', false, 200],
      ['lesson-preview', `/courses/free-sketching/lessons/${preview.id}`, false, 200],
      ['lesson-locked', `/courses/free-sketching/lessons/${locked.id}`, false, 200],
      ['lecturers', '/lecturers', false, 200],
      ['lecturer', `/lecturers/${ada.id}`, false, 200],
      ['posts', '/posts', false, 200],
      ['post', '/posts/spring-term', false, 200],
      ['page-about', '/p/about', false, 200],
      ['not-found', '/courses/draft-course', false, 404],
      ['player', `/learn/free-sketching/${preview.id}`, true, 200],
      ['checkout', '/checkout/course/oil-painting', true, 200],
    ];
    for (const theme of THEMES) {
      assert.equal((await school.staff.patch('/api/v1/appearance', { theme })).status, 200);
      for (const [size, viewport] of SIZES) {
        const visitor = await context(viewport);
        const student = await context(viewport);
        const signedIn = await student.newPage();
        await signInPage(signedIn, server.url, school.people.student);
        const anonymous = await visitor.newPage();
        for (const [name, path, personal, status] of pages) {
          const page = personal ? signedIn : anonymous;
          const response = await page.goto(`${server.url}${path}`);
          assert.equal(response?.status(), status, `${theme} ${path}`);
          assert.equal(await page.locator('html').getAttribute('class'), `theme-${theme}`);
          assert.deepEqual(await accessibilityProblems(page), [], `${theme}: ${path} at ${size}`);
          if (size === 'phone') {
            const width = Number(await page.evaluate('document.documentElement.scrollWidth'));
            assert.ok(width <= viewport.width, `${theme}: ${path} scrolls sideways on a phone (${width}px)`);
          }
          await photograph(page, join(shots, `${theme}-${name}-${size}.png`));
        }
        await visitor.close();
        await student.close();
      }
    }
  });

  test('the course page: the buy box stays in view on desktop and is a bar at the bottom of a phone', async () => {
    for (const [size, viewport] of SIZES) {
      const ctx = await context(viewport);
      const page = await ctx.newPage();
      await page.goto(`${server.url}/courses/oil-painting`);
      const box = page.getByRole('complementary', { name: 'Enrollment' });
      await page.mouse.wheel(0, 2000);
      await page.waitForFunction('window.scrollY > 0');
      const bounds = await box.boundingBox();
      assert.ok(bounds, 'the box is shown');
      assert.ok(bounds.y >= 0 && bounds.y + bounds.height <= viewport.height, `${size}: in view after scrolling`);
      if (size === 'phone') assert.ok(viewport.height - (bounds.y + bounds.height) < 2, 'at the bottom of the screen');
      else assert.ok(bounds.x > viewport.width / 2, 'beside the content, on the right');
      await ctx.close();
    }
  });
});
