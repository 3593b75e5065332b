import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { engines } from '../../support/databases.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { completeSetup, csrfOf, OWNER, WebClient } from '../../support/web-client.ts';

for (const engine of engines) {
  describe(`first-run setup (${engine})`, () => {
    const servers: TestServer[] = [];
    after(async () => {
      for (const s of servers) await s.close();
    });

    test('the setup link is logged once, works once, and signs the owner in', async () => {
      const server = await startTestServer(engine);
      servers.push(server);
      assert.ok(server.setupUrl, 'a setup link is logged on an empty database');
      const url = new URL(server.setupUrl);
      assert.equal(url.origin, server.config.BASE_URL);
      assert.equal(url.pathname, '/setup');
      assert.match(url.searchParams.get('token') ?? '', /^[A-Za-z0-9_-]{43}$/);

      const home = await new WebClient(server.url).get('/');
      assert.match(home.text, /not set up yet/);

      const owner = await completeSetup(server.url, server.setupUrl, 'Lyceum of Tests');
      const signedIn = await owner.get('/');
      assert.equal(signedIn.status, 200);
      assert.match(signedIn.text, /Welcome( back)?, Ada Owner/);
      assert.match(signedIn.text, /Lyceum of Tests/);

      // The same link a second time is dead, both to view and to post.
      const again = new WebClient(server.url);
      const token = url.searchParams.get('token') ?? '';
      const view = await again.get(`/setup?token=${token}`);
      assert.equal(view.status, 404);
      assert.match(view.text, /already used|expired/);

      const school = await server.services.school.get(server.database.db);
      assert.equal(school?.name, 'Lyceum of Tests');
    });

    test('a wrong token, a second use and setup after an owner exists all fail cleanly', async () => {
      const server = await startTestServer(engine);
      servers.push(server);
      const stranger = new WebClient(server.url);
      const wrong = await stranger.get('/setup?token=not-the-token');
      assert.equal(wrong.status, 404);
      const missing = await stranger.get('/setup');
      assert.equal(missing.status, 404);

      const token = new URL(server.setupUrl ?? '').searchParams.get('token') ?? '';
      // Two tabs opened the link; the first one completes setup.
      const tabA = new WebClient(server.url);
      const tabB = new WebClient(server.url);
      const pageA = await tabA.get(`/setup?token=${token}`);
      const pageB = await tabB.get(`/setup?token=${token}`);
      const fields = {
        token,
        school_name: 'First',
        default_currency: 'EUR',
        timezone: 'UTC',
        owner_name: OWNER.name,
        owner_email: OWNER.email,
        owner_password: OWNER.password,
      };
      const first = await tabA.postForm('/setup', { _csrf: csrfOf(pageA.text), ...fields });
      assert.equal(first.status, 303);
      const second = await tabB.postForm('/setup', {
        _csrf: csrfOf(pageB.text),
        ...fields,
        school_name: 'Second',
        owner_email: 'other@school.test',
      });
      assert.equal(second.status, 404);
      assert.match(second.text, /already used|expired/);
      assert.equal((await server.services.school.get(server.database.db))?.name, 'First');

      // A restart after setup logs no new link.
      await server.close();
      const restarted = await startTestServer(engine, {}, { databaseUrl: server.databaseUrl });
      servers.push(restarted);
      assert.equal(restarted.setupUrl, undefined);
    });

    test('invalid setup input re-renders the form with the problems and changes nothing', async () => {
      const server = await startTestServer(engine);
      servers.push(server);
      const token = new URL(server.setupUrl ?? '').searchParams.get('token') ?? '';
      const client = new WebClient(server.url);
      const base = {
        token,
        school_name: 'X',
        default_currency: 'EUR',
        timezone: 'UTC',
        owner_name: OWNER.name,
        owner_email: OWNER.email,
        owner_password: OWNER.password,
      };
      const shortPassword = await client.submit(`/setup?token=${token}`, '/setup', {
        ...base,
        owner_password: 'short',
      });
      assert.equal(shortPassword.status, 400);
      assert.match(shortPassword.text, /Password: must be at least 10 characters/);
      const badCurrency = await client.submit(`/setup?token=${token}`, '/setup', { ...base, default_currency: 'ZZZ' });
      assert.equal(badCurrency.status, 400);
      assert.match(badCurrency.text, /ISO 4217/);
      const badZone = await client.submit(`/setup?token=${token}`, '/setup', { ...base, timezone: 'Mars/Olympus' });
      assert.equal(badZone.status, 400);
      const unknownField = await client.submit(`/setup?token=${token}`, '/setup', { ...base, is_admin: 'yes' });
      assert.equal(unknownField.status, 400);
      assert.match(unknownField.text, /This form: was sent with something it does not have/);
      assert.doesNotMatch(unknownField.text, /is_admin/, 'a field name is for the code, not the person');
      assert.equal(await server.services.school.get(server.database.db), undefined);
      // The token survived the failed attempts.
      const ok = await client.submit(`/setup?token=${token}`, '/setup', base);
      assert.equal(ok.status, 303);
    });

    test('restart keeps users and sessions', async () => {
      const server = await startTestServer(engine);
      const owner = await completeSetup(server.url, server.setupUrl ?? '');
      await server.close();
      const restarted = await startTestServer(
        engine,
        { PORT: String(new URL(server.url).port) },
        { databaseUrl: server.databaseUrl },
      );
      servers.push(restarted);
      const page = await owner.get('/');
      assert.match(page.text, /Welcome( back)?, Ada Owner/);
      const fresh = new WebClient(restarted.url);
      const signIn = await fresh.submit('/signin', '/signin', { email: OWNER.email, password: OWNER.password });
      assert.equal(signIn.status, 303);
    });
  });
}
