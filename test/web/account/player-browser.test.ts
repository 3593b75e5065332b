import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { seedDemoSchool } from '../../../src/demo/seed.ts';
import { localBlobStore } from '../../../src/storage/local-blob-store.ts';
import { accessibilityProblems, launchChromium, photograph, screenshotDir, signInPage } from '../../support/browser.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

/*
 * The page's own globals, as the functions handed to page.evaluate see them: this project compiles without the DOM
 * library, so the few parts the checks read are named here (types only; nothing of this runs in Node).
 */
type VTTCue = { text: string };
type TextTrack = {
  mode: string;
  label: string;
  cues: { length: number } | null;
  activeCues: { length: number; [index: number]: unknown } | null;
};
type HTMLMediaElement = {
  pause(): void;
  currentTime: number;
  playbackRate: number;
  paused: boolean;
  textTracks: Iterable<TextTrack> & { [index: number]: TextTrack | undefined };
};
type HTMLVideoElement = HTMLMediaElement;
type HTMLCanvasElement = { width: number; height: number; getAttribute(name: string): string | null };
type Element = unknown;
declare const document: {
  querySelector(selector: string): HTMLMediaElement | null;
  activeElement: Element;
};
declare function getComputedStyle(element: Element): { outlineStyle: string; outlineWidth: string };

const WIDTHS = [
  { name: 'phone', viewport: { width: 390, height: 844 } },
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
] as const;

/**
 * The demo school's welcome video, spoken introduction and PDF checklist as its student sees them in Chromium: the
 * captions show, the speed and the keys work, a reload resumes near the place left, and the PDF's first page is drawn
 * in the page with a way to download it; no serious accessibility problem, and pictures of each for people to judge.
 */
