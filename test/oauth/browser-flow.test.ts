import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as oidc from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, photograph, screenshotDir } from '../support/browser.ts';
import { engines } from '../support/databases.ts';
import { loopbackListener } from '../support/oauth.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { completeSetup, OWNER } from '../support/web-client.ts';

/**
 * The whole flow as a real CLI does it, with openid-client (a strict client we did not write) and Chromium for the
 * user's part: register, authorize through the school's pages with a loopback listener on a port other than the
 * registered one, exchange, userinfo, refresh, introspect, revoke; then the user disconnects the app.
 */
for (const engine of engines) {
  describe(`OAuth flow with openid-client in Chromium (${engine})`, () => {
    let server: TestServer;
    let browser: Browser;
    let shots: string;
    before(async () => {
      server = await startTestServer(engine);
      await completeSetup(server.url, server.setupUrl ?? '');
      browser = await launchChromium();
      shots = screenshotDir(`oauth-${engine}`);
      console.log(`# screenshots of the OAuth pages (${engine}): ${shots}`);
    });
    after(async () => {
      await browser.close();
      await server.close();
    });

    async function runFlow(
      page: Page,
      config: oidc.Configuration,
      listener: Awaited<ReturnType<typeof loopbackListener>>,
      name: string,
    ) {
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const redirectUri = `${listener.origin}/callback`;
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid profile email courses:read account:read',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
      });
      const callback = listener.next();
      await page.goto(url.href);
      // Not signed in yet: the authorization's own page shows the sign-in form.
      if (await page.getByLabel('Password').count()) {
        await photograph(page, join(shots, `${name}-1-signin.png`));
        await page.getByLabel('Email').fill(OWNER.email);
        await page.getByLabel('Password').fill(OWNER.password);
        await page.getByRole('button', { name: 'Sign in' }).click();
      }
      await page.getByRole('button', { name: 'Allow' }).waitFor();
      assert.match((await page.textContent('main')) ?? '', /not verified by the school/);
      await photograph(page, join(shots, `${name}-2-consent.png`));
      await page.getByRole('button', { name: 'Allow' }).click();
      // Fails (rather than waits forever) when the browser is kept on the consent page.
      await page.waitForURL((u) => u.origin === listener.origin, { timeout: 10_000 });
      const received = await callback;
      assert.equal(received.searchParams.get('iss'), server.config.BASE_URL);
      return oidc.authorizationCodeGrant(config, received, { pkceCodeVerifier: verifier, expectedState: state });
    }

    for (const kind of ['public', 'confidential'] as const) {
      test(`a ${kind} client: register, authorize, token, userinfo, refresh, introspect, revoke`, async () => {
        const listener = await loopbackListener();
        const registeredPort = listener.port === 45999 ? 45998 : 45999;
        try {
          const config = await oidc.dynamicClientRegistration(
            new URL(server.url),
            {
              client_name: `openid-client ${kind}`,
              application_type: 'native',
              redirect_uris: [`http://127.0.0.1:${registeredPort}/callback`],
              token_endpoint_auth_method: kind === 'public' ? 'none' : 'client_secret_post',
              grant_types: ['authorization_code', 'refresh_token'],
            },
            kind === 'public' ? oidc.None() : undefined,
            { execute: [oidc.allowInsecureRequests] },
          );
          const metadata = config.clientMetadata();
          assert.match(metadata.client_id, /^cli_/);
          if (kind === 'confidential') assert.ok(metadata.client_secret);
          else assert.equal(metadata.client_secret, undefined);
          assert.equal(config.serverMetadata().issuer, server.config.BASE_URL);

          const page = await browser.newPage();
          const tokens = await runFlow(page, config, listener, kind);
          assert.equal(tokens.token_type.toLowerCase(), 'bearer');
          const claims = tokens.claims();
          assert.ok(claims, 'an ID token was issued and validated by openid-client');
          assert.equal(claims.iss, server.config.BASE_URL);

          const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
          assert.equal(userinfo.email, OWNER.email);
          assert.equal(userinfo.name, OWNER.name);

          const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token ?? '');
          assert.notEqual(refreshed.access_token, tokens.access_token);
          assert.notEqual(refreshed.refresh_token, tokens.refresh_token);

          const introspection = await oidc.tokenIntrospection(config, refreshed.access_token);
          assert.equal(introspection.active, true);
          assert.equal(introspection.client_id, metadata.client_id);
          assert.equal(introspection.sub, claims.sub);

          await oidc.tokenRevocation(config, refreshed.access_token);
          assert.equal((await oidc.tokenIntrospection(config, refreshed.access_token)).active, false);
          await assert.rejects(oidc.fetchUserInfo(config, refreshed.access_token, claims.sub));
          await page.close();
        } finally {
          await listener.close();
        }
      });
    }

    test('an IPv6 loopback client ([::1]) gets past the consent page to its listener and exchanges the code', async () => {
      const listener = await loopbackListener('::1');
      const registeredPort = listener.port === 45999 ? 45998 : 45999;
      try {
        const config = await oidc.dynamicClientRegistration(
          new URL(server.url),
          {
            client_name: 'IPv6 CLI',
            redirect_uris: [`http://[::1]:${registeredPort}/callback`],
            token_endpoint_auth_method: 'none',
          },
          oidc.None(),
          { execute: [oidc.allowInsecureRequests] },
        );
        const page = await browser.newPage();
        const tokens = await runFlow(page, config, listener, 'ipv6');
        const sub = tokens.claims()?.sub ?? '';
        assert.equal((await oidc.fetchUserInfo(config, tokens.access_token, sub)).email, OWNER.email);
        await page.close();
      } finally {
        await listener.close();
      }
    });

    test('the user sees the app under connected apps and revoking it ends its tokens at once', async () => {
      const listener = await loopbackListener();
      try {
        const config = await oidc.dynamicClientRegistration(
          new URL(server.url),
          {
            client_name: 'Revocable Agent',
            redirect_uris: [`http://127.0.0.1:${listener.port}/callback`],
            token_endpoint_auth_method: 'none',
          },
          oidc.None(),
          { execute: [oidc.allowInsecureRequests] },
        );
        const page = await browser.newPage();
        const tokens = await runFlow(page, config, listener, 'revocable');
        const sub = tokens.claims()?.sub ?? '';
        assert.equal((await oidc.fetchUserInfo(config, tokens.access_token, sub)).sub, sub);

        await page.goto(`${server.url}/account/apps`);
        assert.match((await page.textContent('main')) ?? '', /Revocable Agent/);
        assert.match((await page.textContent('main')) ?? '', /courses:read/);
        await photograph(page, join(shots, 'connected-apps.png'));
        await page.getByRole('button', { name: 'Revoke access for Revocable Agent' }).click();
        await page.waitForURL(`${server.url}/account/apps`);
        assert.doesNotMatch((await page.textContent('main')) ?? '', /Revocable Agent/);

        await assert.rejects(oidc.fetchUserInfo(config, tokens.access_token, sub));
        await assert.rejects(oidc.refreshTokenGrant(config, tokens.refresh_token ?? ''));
        await page.close();
      } finally {
        await listener.close();
      }
    });
  });
}
