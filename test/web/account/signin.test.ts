import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../../support/databases.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { completeSetup, csrfOf, OWNER, WebClient } from '../../support/web-client.ts';

for (const engine of engines) {
  describe(`sign-up, sign-in and sign-out (${engine})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(engine, { SIGNIN_MAX_FAILURES: '3' });
      await completeSetup(server.url, server.setupUrl ?? '');
    });
    after(() => server.close());

    test('a student creates an account, is signed in, signs out and back in', async () => {
      const student = new WebClient(server.url);
      const form = await student.get('/signup');
      assert.equal(form.status, 200);
      assert.match(form.text, /<label for="f-name">Name<\/label>/);
      assert.match(form.text, /<label for="f-email">Email<\/label>/);
      assert.match(form.text, /<label for="f-password">Password<\/label>/);
      assert.match(form.text, /<button type="submit">Create account<\/button>/);
      const created = await student.postForm('/signup', {
        _csrf: csrfOf(form.text),
        name: 'Sam Student',
        email: 'Sam@Example.test',
        password: 'a long enough password',
      });
      assert.equal(created.status, 303);
      assert.equal(created.location, '/');
      assert.match((await student.get('/')).text, /Welcome, Sam Student/);

      const signout = await student.get('/signout');
      assert.match(signout.text, /<button type="submit">Sign out<\/button>/);
      const out = await student.postForm('/signout', { _csrf: csrfOf(signout.text) });
      assert.equal(out.status, 303);
      assert.doesNotMatch((await student.get('/')).text, /Welcome( back)?, /);

      // Email is case-insensitive.
      const back = await student.submit('/signin', '/signin', {
        email: 'sam@example.TEST',
        password: 'a long enough password',
      });
      assert.equal(back.status, 303);
      assert.match((await student.get('/')).text, /Welcome( back)?, Sam Student/);
    });

    test('sign-out ends the session on the server, not just the cookie', async () => {
      const client = new WebClient(server.url);
      await client.submit('/signin', '/signin', { email: OWNER.email, password: OWNER.password });
      const stolen = new Map(client.cookies);
      const before = new WebClient(server.url);
      for (const [k, v] of stolen) before.cookies.set(k, v);
      assert.match((await before.get('/')).text, /Welcome( back)?, /, 'the copied cookie is signed in before sign-out');
      const signout = await client.get('/signout');
      await client.postForm('/signout', { _csrf: csrfOf(signout.text) });
      const replay = new WebClient(server.url);
      for (const [k, v] of stolen) replay.cookies.set(k, v);
      assert.doesNotMatch((await replay.get('/')).text, /Welcome( back)?, /);
    });

    test('the sign-in page has the labelled fields and button', async () => {
      const page = await new WebClient(server.url).get('/signin');
      assert.match(page.text, /<label for="f-email">Email<\/label>/);
      assert.match(page.text, /<label for="f-password">Password<\/label>/);
      assert.match(page.text, /<button type="submit">Sign in<\/button>/);
      assert.equal(page.headers.get('x-frame-options'), 'DENY');
      assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
      assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
    });

    test('a wrong password and an unknown email get the same answer', async () => {
      const wrongPassword = await new WebClient(server.url).submit('/signin', '/signin', {
        email: OWNER.email,
        password: 'wrong password!',
      });
      const unknownEmail = await new WebClient(server.url).submit('/signin', '/signin', {
        email: 'nobody@school.test',
        password: 'wrong password!',
      });
      assert.equal(wrongPassword.status, 401);
      assert.equal(unknownEmail.status, 401);
      const message = (text: string) => /<div class="error" role="alert"><p>([^<]*)<\/p>/.exec(text)?.[1];
      assert.equal(message(wrongPassword.text), 'The email or password is incorrect.');
      assert.equal(message(unknownEmail.text), message(wrongPassword.text));
    });

    test('forms without a valid CSRF token are refused and change nothing', async () => {
      const client = new WebClient(server.url);
      await client.get('/signup');
      const missing = await client.postForm('/signup', {
        name: 'Eve',
        email: 'eve@school.test',
        password: 'a long enough password',
      });
      assert.equal(missing.status, 403);
      assert.match(missing.text, /did not come from this site/);
      const wrong = await client.postForm('/signup', {
        _csrf: 'forged',
        name: 'Eve',
        email: 'eve@school.test',
        password: 'a long enough password',
      });
      assert.equal(wrong.status, 403);
      // A token from another visitor's cookie does not work either.
      const other = new WebClient(server.url);
      const otherToken = csrfOf((await other.get('/signup')).text);
      const crossed = await client.postForm('/signup', {
        _csrf: otherToken,
        name: 'Eve',
        email: 'eve@school.test',
        password: 'a long enough password',
      });
      assert.equal(crossed.status, 403);
      const signin = await new WebClient(server.url).submit('/signin', '/signin', {
        email: 'eve@school.test',
        password: 'a long enough password',
      });
      assert.equal(signin.status, 401, 'no account was created');
      const noCsrfSignin = await new WebClient(server.url).postForm('/signin', {
        email: OWNER.email,
        password: OWNER.password,
      });
      assert.equal(noCsrfSignin.status, 403);
    });

    test('sign-up validates input and refuses a taken email', async () => {
      const client = new WebClient(server.url);
      const short = await client.submit('/signup', '/signup', {
        name: 'Tim',
        email: 'tim@school.test',
        password: 'short',
      });
      assert.equal(short.status, 400);
      assert.match(short.text, /Password: must be at least 10 characters/);
      const badEmail = await client.submit('/signup', '/signup', {
        name: 'Tim',
        email: 'not-an-email',
        password: 'a long enough password',
      });
      assert.equal(badEmail.status, 400);
      const extra = await client.submit('/signup', '/signup', {
        name: 'Tim',
        email: 'tim@school.test',
        password: 'a long enough password',
        role: 'owner',
      });
      assert.equal(extra.status, 400);
      assert.match(extra.text, /role/);
      const taken = await client.submit('/signup', '/signup', {
        name: 'Tim',
        email: OWNER.email.toUpperCase(),
        password: 'a long enough password',
      });
      assert.equal(taken.status, 409);
      assert.match(taken.text, /already exists/);
    });

    test('repeated failures for one account are slowed down with Retry-After', async () => {
      const target = 'limited@school.test';
      const attacker = new WebClient(server.url);
      await attacker.submit('/signup', '/signup', { name: 'Lim', email: target, password: 'the real password' });
      for (let i = 0; i < 3; i++) {
        const fail = await new WebClient(server.url).submit('/signin', '/signin', {
          email: target,
          password: `guess number ${i}`,
        });
        assert.equal(fail.status, 401);
      }
      const blocked = await new WebClient(server.url).submit('/signin', '/signin', {
        email: target,
        password: 'the real password',
      });
      assert.equal(blocked.status, 429);
      const retryAfter = Number(blocked.headers.get('retry-after'));
      assert.ok(retryAfter > 0 && retryAfter <= 900, `Retry-After ${retryAfter}`);
      assert.match(blocked.text, /Too many attempts/);
      // Other accounts are not affected by this account's lock.
      const owner = await new WebClient(server.url).submit('/signin', '/signin', {
        email: OWNER.email,
        password: OWNER.password,
      });
      assert.equal(owner.status, 303);
    });

    test('return_to is followed only for same-site paths', async () => {
      const client = new WebClient(server.url);
      const ok = await client.submit('/signin?return_to=%2Faccount%2Fapps', '/signin', {
        email: OWNER.email,
        password: OWNER.password,
        return_to: '/account/apps',
      });
      assert.equal(ok.location, '/account/apps');
      const evil = await new WebClient(server.url).submit('/signin', '/signin', {
        email: OWNER.email,
        password: OWNER.password,
        return_to: '//evil.test/x',
      });
      assert.equal(evil.location, '/');
    });

    test('return_to refuses anything a browser could turn into another origin', async () => {
      for (const evil of [
        '/\t/evil.test',
        '/\n/evil.test',
        '/\\evil.test',
        '/\u000b/evil.test',
        '/ /evil.test',
        'https://evil.test/',
      ]) {
        const client = new WebClient(server.url);
        const response = await client.submit('/signin', '/signin', {
          email: OWNER.email,
          password: OWNER.password,
          return_to: evil,
        });
        assert.equal(response.status, 303, JSON.stringify(evil));
        assert.equal(response.location, '/', JSON.stringify(evil));
      }
      const signedIn = new WebClient(server.url);
      await signedIn.submit('/signin', '/signin', { email: OWNER.email, password: OWNER.password });
      assert.equal((await signedIn.get('/signin?return_to=/%09/evil.test')).location, '/');
      assert.equal((await signedIn.get('/signin?return_to=/courses?x=1')).location, '/courses?x=1');
    });

    test('failures from one address across many accounts are slowed down too (4x the account limit)', async () => {
      const limited = await startTestServer(engine, { SIGNIN_MAX_FAILURES: '2' });
      try {
        const statuses = [];
        for (let i = 0; i < 9; i++) {
          const client = new WebClient(limited.url);
          statuses.push(
            (await client.submit('/signin', '/signin', { email: `nobody${i}@school.test`, password: 'wrong one' }))
              .status,
          );
        }
        assert.deepEqual(statuses, [401, 401, 401, 401, 401, 401, 401, 401, 429]);
      } finally {
        await limited.close();
      }
    });

    test('concurrent wrong passwords are counted too: at most the limit get through', async () => {
      const target = 'burst@school.test';
      await new WebClient(server.url).submit('/signup', '/signup', {
        name: 'Burst',
        email: target,
        password: 'the real password',
      });
      const attempts = await Promise.all(
        Array.from({ length: 12 }, async (_, i) => {
          const client = new WebClient(server.url);
          return client.submit('/signin', '/signin', { email: target, password: `parallel guess ${i}` });
        }),
      );
      const statuses = attempts.map((a) => a.status);
      assert.ok(statuses.filter((s) => s === 401).length <= 3, statuses.join(','));
      assert.ok(statuses.filter((s) => s === 429).length >= 9, statuses.join(','));
    });

    test('the school can turn sign-up off', async () => {
      await server.database.db.updateTable('school').set({ signup_enabled: 0 }).execute();
      try {
        const page = await new WebClient(server.url).get('/signup');
        assert.equal(page.status, 403);
        assert.match(page.text, /does not accept new accounts/);
        const client = new WebClient(server.url);
        const csrf = csrfOf((await client.get('/signin')).text);
        const post = await client.postForm('/signup', {
          _csrf: csrf,
          name: 'Late',
          email: 'late@school.test',
          password: 'a long enough password',
        });
        assert.equal(post.status, 403);
      } finally {
        await server.database.db.updateTable('school').set({ signup_enabled: 1 }).execute();
      }
    });

    test('no password, cookie or session token reaches the logs', async () => {
      const joined = server.logs.join('\n');
      assert.doesNotMatch(joined, /correct horse battery/);
      assert.doesNotMatch(joined, /a long enough password/);
      assert.doesNotMatch(joined, /lyceum_session=/);
      assert.doesNotMatch(joined, /lyceum_csrf/);
    });
  });
}
