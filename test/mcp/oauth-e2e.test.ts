import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { type Person, schoolWithPeople } from '../support/api.ts';
import { launchChromium, photograph, screenshotDir } from '../support/browser.ts';
import { BrowserOAuthProvider, MCP_SDKS } from '../support/mcp-sdk-agent.ts';
import { loopbackListener } from '../support/oauth.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * What an agent does given only {base_url}/mcp, with the MCP SDK's own OAuth client machinery (nothing of ours on
 * the client side): connect anonymously, search the catalog, call a protected tool, get 401, find the resource and
 * authorization server metadata, register a loopback client, send the person to the browser — where Chromium signs in
 * and clicks Allow, the one human action — finish auth, and retry the call.
 */
for (const [sdk, { connect, Unauthorized }] of Object.entries(MCP_SDKS))
  describe(`an unmodified MCP SDK ${sdk} client signs in through the school and writes (sqlite)`, () => {
    let server: TestServer;
    let browser: Browser;
    let staff: Person;
    let student: Person;
    let shots: string;

    before(async () => {
      server = await startTestServer('sqlite');
      ({ staff, student } = await schoolWithPeople(server));
      browser = await launchChromium();
      shots = screenshotDir(`mcp-oauth-${sdk}`);
    });
    after(async () => {
      await browser.close();
      await server.close();
    });

    /** The person's part: sign in on the school's page and click Allow, once. */
    const signInAndAllow = (person: Person, name: string) => async (url: URL) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(url.href);
      await page.getByLabel('Email').fill(person.email);
      await page.getByLabel('Password').fill(person.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Allow' }).waitFor();
      await photograph(page, join(shots, `${name}-consent.png`));
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL((u) => u.hostname === '127.0.0.1' && u.pathname === '/callback');
      await context.close();
    };

    async function connectAndCallWrite(person: Person, name: string) {
      const listener = await loopbackListener();
      const provider = new BrowserOAuthProvider(listener.port, signInAndAllow(person, name));
      const url = new URL(`${server.url}/mcp`);
      try {
        const { client, finishAuth } = await connect(url, provider);
        const catalog = await client.callTool({ name: 'listCourses', arguments: { q: 'anything' } });
        assert.equal(catalog.isError, undefined, 'the catalog answers without a token');
        assert.equal(provider.authorizationUrls.length, 0, 'no sign-in for the anonymous catalog');

        // Not in the default list: the agent reaches it through callOperation, which is challenged as createCourse is.
        const write = () =>
          client.callTool({
            name: 'callOperation',
            arguments: { operation: 'createCourse', arguments: { title: `Drafted by ${name}` } },
          });
        await assert.rejects(write(), Unauthorized, 'the protected operation sends the person to the browser');
        const [authorization] = provider.authorizationUrls;
        assert.ok(authorization, 'the SDK opened the authorization endpoint');
        assert.equal(`${authorization.origin}${authorization.pathname}`, `${server.url}/oauth/authorize`);
        assert.equal(authorization.searchParams.get('resource'), `${server.url}/mcp`);
        assert.equal(authorization.searchParams.get('scope'), 'courses:read courses:write');
        assert.equal(authorization.searchParams.get('code_challenge_method'), 'S256');

        const callback = await listener.next();
        assert.equal(callback.searchParams.get('state'), provider.lastState);
        assert.equal(callback.searchParams.get('iss'), server.config.BASE_URL);
        await finishAuth(callback);
        await client.close();
        // A started transport cannot be restarted: the agent reconnects, and the provider now has the tokens.
        const { client: signedIn } = await connect(url, provider);
        return { client: signedIn, provider };
      } finally {
        await listener.close();
      }
    }

    test('staff: 401 → metadata → registration → Chromium consent → token → the retried write succeeds', async () => {
      const { client, provider } = await connectAndCallWrite(staff, 'staff');
      const created = await client.callTool({
        name: 'callOperation',
        arguments: { operation: 'createCourse', arguments: { title: 'Drafted by the agent' } },
      });
      assert.equal(created.isError, undefined, JSON.stringify(created));
      assert.equal((created.structuredContent as { status: string }).status, 'draft');
      assert.equal(provider.authorizationUrls.length, 1, 'exactly one human action: one consent');
      assert.ok(provider.saved?.refresh_token, 'a refresh token for later');
      await client.close();
    });

    test('student: the same path ends in 403 insufficient_scope naming what a student may grant', async () => {
      const { client, provider } = await connectAndCallWrite(student, 'student');
      assert.equal(provider.saved?.scope, 'courses:read', 'the student granted what a student may');
      const error = await client.callTool({ name: 'createCourse', arguments: { title: 'Not allowed' } }).then(
        () => undefined,
        (e: unknown) => e,
      );
      const failure = error as { code?: unknown; status?: number };
      assert.equal(failure.status ?? failure.code, 403, 'an HTTP 403');
      assert.match(String(error), /insufficient_scope.*which a student cannot grant\. A student may grant: openid/);
      assert.equal(provider.authorizationUrls.length, 1, 'no futile second trip to the browser');
      const read = await client.callTool({ name: 'getCourseOutline', arguments: { id: 'none' } });
      assert.equal(read.isError, true, 'reads still work (this one finds nothing)');
      await client.close();
    });
  });