describe('the lesson player in Chromium (the demo school)', () => {
  let server: TestServer;
  let browser: Browser;
  let student: { email: string; password: string };
  const lessons: Record<string, string> = {};
  const shots = screenshotDir('player');
  const slug = 'watercolour-for-beginners';

  before(async () => {
    server = await startTestServer('sqlite');
    const result = await seedDemoSchool(server.database.db, {
      config: server.config,
      blobs: localBlobStore(server.config.STORAGE_DIR),
    });
    const account = result.accounts.find((a) => a.role === 'student');
    assert.ok(account?.password);
    student = { email: account.email, password: account.password };
    const rows = await server.database.db.selectFrom('lessons').select(['id', 'title']).execute();
    for (const row of rows) lessons[row.title] = row.id;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const video = (page: Page) => page.locator('video');
  const state = (page: Page) =>
    video(page).evaluate((v: HTMLVideoElement) => ({
      time: v.currentTime,
      rate: v.playbackRate,
      paused: v.paused,
      tracks: [...v.textTracks].map((t) => ({ mode: t.mode, label: t.label, cues: t.cues?.length ?? 0 })),
    }));

  for (const { name, viewport } of WIDTHS) {
    test(`the welcome video plays with captions, speed and keys (${name})`, async () => {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      try {
        await signInPage(page, server.url, student);
        await page.goto(`${server.url}/learn/${slug}/${lessons['Welcome and what you need']}`);
        const bar = page.getByRole('group', { name: 'Video controls' });
        await bar.waitFor();
        assert.equal(await video(page).getAttribute('controls'), null, 'the bar replaces the native controls');
        assert.ok(await video(page).getAttribute('poster'));
        await page.waitForFunction(() => (document.querySelector('video')?.textTracks[0]?.cues?.length ?? 0) > 0);
        let now = await state(page);
        assert.deepEqual(now.tracks, [{ mode: 'showing', label: 'English', cues: 6 }], 'the captions are on');
        assert.equal(await page.getByLabel('Captions').inputValue(), '0');

        await page.getByRole('button', { name: 'Play' }).click();
        await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.5);
        await page.getByLabel('Speed').selectOption('1.5');
        assert.equal((await state(page)).rate, 1.5);
        await page.getByRole('button', { name: 'Pause' }).click();
        await page.keyboard.press('>');
        assert.equal((await state(page)).rate, 1.75, '> is faster');
        const before = (await state(page)).time;
        await page.keyboard.press('l');
        now = await state(page);
        assert.ok(now.time >= before + 9.5, `L goes 10 s on: ${before} -> ${now.time}`);
        await page.keyboard.press('j');
        assert.ok(Math.abs((await state(page)).time - before) < 0.5, 'J comes back');
        await page.keyboard.press('c');
        assert.equal((await state(page)).tracks[0]?.mode, 'disabled', 'C turns captions off');
        await page.keyboard.press('c');
        assert.equal((await state(page)).tracks[0]?.mode, 'showing', '…and on again');
        await expectFocusVisible(page);

        // A still with the second caption on screen, for the picture.
        await video(page).evaluate((v: HTMLVideoElement) => {
          v.pause();
          v.currentTime = 5;
        });
        // The caption at 5 s shows once the seek has landed (the one before it may still be active for a moment).
        const cue = await (
          await page.waitForFunction(() => {
            const text = (document.querySelector('video')?.textTracks[0]?.activeCues?.[0] as VTTCue | undefined)?.text;
            return text?.includes('pigment') ? text : false;
          })
        ).jsonValue();
        assert.match(String(cue), /water, pigment and paper/);
        assert.deepEqual(await accessibilityProblems(page), []);
        await photograph(page, join(shots, `video-${name}.png`));
      } finally {
        await context.close();
      }
    });
  }

  test('a reload resumes near the place left; Start over goes back to the beginning', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    try {
      await signInPage(page, server.url, student);
      const at = `${server.url}/learn/${slug}/${lessons['Welcome and what you need']}`;
      await page.goto(at);
      await page.getByRole('group', { name: 'Video controls' }).waitFor();
      await page.getByRole('button', { name: 'Play' }).click();
      await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.3);
      await video(page).evaluate((v: HTMLVideoElement) => {
        v.currentTime = 14.4;
      });
      // Another tab has just saved this lesson: the pause's save is refused as too soon, and the player sends it
      // again when the server allows instead of losing the place. The video is paused in the page at once, so the two
      // saves are never further apart than the server's window.
      // The player's own saves, told from the other tab's (which says it is at 3 s) by the place they carry.
      const playerSave = (r: { url(): string; request(): { method(): string; postData(): string | null } }) =>
        r.url().endsWith('/position') &&
        r.request().method() === 'POST' &&
        new URLSearchParams(r.request().postData() ?? '').get('position_s') !== '3';
      const saves: number[] = [];
      page.on('response', (r) => {
        if (playerSave(r)) saves.push(r.status());
      });
      // (A save of the ten-second rhythm may come first on a slow machine: the one awaited follows the refusal.)
      const kept = page.waitForResponse((r) => playerSave(r) && r.status() === 204 && saves.includes(429));
      const box = page.locator('[data-save]');
      const [saveUrl, csrf] = [await box.getAttribute('data-save'), await box.getAttribute('data-csrf')];
      const other = await page.evaluate(
        async ({ saveUrl, csrf }) => {
          const body = new URLSearchParams({ _csrf: csrf, position_s: '3', duration_s: '29' });
          const send = () => fetch(saveUrl, { method: 'POST', body, credentials: 'same-origin' });
          let status = (await send()).status;
          // The previous test's page, closing, may have saved this lesson a moment ago.
          if (status === 429)
            status = await new Promise<number>((done) => setTimeout(() => send().then((r) => done(r.status)), 2100));
          // Paused where it was put: after the wait above it has played on for two seconds.
          const video = document.querySelector('video');
          if (video) video.currentTime = 14.4;
          video?.pause();
          return status;
        },
        { saveUrl: String(saveUrl), csrf: String(csrf) },
      );
      assert.equal(other, 204);
      await kept;
      assert.deepEqual(saves.slice(-2), [429, 204], 'the pause’s save refused as too soon, then sent again');

      await page.reload();
      const resume = page.getByRole('button', { name: /^Resume from 0:1[45]$/ });
      await resume.waitFor();
      await page.waitForFunction(() => Math.abs((document.querySelector('video')?.currentTime ?? 0) - 14) < 1.5);
      assert.deepEqual(await accessibilityProblems(page), []);
      await photograph(page, join(shots, 'video-resume-desktop.png'));
      await page.getByRole('button', { name: 'Start over' }).click();
      await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 99) < 2);
      assert.equal(await resume.count(), 0, 'the offer goes once taken');
    } finally {
      await context.close();
    }
  });

  for (const { name, viewport } of WIDTHS) {
    test(`the PDF lesson draws its first page in the page, with a download link; the audio lesson plays (${name})`, async () => {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      try {
        await signInPage(page, server.url, student);
        await page.goto(`${server.url}/learn/${slug}/${lessons['Materials checklist']}`);
        await page.locator('.pdf-viewer[data-rendered="1"]').waitFor();
        const size = await page
          .locator('.pdf-frame canvas')
          .evaluate((c: HTMLCanvasElement) => ({ w: c.width, h: c.height, label: c.getAttribute('aria-label') }));
        assert.ok(size.w > 300 && size.h > size.w, JSON.stringify(size));
        assert.equal(size.label, 'Page 1 of 1 of Materials checklist');
        const download = page.getByRole('link', { name: 'Download the PDF' });
        assert.equal(await download.getAttribute('download'), '');
        assert.match((await download.getAttribute('href')) ?? '', /\/media\/ast_\w+\?expires=/);
        assert.match((await page.locator('.pdf-viewer .visually-hidden').textContent()) ?? '', /Paint and brushes/);
        assert.deepEqual(await accessibilityProblems(page), []);
        await photograph(page, join(shots, `pdf-${name}.png`));

        await page.goto(`${server.url}/learn/${slug}/${lessons['A word before you start']}`);
        await page.getByRole('group', { name: 'Audio controls' }).waitFor();
        await page.getByRole('button', { name: 'Play' }).click();
        await page.waitForFunction(() => (document.querySelector('audio')?.currentTime ?? 0) > 0.8);
        await page.getByRole('button', { name: 'Pause' }).click();
        await page.locator('.player-cue:not(:empty)').waitFor();
        assert.match((await page.locator('.player-cue').textContent()) ?? '', /mistakes/);
        assert.deepEqual(await accessibilityProblems(page), []);
        await photograph(page, join(shots, `audio-${name}.png`));
      } finally {
        await context.close();
      }
    });
  }

  test('a video whose file cannot be loaded says so in words, with the file to try, at phone and desktop widths', async () => {
    // The demo's other video lessons name files on a host that does not exist, as a moved file or a host away would.
    const context = await browser.newContext({ viewport: WIDTHS[0].viewport });
    const page = await context.newPage();
    try {
      await signInPage(page, server.url, student);
      await page.goto(`${server.url}/learn/${slug}/${lessons['Flat and graded washes']}`);
      const problem = page.getByRole('alert');
      await problem.waitFor();
      assert.match((await problem.textContent()) ?? '', /This video can’t be played right now\./);
      const file = page.getByRole('link', { name: 'open the video file' });
      assert.match((await file.getAttribute('href')) ?? '', /^https:\/\/media\.[^/]+\/.+\.mp4$/);
      assert.equal(await page.locator('video').isVisible(), false, 'no dead black box');
      assert.equal(
        await page.getByRole('group', { name: 'Video controls' }).isVisible(),
        false,
        'no buttons that do nothing',
      );
      assert.deepEqual(await accessibilityProblems(page), []);
      for (const { name, viewport } of WIDTHS) {
        await page.setViewportSize(viewport);
        await photograph(page, join(shots, `unplayable-${name}.png`));
      }
    } finally {
      await context.close();
    }
  });
});

/** The focused control shows a focus ring (an outline of some width) when reached by the keyboard. */
async function expectFocusVisible(page: Page) {
  await page.getByRole('button', { name: /Play|Pause/ }).focus();
  await page.keyboard.press('Tab');
  const outline = await page.evaluate(() => {
    const style = getComputedStyle(document.activeElement as Element);
    return `${style.outlineStyle} ${style.outlineWidth}`;
  });
  assert.match(outline, /^solid [1-9]/, `focus ring: ${outline}`);
}
