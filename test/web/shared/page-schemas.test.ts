import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../../support/databases.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { completeSetup, csrfOf, WebClient } from '../../support/web-client.ts';

/** A refusal a browser shows: the HTML error page (or the form again) with status 400, never the API's JSON. */
function assertHtml400(answer: { status: number; headers: Headers; text: string }) {
  assert.equal(answer.status, 400, answer.text.slice(0, 300));
  assert.match(answer.headers.get('content-type') ?? '', /^text\/html/);
  assert.doesNotMatch(answer.text, /^\s*\{/);
  // Said in words: no field name or pattern of the page's schema on a screen a person reads (the error page, or the
  // form shown again with its problem).
  assert.match(
    answer.text,
    /perhaps a changed or shortened link|This form: was sent with something it does not have|Enter your email and password/,
  );
  assert.doesNotMatch(answer.text, /must (match|be equal)|\^\[|range:|after:|interval:|remember:|is_admin|role:/);
}

for (const engine of engines) {
  describe(`pages validate their query strings and forms like the API (${engine})`, () => {
    let server: TestServer;
    let owner: WebClient;
    before(async () => {
      server = await startTestServer(engine);
      owner = await completeSetup(server.url, server.setupUrl ?? '');
    });
    after(() => server.close());

    test('a tracking parameter does not stop a page from loading', async () => {
      const tracking = 'utm_source=newsletter&utm_medium=email&utm_campaign=spring&fbclid=abc';
      const visitor = new WebClient(server.url);
      for (const path of ['/', '/courses', '/courses?q=oil', '/events', '/posts', '/signin', '/password/forgot']) {
        const answer = await visitor.get(`${path}${path.includes('?') ? '&' : '?'}${tracking}`);
        assert.equal(answer.status, 200, `${path}: ${answer.text.slice(0, 200)}`);
      }
      assert.equal((await owner.get(`/dashboard?range=90d&${tracking}`)).status, 200);
    });

    test('an unknown form field is a 400 page, not dropped', async () => {
      const signout = await owner.get('/signout');
      assertHtml400(await owner.postForm('/signout', { _csrf: csrfOf(signout.text), is_admin: 'yes' }));
      const revoke = await owner.postForm('/account/apps/revoke', {
        _csrf: csrfOf((await owner.get('/signout')).text),

        client_id: 'some-app',
        role: 'owner',
      });
      assertHtml400(revoke);
      // A form that shows its problems beside the fields says the form was altered, without the unknown name.
      const signin = await owner.get('/signin?reauth=1');
      const refused = await owner.postForm('/signin', {
        _csrf: csrfOf(signin.text),
        email: 'owner@school.test',
        password: 'whatever it is',
        remember: 'forever',
      });
      assertHtml400(refused);
      // Still signed in: the refused form changed nothing.
      assert.equal((await owner.get('/signout')).status, 200);
    });

    test('a wrong type on a typed query parameter is a 400 page', async () => {
      assertHtml400(await owner.get('/dashboard?range=forever'));
      assertHtml400(await owner.get('/dashboard?interval=1'));
      assertHtml400(await owner.get('/courses?after=not-a-cursor'));
      assertHtml400(await owner.get('/events?after=evt_1'));
    });
  });
}
