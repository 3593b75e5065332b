import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createUser } from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { completeSetup, csrfOf, fillIn, signedInClient, WebClient } from '../support/web-client.ts';

for (const engine of engines) {
  describe(`the admin (${engine})`, () => {
    let server: TestServer;
    let owner: WebClient;
    before(async () => {
      server = await startTestServer(engine);
      owner = await completeSetup(server.url, server.setupUrl ?? '');
    });
    after(() => server.close());

    test('a signed-out visitor is sent to sign in and back; a student gets the 404 page', async () => {
      const visitor = new WebClient(server.url);
      const away = await visitor.get('/admin/courses');
      assert.equal(away.status, 303);
      assert.equal(away.location, `/signin?return_to=${encodeURIComponent('/admin/courses')}`);
      const student = await createUser(server, 'student', 'Stu Dent');
      const browser = await signedInClient(server.url, student);
      assert.equal((await browser.get('/admin')).status, 404);
      assert.equal((await browser.get('/admin/courses/new')).status, 404);
      const posted = await browser.postForm('/admin/courses/new', { _csrf: 'x', title: 'Mine' });
      assert.equal(posted.status, 404);
    });

    test('the owner creates a course, sees the API refuse a bad slug next to its field, and publishes it', async () => {
      const refused = await fillIn(owner, '/admin/courses/new', '/admin/courses/new', {
        title: 'Pottery',
        slug: 'Bad Slug!',
      });
      assert.equal(refused.status, 400, refused.text.slice(0, 500));
      assert.match(refused.text, /id="f-slug-error"/);
      assert.match(refused.text, /value="Pottery"/, 'the typed title is kept');
      const made = await fillIn(owner, '/admin/courses/new', '/admin/courses/new', {
        title: 'Pottery',
        slug: 'pottery',
      });
      assert.equal(made.status, 303, made.text.slice(0, 500));
      const path = (made.location ?? '').split('?')[0] ?? '';
      assert.match(path, /^\/admin\/courses\/crs_/);
      const page = await owner.get(made.location ?? '');
      assert.equal(page.status, 200);
      assert.match(page.text, /Done: Create a draft course/);
      assert.match(page.text, /Pottery/);
      const edit = await fillIn(owner, `${path}/edit`, `${path}/edit`, {
        title: 'Pottery for beginners',
        slug: 'pottery',
      });
      assert.equal(edit.status, 303, /role="alert">(.*?)<\/div>/s.exec(edit.text)?.[1]);
      assert.match((await owner.get(path)).text, /Pottery for beginners/);
    });

    test('every write operation of the API has an admin screen', async () => {
      const writes = server.routes.filter(
        (r) => r.url.startsWith('/api/v1') && !['GET', 'HEAD'].includes(r.method) && r.config.binary !== true,
      );
      const missing: string[] = [];
      for (const route of writes) {
        const name = String(route.schema?.operationId);
        const screen = await owner.get(`/admin/operations/${name}`);
        if (screen.status !== 200) missing.push(`${name}: ${screen.status}`);
        else csrfOf(screen.text);
      }
      assert.deepEqual(missing, []);
    });
  });
}
