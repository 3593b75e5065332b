import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { extractWWWAuthenticateParams, auth as legacyAuth } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Browser, BrowserContext } from 'playwright-core';
import { type Person, schoolWithPeople } from '../support/api.ts';
import { launchChromium, photograph, screenshotDir } from '../support/browser.ts';
import { BrowserOAuthProvider, MCP_SDKS } from '../support/mcp-sdk-agent.ts';
import { loopbackListener } from '../support/oauth.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * Step-up across areas with each MCP SDK major's own OAuth client machinery: a staff agent signs in for `courses`,
 * writes there, then calls a `lecturers:write` tool. The same registration authorizes again for the wider scope; the
 * person clicks Allow once more and never registers a second app.
 */
type Challenge = { status: number; wwwAuthenticate: string; body: { error: string; error_description: string } };

/** What the host sees of each 403 on the wire (the SDK itself is untouched: `fetch` is its documented option). */
function recordingFetch(challenges: Challenge[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (response.status === 403)
      challenges.push({
        status: 403,
        wwwAuthenticate: String(response.headers.get('www-authenticate')),
        body: (await response.clone().json()) as Challenge['body'],
      });
    return response;
  };
}

for (const [sdk, { connect: connectWith, Unauthorized }] of Object.entries(MCP_SDKS))
  describe(`step-up from courses to lecturers with an unmodified MCP SDK ${sdk} client (sqlite)`, () => {
    /** Connects with the host's 403s recorded on the wire (the SDK's documented `fetch` option). */
    const connect = (url: URL, provider: OAuthClientProvider, challenges: Challenge[]) =>
      connectWith(url, provider, recordingFetch(challenges));
    let server: TestServer;
    let browser: Browser;
    let staff: Person;
    let shots: string;

    before(async () => {
      server = await startTestServer('sqlite');
      ({ staff } = await schoolWithPeople(server));
      browser = await launchChromium();
      shots = screenshotDir(`mcp-step-up-${sdk}`);
    });
    after(async () => {
      await browser.close();
      await server.close();
    });

    const registeredClients = async () =>
      (await server.database.db.selectFrom('oauth_models').select('id').where('model', '=', 'Client').execute()).length;

    test('staff writes in courses, then in lecturers: one more consent, no new registration', async () => {
      // One browser for the person, as in life: signed in once, it keeps the school's session for the second consent.
      const context: BrowserContext = await browser.newContext();
      let consents = 0;
      let passwordsTyped = 0;
      const signInAndAllow = async (url: URL) => {
        const page = await context.newPage();
        await page.goto(url.href);
        if (await page.getByLabel('Email').isVisible()) {
          passwordsTyped++;
          await page.getByLabel('Email').fill(staff.email);
          await page.getByLabel('Password').fill(staff.password);
          await page.getByRole('button', { name: 'Sign in' }).click();
        }
        await page.getByRole('button', { name: 'Allow' }).waitFor();
        await photograph(page, join(shots, `consent-${consents + 1}.png`));
        await page.getByRole('button', { name: 'Allow' }).click();
        consents++;
        await page.waitForURL((u) => u.hostname === '127.0.0.1' && u.pathname === '/callback');
        await page.close();
      };
      const listener = await loopbackListener();
      const provider = new BrowserOAuthProvider(listener.port, signInAndAllow, 'MCP SDK step-up agent');
      const challenges: Challenge[] = [];
      /** The redirect to the app's callback (the browser also asks the listener for a favicon). */
      const nextCallback = async () => {
        for (;;) {
          const received = await listener.next();
          if (received.pathname === '/callback') return received;
        }
      };
      const url = new URL(`${server.url}/mcp`);
      try {
        // First area: 401 → registration → consent → token for courses.
        const first = await connect(url, provider, challenges);
        const createCourse = (client: typeof first.client, title: string) =>
          client.callTool({ name: 'createCourse', arguments: { title } });
        // Anonymous first, as an agent starts: the catalog answers without a token, and asks for no consent.
        const catalog = await first.client.callTool({ name: 'listCourses', arguments: {} });
        assert.equal(catalog.isError, undefined, JSON.stringify(catalog));
        assert.equal(consents, 0);
        await assert.rejects(createCourse(first.client, 'Before sign-in'), Unauthorized);
        await first.finishAuth(await nextCallback());
        await first.client.close();
        const signedIn = await connect(url, provider, challenges);
        const course = await createCourse(signedIn.client, 'Written in courses');
        assert.equal(course.isError, undefined, JSON.stringify(course));
        assert.equal(provider.saved?.scope, 'courses:read courses:write');
        assert.deepEqual({ consents, registrations: provider.registrations }, { consents: 1, registrations: 1 });

        // Second area: the token lacks lecturers:write, so the server answers 403 insufficient_scope naming the
        // scopes to authorize again with: those held plus the one the tool needs.
        const createLecturer = (client: typeof first.client) =>
          client.callTool({ name: 'createLecturer', arguments: { name: 'Grace Lecturer' } });
        const named = 'courses:read courses:write lecturers:write';
        const description = `The tool createLecturer needs the lecturers:write scope, which this token does not hold. Refreshing the token cannot add it: authorize again with the same client registration, asking for these scopes: ${named} (the one this tool needs plus those already held); the person is asked to consent once more.`;
        const refreshBefore = provider.saved?.refresh_token;
        const refusal = await createLecturer(signedIn.client).then(
          () => undefined,
          (e: unknown) => e,
        );
        const [challenge] = challenges;
        assert.ok(challenge, 'a 403 came back');
        // Both SDKs read the header's fields with a regex (first match wins): the description must not shadow them.
        const parsed = extractWWWAuthenticateParams(
          new Response(null, { headers: { 'www-authenticate': challenge.wwwAuthenticate } }),
        );
        assert.equal(parsed.scope, named);
        assert.equal(parsed.error, 'insufficient_scope');
        assert.deepEqual(challenge.body, { error: 'insufficient_scope', error_description: description });
        assert.equal(
          challenge.wwwAuthenticate,
          `Bearer error="insufficient_scope", error_description="${description}", scope="${named}", resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp"`,
        );

        if (sdk === '1.x') {
          // 1.x answers the 403 by refreshing (which cannot widen a grant, RFC 6749 §6), gets the same 403 again and
          // gives up: this is all the agent sees. The refresh rotated the tokens; the old scope is kept.
          assert.equal(challenges.length, 2, 'the 403, a refresh, the same 403');
          assert.ok(refusal instanceof Error);
          assert.equal(refusal.message, 'Streamable HTTP error: Server returned 403 after trying upscoping');
          assert.equal((refusal as { code?: number }).code, 403);
          assert.equal(provider.authorizationUrls.length, 1, 'the 1.x SDK never opens the browser for a 403');
          assert.notEqual(provider.saved?.refresh_token, refreshBefore, 'the refresh rotated the refresh token');
          assert.equal(provider.saved?.scope, 'courses:read courses:write');
          // What the description tells the host to do: drop the tokens (not the registration) and authorize again
          // with the named scopes, through the SDK's own auth().
          provider.saved = undefined;
          const result = await legacyAuth(provider, { serverUrl: url, scope: named });
          assert.equal(result, 'REDIRECT');
          const callback = await nextCallback();
          await legacyAuth(provider, { serverUrl: url, authorizationCode: String(callback.searchParams.get('code')) });
        } else {
          // 2.x steps up by itself: it asks for the union of what it held and what the challenge names, and forces a
          // new authorization instead of a refresh.
          assert.ok(refusal instanceof Unauthorized, String(refusal));
          assert.equal(challenges.length, 1);
          assert.equal(provider.saved?.refresh_token, refreshBefore, 'no refresh: a refresh cannot widen the grant');
          await signedIn.finishAuth(await nextCallback());
        }
        await signedIn.client.close();
        const stepUp = provider.authorizationUrls[1];
        assert.ok(stepUp, 'a second authorization request');
        assert.equal(stepUp.searchParams.get('scope'), named);
        assert.equal(stepUp.searchParams.get('client_id'), provider.information?.client_id);

        const steppedUp = await connect(url, provider, challenges);
        const lecturer = await createLecturer(steppedUp.client);
        assert.equal(lecturer.isError, undefined, JSON.stringify(lecturer));
        const again = await createCourse(steppedUp.client, 'Still writing in courses');
        assert.equal(again.isError, undefined, 'the scopes held before are kept');
        assert.deepEqual(String(provider.saved?.scope).split(' ').sort(), named.split(' '));
        await steppedUp.client.close();

        assert.deepEqual(
          {
            consents,
            passwordsTyped,
            registrations: provider.registrations,
            clientsOnServer: await registeredClients(),
          },
          { consents: 2, passwordsTyped: 1, registrations: 1, clientsOnServer: 1 },
          'one more consent for the second area, the same registration',
        );
      } finally {
        await listener.close();
        await context.close();
      }
    });
  });
