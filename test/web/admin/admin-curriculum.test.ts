import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { apiClient, tokenFor } from '../../support/api.ts';
import { accessibilityProblems, launchChromium, photograph, screenshotDir } from '../../support/browser.ts';
import { engines } from '../../support/databases.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { completeSetup, csrfOf, OWNER, type WebClient } from '../../support/web-client.ts';

type Listed = { data: { id: string; title: string }[] };

for (const engine of engines) {
  describe(`the course builder (${engine})`, () => {
    let server: TestServer;
    let owner: WebClient;
    let api: ReturnType<typeof apiClient>;
    let builder: string;
    let courseId: string;

    before(async () => {
      server = await startTestServer(engine);
      owner = await completeSetup(server.url, server.setupUrl ?? '');
      api = apiClient(server.url, await tokenFor(server, OWNER, 'courses:write curriculum:read curriculum:write'));
      courseId = (await api.post<{ id: string }>('/api/v1/courses', { title: 'Glazing' })).body.id;
      builder = `/admin/courses/${courseId}/curriculum`;
    });
    after(() => server.close());

    const post = async (fields: Record<string, string>, headers: Record<string, string> = {}) => {
      const page = await owner.get(builder);
      return owner.request('POST', builder, {
        body: new URLSearchParams({ _csrf: csrfOf(page.text), ...fields }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      });
    };
    const sections = async () => (await api.get<Listed>(`/api/v1/courses/${courseId}/sections`)).body.data;
    const lessons = async (sectionId: string) =>
      (await api.get<Listed>(`/api/v1/sections/${sectionId}/lessons`)).body.data.map((l) => l.title);

    test('without JavaScript: add sections and lessons, move them with buttons, move a lesson across sections', async () => {
      assert.match((await owner.get(`/admin/courses/${courseId}`)).text, new RegExp(`href="${builder}"`));
      for (const title of ['Basics', 'Firing']) assert.equal((await post({ do: 'add-section', title })).status, 303);
      const [basics, firing] = await sections();
      assert.ok(basics && firing);
      for (const title of ['Mixing', 'Dipping', 'Brushing'])
        assert.equal((await post({ do: 'add-lesson', section: basics.id, title, type: 'text' })).status, 303);
      const [, dipping] = (await api.get<Listed>(`/api/v1/sections/${basics.id}/lessons`)).body.data;
      assert.equal(
        (await post({ do: 'move-lesson', section: basics.id, lesson: dipping?.id ?? '', direction: 'up' })).status,
        303,
      );
      assert.deepEqual(await lessons(basics.id), ['Dipping', 'Mixing', 'Brushing']);
      assert.equal((await post({ do: 'move-section', section: firing.id, direction: 'up' })).status, 303);
      assert.deepEqual(
        (await sections()).map((s) => s.title),
        ['Firing', 'Basics'],
      );
      const moved = await post({ do: 'lesson-to-section', lesson: dipping?.id ?? '', to_section: firing.id });
      assert.equal(moved.status, 303);
      assert.deepEqual(await lessons(firing.id), ['Dipping']);
      assert.match(moved.location ?? '', /notice=moveLesson/);
      const page = await owner.get(moved.location ?? '');
      assert.match(page.text, /The lesson was moved\./);
      assert.ok(page.text.indexOf('Firing') < page.text.indexOf('Basics'), 'the page shows the new order');
    });

    test('the Markdown preview renders as the site does, for staff only, with a CSRF token', async () => {
      const page = await owner.get(builder);
      const shown = await owner.postForm('/admin/preview', { _csrf: csrfOf(page.text), text: '**bold** <b>raw</b>' });
      assert.equal(shown.status, 200);
      assert.equal(shown.text, '<p><strong>bold</strong> &lt;b&gt;raw&lt;/b&gt;</p>\n');
      assert.equal((await owner.postForm('/admin/preview', { text: 'x' })).status, 403, 'no CSRF token');
      const lesson = await api.post<{ id: string }>(`/api/v1/sections/${(await sections())[0]?.id}/lessons`, {
        title: 'Rendered',
        body: 'Use *slip*.',
      });
      assert.match(
        (await owner.get(`/admin/lessons/${lesson.body.id}`)).text,
        /as the site shows it<\/h2><p>Use <em>slip<\/em>\.<\/p>/,
      );
    });

    test("a refused change shows the API's message; the script's JSON answer says it too", async () => {
      const refused = await post({ do: 'add-section', title: '' });
      assert.equal(refused.status, 400);
      assert.match(refused.text, /role="alert"/);
      const [first] = await sections();
      const json = await post(
        { do: 'order-lessons', section: first?.id ?? '', order: 'les_00000000000000000000000000' },
        { accept: 'application/json' },
      );
      assert.ok(json.status >= 400 && json.status < 500, String(json.status));
      assert.match(JSON.parse(json.text).error_description, /\w/);
    });
  });
}

describe('the course builder in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  const shots = screenshotDir('admin-curriculum');
  before(async () => {
    server = await startTestServer(engines[0] ?? 'sqlite');
    await completeSetup(server.url, server.setupUrl ?? '');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('drag-and-drop reorders lessons and sections and the API keeps it; no serious axe problem', async () => {
    const api = apiClient(server.url, await tokenFor(server, OWNER, 'courses:write curriculum:read curriculum:write'));
    const course = (await api.post<{ id: string }>('/api/v1/courses', { title: 'Throwing' })).body.id;
    const one = (await api.post<{ id: string }>(`/api/v1/courses/${course}/sections`, { title: 'Centering' })).body.id;
    const two = (await api.post<{ id: string }>(`/api/v1/courses/${course}/sections`, { title: 'Pulling' })).body.id;
    for (const title of ['Wedging', 'Coning', 'Opening']) await api.post(`/api/v1/sections/${one}/lessons`, { title });
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.setDefaultTimeout(5000);
    await page.goto(`${server.url}/signin`);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.goto(`${server.url}/admin/courses/${course}/curriculum`);
    assert.deepEqual(await accessibilityProblems(page), []);
    await photograph(page, join(shots, 'builder-desktop.png'));
    const lesson = (title: string) => page.locator('.builder-lesson', { hasText: title });
    await lesson('Opening').dragTo(lesson('Wedging'), { targetPosition: { x: 10, y: 2 } });
    await page.getByText('Saved the new order.').waitFor({ state: 'attached' });
    const titles = async (id: string) =>
      (await api.get<Listed>(`/api/v1/sections/${id}/lessons`)).body.data.map((l) => l.title);
    assert.deepEqual(await titles(one), ['Opening', 'Wedging', 'Coning']);
    const section = (title: string) => page.locator('.builder-section > h2', { hasText: title });
    await page.locator('#builder-status').evaluate((el) => {
      el.textContent = '';
    });
    await section('Pulling').dragTo(section('Centering'), { targetPosition: { x: 10, y: 2 } });
    await page.getByText('Saved the new order.').waitFor({ state: 'attached' });
    assert.deepEqual(
      (await api.get<Listed>(`/api/v1/courses/${course}/sections`)).body.data.map((s) => s.title),
      ['Pulling', 'Centering'],
    );
    void two;
    const [first] = (await api.get<Listed>(`/api/v1/sections/${one}/lessons`)).body.data;
    await page.goto(`${server.url}/admin/lessons/${first?.id}/edit`);
    await page.getByLabel(/^Text/).fill('Keep the *wheel* wet.');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.locator('.preview em', { hasText: 'wheel' }).waitFor();
    assert.deepEqual(await accessibilityProblems(page), []);
    await photograph(page, join(shots, 'lesson-preview-desktop.png'));
    await page.setViewportSize({ width: 390, height: 844 });
    await photograph(page, join(shots, 'builder-phone.png'));
  });
});
