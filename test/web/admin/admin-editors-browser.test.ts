import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { buildQuiz } from '../../support/admin-pages.ts';
import { apiClient, tokenFor } from '../../support/api.ts';
import { accessibilityProblems, launchChromium, photograph, screenshotDir, signInPage } from '../../support/browser.ts';
import { engines } from '../../support/databases.ts';
import { png } from '../../support/files.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { completeSetup, OWNER } from '../../support/web-client.ts';

const SIZES = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;

describe('the dedicated editors in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const shots = screenshotDir('admin-editors');

  before(async () => {
    server = await startTestServer(engines[0] ?? 'sqlite');
    await completeSetup(server.url, server.setupUrl ?? '');
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: SIZES.desktop })).newPage();
    page.setDefaultTimeout(10_000);
    await signInPage(page, server.url, OWNER);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('a three-question quiz is built and a course cover uploaded in the browser; every editor fits a phone', async () => {
    const api = apiClient(
      server.url,
      await tokenFor(
        server,
        OWNER,
        'courses:read courses:write curriculum:read curriculum:write lecturers:write posts:write digital_products:write',
      ),
    );
    const course = (await api.post<{ id: string }>('/api/v1/courses', { title: 'Wood firing' })).body.id;
    const section = (await api.post<{ id: string }>(`/api/v1/courses/${course}/sections`, { title: 'The kiln' })).body
      .id;
    await api.post(`/api/v1/courses/${course}/sections`, { title: 'Stoking' });
    const lesson = (
      await api.post<{ id: string }>(`/api/v1/sections/${section}/lessons`, { title: 'Kiln check', type: 'quiz' })
    ).body.id;

    await page.goto(`${server.url}/admin/lessons/${lesson}`);
    await page.getByRole('link', { name: 'Questions' }).click();
    const questions = [
      { prompt: 'What fuels a wood kiln?', choices: ['Wood', 'Gas'], right: [0] },
      { prompt: 'What makes the ash glaze?', choices: ['Fly ash', 'Paint', 'Smoke'], right: [0] },
      { prompt: 'Which are safe to burn?', choices: ['Dry pine', 'Painted boards', 'Dry oak'], right: [0, 2] },
    ];
    await buildQuiz(page, questions);
    await page.locator('#q2-explanation').fill('Paint gives off fumes.');
    await page.getByRole('button', { name: 'Save the quiz' }).last().click();
    await page.getByText('The quiz is saved.').waitFor();
    const stored = (
      await api.get<{ quiz: { questions: { prompt: string; answers: number[] }[] } }>(`/api/v1/lessons/${lesson}`)
    ).body.quiz;
    assert.deepEqual(
      stored.questions.map((q) => [q.prompt, q.answers]),
      questions.map((q) => [q.prompt, q.right]),
    );

    await page.goto(`${server.url}/admin/courses/${course}`);
    await page.getByRole('link', { name: 'Cover image' }).click();
    await page.getByLabel(/Picture/).setInputFiles({ name: 'kiln.png', mimeType: 'image/png', buffer: png(40) });
    await page.getByRole('button', { name: 'Upload and use it' }).click();
    await page.getByText('The cover image is saved.').waitFor();
    const cover = (await api.get<{ cover_asset_id: string | null }>(`/api/v1/courses/${course}`)).body.cover_asset_id;
    assert.match(cover ?? '', /^ast_/);
    assert.equal(
      await page
        .locator('img.image-preview')
        .first()
        .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
      40,
    );

    const lecturer = (await api.post<{ id: string }>('/api/v1/lecturers', { name: 'Ola Stoker' })).body.id;
    const post = (await api.post<{ id: string }>('/api/v1/posts', { title: 'Firing diary' })).body.id;
    const product = (await api.post<{ id: string }>('/api/v1/digital-products', { title: 'Kiln log' })).body.id;
    const editors = {
      quiz: `/admin/lessons/${lesson}/quiz`,
      drip: `/admin/courses/${course}/drip`,
      fonts: '/admin/appearance/fonts',
      menu: '/admin/appearance/menu',
      cover: `/admin/courses/${course}/cover`,
      photo: `/admin/lecturers/${lecturer}/photo`,
      'post-cover': `/admin/posts/${post}/cover`,
      'product-picture': `/admin/products/${product}/picture`,
      logo: '/admin/appearance/logo',
    };
    const problems: string[] = [];
    for (const [name, path] of Object.entries(editors)) {
      for (const [size, viewport] of Object.entries(SIZES)) {
        await page.setViewportSize(viewport);
        await page.goto(`${server.url}${path}`);
        await photograph(page, join(shots, `${name}-${size}.png`));
        const wide = Number(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'));
        if (wide > 0) problems.push(`${name} at ${size}: ${wide}px of sideways scroll`);
        const text = await page.locator('main').innerText();
        if (/\/api\/|\b[a-z]+_[a-z_]+\b|\b(ast|crs|les|sec)_/.test(text))
          problems.push(`${name}: machine words in "${text.slice(0, 200)}"`);
        if (size === 'desktop') for (const p of await accessibilityProblems(page)) problems.push(`${name}: ${p}`);
      }
    }
    assert.deepEqual(problems, []);
  });
});
