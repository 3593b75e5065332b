import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { accessibilityProblems, launchChromium, photograph, screenshotDir } from '../../support/browser.ts';
import { engines } from '../../support/databases.ts';
import { pictureSchool } from '../../support/picture-school.ts';
import type { TestServer } from '../../support/server.ts';
import { startStorageServer } from '../../support/storage.ts';

const WIDTHS = [
  { name: 'phone', viewport: { width: 390, height: 844 } },
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
] as const;

/** Pictures arrive this late, as on a slow connection, so a box that took its size from them would be seen to move. */
const PICTURE_DELAY_MS = 400;

/** The size of every picture's box (generated covers too) in the order of the page, and the page's layout shift. */
const BOXES = `(() => ({
  boxes: [...document.querySelectorAll('img:not(.pic-ph), .gen-cover')].map((e) => {
    const r = e.getBoundingClientRect();
    return [e.tagName, Math.round(r.width), Math.round(r.height)].join(' ');
  }),
  shift: window.__shift,
}))()`;

/** Adds up the page's layout shifts (reported, not asserted: a web font arriving moves text too). */
const WATCH_SHIFTS = `window.__shift = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__shift += entry.value;
}).observe({ type: 'layout-shift', buffered: true });`;

const engine = engines[0] ?? 'sqlite';

describe(`pictures in Chromium (${engine})`, () => {
  let server: TestServer;
  let browser: Browser;
  let pages: [string, string][];
  const shots = screenshotDir('pictures');

  before(async () => {
    server = await startStorageServer(engine, 'local', { JOBS_POLL_MS: '60000' });
    const school = await pictureSchool(server);
    browser = await launchChromium();
    console.log(`# screenshots of the pictures: ${shots}`);
    pages = [
      ['home', '/'],
      ['catalog', '/courses'],
      ['course-with-cover', `/courses/${school.courses.botanical.slug}`],
      ['course-generated-cover', `/courses/${school.courses.italian.slug}`],
      ['lecturer', `/lecturers/${school.ada.id}`],
      ['posts', '/posts'],
      ['post', `/posts/${school.posts.open.slug}`],
    ];
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Loads `path`, scrolls through it so lazy pictures load, and waits for the fonts and every picture shown. */
  async function visit(page: Page, path: string) {
    await page.goto(`${server.url}${path}`);
    await page.evaluate(`(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += window.innerHeight / 2) {
        window.scrollTo(0, y);
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
      window.scrollTo(0, 0);
      await document.fonts.ready;
    })()`);
    // A function, not a string: the page's CSP refuses to evaluate strings. Hidden pictures (the home page's art on
    // a phone) are never fetched, being lazy.
    await page.waitForFunction(() =>
      Array.from(
        (
          globalThis as unknown as {
            document: { images: ArrayLike<{ complete: boolean; getClientRects(): ArrayLike<unknown> }> };
          }
        ).document.images,
      ).every((img) => img.complete || img.getClientRects().length === 0),
    );
  }

  for (const { name, viewport } of WIDTHS) {
    test(`at ${viewport.width} px: every image sized, its box the same before and after it arrives, axe clean`, async () => {
      // The page as it stands before any picture arrives (none ever does), and as it stands once they all have.
      const without = await browser.newContext({ viewport });
      await without.route('**/media/**', (route) => route.abort());
      const withPictures = await browser.newContext({ viewport });
      await withPictures.addInitScript(WATCH_SHIFTS);
      await withPictures.route('**/media/**', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, PICTURE_DELAY_MS));
        await route.continue();
      });
      const [bare, page] = [await without.newPage(), await withPictures.newPage()];
      try {
        for (const [shot, path] of pages) {
          await visit(bare, path);
          const before = (await bare.evaluate(BOXES)) as { boxes: string[] };
          await visit(page, path);
          const after = (await page.evaluate(BOXES)) as { boxes: string[]; shift: number };
          assert.deepEqual(after.boxes, before.boxes, `${path}: a picture's box changed as it arrived`);
          console.log(
            `# ${path} at ${viewport.width} px: ${after.boxes.length} pictures, layout shift ${after.shift.toFixed(4)}`,
          );
          const unsized = await page.evaluate(
            `[...document.images].filter((img) => !img.getAttribute('width') || !img.getAttribute('height')).map((img) => img.outerHTML)`,
          );
          assert.deepEqual(unsized, [], `${path}: images without width and height`);
          assert.deepEqual(await accessibilityProblems(page), [], path);
          await photograph(page, join(shots, `${shot}-${name}.png`));
        }
      } finally {
        await without.close();
        await withPictures.close();
      }
    });
  }

  test('the browser takes the AVIF variant that fits the width shown, on a phone with a dense screen too', async () => {
    const cases = [
      { viewport: WIDTHS[0].viewport, deviceScaleFactor: 2 },
      { viewport: WIDTHS[1].viewport, deviceScaleFactor: 1 },
    ];
    for (const { viewport, deviceScaleFactor } of cases) {
      const context = await browser.newContext({ viewport, deviceScaleFactor });
      const page = await context.newPage();
      for (const selector of ['.course-media img:not(.pic-ph)', '.lecturer-card img:not(.pic-ph)']) {
        await visit(page, pages.find(([shot]) => shot === 'course-with-cover')?.[1] ?? '/');
        const shown = (await page.evaluate(`(() => {
          const img = document.querySelector('${selector}');
          return { src: img.currentSrc, pixels: img.getBoundingClientRect().width * devicePixelRatio };
        })()`)) as { src: string; pixels: number };
        assert.match(shown.src, /\/media\/ast_[0-9a-z]{26}\/\d+-[0-9a-f]{12}\.avif$/, selector);
        const width = Number(/\/(\d+)-[0-9a-f]{12}\.avif$/.exec(shown.src)?.[1]);
        // Sharp enough, and not a file much wider than needed (the next width up is at most twice as wide).
        assert.ok(
          width >= shown.pixels && width <= 2 * shown.pixels,
          `${selector}: ${width} px for ${shown.pixels} px`,
        );
      }
      await context.close();
    }
  });
});
