import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../support/databases.ts';
import {
  authorizeThroughForms,
  authorizeUrl,
  pkce,
  type RegisteredClient,
  registerClient,
  tokenRequest,
} from '../support/oauth.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { completeSetup, csrfOf, OWNER, WebClient } from '../support/web-client.ts';

const STUDENT = { name: 'Sam Student', email: 'sam@school.test', password: 'student password 1' };

for (const engine of engines) {
  describe(`authorization endpoint (${engine})`, () => {
    let server: TestServer;
    let client: RegisteredClient;
    const registeredPort = 41000;
    const redirect = (port = 52000, path = '/callback') => `http://127.0.0.1:${port}${path}`;

    before(async () => {
      server = await startTestServer(engine);
      await completeSetup(server.url, server.setupUrl ?? '');
      await new WebClient(server.url).submit('/signup', '/signup', STUDENT);
      client = await registerClient(server.url, registeredPort, { client_name: 'Course Sync CLI' });
    });
    after(() => server.close());

    const params = (overrides: Record<string, string | undefined> = {}) => {
      const { challenge } = pkce();
      return {
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: redirect(),
        scope: 'openid profile courses:read',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 'st-123',
        ...overrides,
      };
    };

    test('any port of a registered loopback URI is accepted; the redirect carries code, state and iss', async () => {
      const web = new WebClient(server.url);
      let consent = '';
      const result = await authorizeThroughForms(
        web,
        authorizeUrl(server.url, params({ redirect_uri: redirect(53123) })),
        {
          ...OWNER,
          onConsent: (html) => {
            consent = html;
          },
        },
      );
      assert.equal(result.location.origin, 'http://127.0.0.1:53123');
      assert.equal(result.location.pathname, '/callback');
      assert.match(result.location.searchParams.get('code') ?? '', /^[\w-]{40,}$/);
      assert.equal(result.location.searchParams.get('state'), 'st-123');
      assert.equal(result.location.searchParams.get('iss'), server.config.BASE_URL);
      // The consent page names the app, warns it is unverified, shows host and port, describes each scope.
      assert.match(consent, /Course Sync CLI/);
      assert.match(consent, /not verified by the school/);
      assert.match(consent, /<code>http:\/\/127\.0\.0\.1<\/code> on port <code>53123<\/code>/);
      assert.match(consent, /See your name/);
      assert.match(consent, /See courses, including the ones you are enrolled in/);
      assert.match(consent, /<button type="submit" name="decision" value="allow">Allow<\/button>/);
      assert.match(consent, /<button type="submit" name="decision" value="deny">Deny<\/button>/);
    });

    test("the consent page's form-action admits the app's redirect target and nothing else", async () => {
      // Browsers check form-action on every redirect after the consent POST, so it must name where the user ends up.
      const formAction = async (redirectUri: string, clientId = client.client_id) => {
        let csp = '';
        await authorizeThroughForms(
          new WebClient(server.url),
          authorizeUrl(server.url, params({ client_id: clientId, redirect_uri: redirectUri })),
          {
            ...OWNER,
            onConsent: (_html, headers) => {
              csp = headers.get('content-security-policy') ?? '';
            },
          },
        );
        assert.match(csp, /frame-ancestors 'none'/, 'the rest of the policy is kept');
        return csp
          .split(';')
          .find((d) => d.trim().startsWith('form-action'))
          ?.trim();
      };
      assert.equal(await formAction(redirect(53124)), "form-action 'self' http://127.0.0.1:53124");
      // CSP cannot name an IPv6 literal (Chromium ignores http://[::1]:port); scheme and port are the narrowest.
      const ipv6 = await registerClient(server.url, registeredPort, {
        redirect_uris: [`http://[::1]:${registeredPort}/callback`],
      });
      assert.equal(
        await formAction(`http://[::1]:53125/callback`, ipv6.client_id),
        "form-action 'self' http://*:53125",
      );
      const signin = await new WebClient(server.url).get('/signin');
      assert.match(signin.headers.get('content-security-policy') ?? '', /form-action 'self'(;|$)/);
    });

    test('a signed-in user is not asked for a password again, but is asked to consent every time', async () => {
      const web = new WebClient(server.url);
      await web.submit('/signin', '/signin', { email: OWNER.email, password: OWNER.password });
      let consents = 0;
      for (let i = 0; i < 2; i++) {
        const result = await authorizeThroughForms(web, authorizeUrl(server.url, params()), {
          onConsent: () => {
            consents += 1;
          },
        });
        assert.ok(result.location.searchParams.get('code'), `flow ${i} got a code`);
      }
      assert.equal(consents, 2);
    });

    test('Deny returns access_denied with state and iss', async () => {
      const result = await authorizeThroughForms(new WebClient(server.url), authorizeUrl(server.url, params()), {
        ...OWNER,
        decision: 'deny',
      });
      assert.equal(result.location.origin, 'http://127.0.0.1:52000');
      assert.equal(result.location.searchParams.get('error'), 'access_denied');
      assert.equal(result.location.searchParams.get('state'), 'st-123');
      assert.equal(result.location.searchParams.get('iss'), server.config.BASE_URL);
      assert.equal(result.location.searchParams.get('code'), null);
    });

    for (const [name, overrides, error] of [
      ['missing PKCE', { code_challenge: undefined, code_challenge_method: undefined }, 'invalid_request'],
      ['plain PKCE', { code_challenge_method: 'plain' }, 'invalid_request'],
      ['an unsupported response_type', { response_type: 'token' }, 'unsupported_response_type'],
      ['an unknown scope', { scope: 'openid courses:delete' }, 'invalid_scope'],
      ['no scope', { scope: undefined }, 'invalid_request'],
      ['an unknown resource', { resource: 'https://elsewhere.example/api' }, 'invalid_target'],
    ] as const) {
      test(`${name} is redirected back as ${error}`, async () => {
        const result = await authorizeThroughForms(
          new WebClient(server.url),
          authorizeUrl(server.url, params(overrides)),
          OWNER,
        );
        assert.equal(result.location.origin, 'http://127.0.0.1:52000', `redirected to the app, not ${result.location}`);
        // Errors for response types other than code travel in the fragment (their default response mode).
        const answer = result.location.hash
          ? new URLSearchParams(result.location.hash.slice(1))
          : result.location.searchParams;
        assert.equal(answer.get('error'), error);
        assert.equal(answer.get('state'), 'st-123');
        assert.equal(answer.get('iss'), server.config.BASE_URL);
      });
    }

    for (const [name, overrides] of [
      ['an unknown client', { client_id: 'cli_unknown' }],
      ['a redirect URI on another path', { redirect_uri: redirect(52000, '/other') }],
      ['a redirect URI on another host', { redirect_uri: 'http://[::1]:52000/callback' }],
      ['a redirect URI with https', { redirect_uri: 'https://127.0.0.1:52000/callback' }],
    ] as const) {
      test(`${name} is shown as a page, never redirected`, async () => {
        const result = await authorizeThroughForms(
          new WebClient(server.url),
          authorizeUrl(server.url, params(overrides)),
          OWNER,
        );
        assert.equal(result.location.origin, server.config.BASE_URL);
        assert.equal(result.status, 400);
        assert.match(result.text, /invalid_client|invalid_redirect_uri/);
      });
    }

    test('a student grants only what a student may; the rest is dropped and shown as such', async () => {
      const web = new WebClient(server.url);
      let consent = '';
      const { verifier, challenge } = pkce();
      const result = await authorizeThroughForms(
        web,
        authorizeUrl(
          server.url,
          params({ scope: 'openid email courses:read courses:write analytics:read', code_challenge: challenge }),
        ),
        {
          ...STUDENT,
          onConsent: (html) => {
            consent = html;
          },
        },
      );
      assert.match(
        consent,
        /not available to your account, so not granted: <code>courses:write<\/code>, <code>analytics:read<\/code>/,
      );
      assert.doesNotMatch(consent, /Create, change, publish and delete courses/);
      const tokens = await tokenRequest(server.url, {
        grant_type: 'authorization_code',
        code: result.location.searchParams.get('code') ?? '',
        redirect_uri: redirect(),
        client_id: client.client_id,
        code_verifier: verifier,
      });
      assert.equal(tokens.status, 200);
      assert.deepEqual(String(tokens.body.scope).split(' ').sort(), ['courses:read', 'email', 'openid']);
    });

    test('another person signing in on the same browser authorizes as themselves', async () => {
      const web = new WebClient(server.url);
      const first = await authorizeThroughForms(web, authorizeUrl(server.url, params()), OWNER);
      assert.ok(first.location.searchParams.get('code'));
      const signout = await web.get('/signout');
      await web.postForm('/signout', { _csrf: /name="_csrf" value="([^"]+)"/.exec(signout.text)?.[1] ?? '' });
      const { verifier, challenge } = pkce();
      const second = await authorizeThroughForms(
        web,
        authorizeUrl(server.url, params({ code_challenge: challenge, scope: 'openid email' })),
        STUDENT,
      );
      const code = second.location.searchParams.get('code');
      assert.ok(code, `completed: ${second.location} ${second.text.slice(0, 200)}`);
      const tokens = await tokenRequest(server.url, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirect(),
        client_id: client.client_id,
        code_verifier: verifier,
      });
      const userinfo = await fetch(`${server.url}/api/oauth/userinfo`, {
        headers: { authorization: `Bearer ${tokens.body.access_token}` },
      });
      assert.equal(((await userinfo.json()) as { email: string }).email, STUDENT.email);
    });

    test('a note of when a fresh sign-in was asked for counts only for its own authorization', async () => {
      const web = new WebClient(server.url);
      // Signed out, the first authorization's page carries a note (in its sign-in form's return_to).
      const first = await web.get(
        new URL(authorizeUrl(server.url, params())).pathname + new URL(authorizeUrl(server.url, params())).search,
      );
      const page = await web.get(first.location ?? '');
      const note = /reauth_after=([^"&]+)/.exec(page.text)?.[1] ?? '';
      assert.ok(note);
      await web.submit('/signin', '/signin', { email: OWNER.email, password: OWNER.password });
      // A second authorization demands a fresh sign-in; the old note, signed in after, must not stand in for it.
      const url = new URL(authorizeUrl(server.url, params({ prompt: 'login' })));
      const second = await web.get(url.pathname + url.search);
      const interaction = new URL(second.location ?? '', server.url);
      const replayed = await web.get(`${interaction.pathname}?reauth_after=${note}`);
      assert.match(replayed.location ?? '', /^\/signin\?reauth=1&/);
    });

    test('the fewest hops: a signed-in user goes authorize → consent page → answer → code', async () => {
      const web = new WebClient(server.url);
      const url = new URL(authorizeUrl(server.url, params()));
      // A new browser: the authorization's own page shows the sign-in form, with no detour through /signin.
      const start = await web.get(url.pathname + url.search);
      assert.equal(start.status, 303);
      const signIn = await web.get(start.location ?? '');
      assert.equal(signIn.status, 200);
      assert.match(signIn.text, /<form method="post" action="\/signin">/);

      await web.submit('/signin', '/signin', { email: OWNER.email, password: OWNER.password });
      const hops: string[] = [];
      const authorize = await web.get(url.pathname + url.search);
      hops.push(
        `${authorize.status} ${new URL(authorize.location ?? '', server.url).pathname.split('/').slice(0, 3).join('/')}`,
      );
      const interaction = new URL(authorize.location ?? '', server.url);
      const page = await web.get(interaction.pathname + interaction.search);
      assert.match(page.text, /name="decision" value="allow"/, 'the consent form comes at once, not after a login hop');
      hops.push(`${page.status} consent`);
      const answered = await web.postForm(`${interaction.pathname}/consent`, {
        _csrf: csrfOf(page.text),
        decision: 'allow',
      });
      hops.push(
        `${answered.status} ${new URL(answered.location ?? '', server.url).pathname.split('/').slice(0, 3).join('/')}`,
      );
      const resumed = await web.get(new URL(answered.location ?? '', server.url).pathname);
      const back = new URL(resumed.location ?? '');
      hops.push(`${resumed.status} ${back.origin}`);
      assert.ok(back.searchParams.get('code'));
      assert.deepEqual(hops, [
        '303 /oauth/interaction',
        '200 consent',
        '303 /oauth/authorize',
        `303 ${new URL(redirect()).origin}`,
      ]);
    });

    test('prompt=login asks for the password even when signed in', async () => {
      const web = new WebClient(server.url);
      await web.submit('/signin', '/signin', { email: OWNER.email, password: OWNER.password });
      let next = new URL(authorizeUrl(server.url, params({ prompt: 'login' })));
      let response = await web.get(next.pathname + next.search);
      while (response.location && !response.location.startsWith('/signin')) {
        next = new URL(response.location, server.url);
        response = await web.get(next.pathname + next.search);
      }
      assert.match(response.location ?? '', /^\/signin\?reauth=1&return_to=%2Foauth%2Finteraction%2F/);
      const page = await web.get(response.location ?? '');
      assert.match(page.text, /confirm your password/);
      const result = await authorizeThroughForms(web, new URL(response.location ?? '', server.url).toString(), OWNER);
      assert.ok(result.location.searchParams.get('code'), String(result.location));
    });

    test('a user signed out of the school is asked to sign in again', async () => {
      const web = new WebClient(server.url);
      await authorizeThroughForms(web, authorizeUrl(server.url, params()), OWNER);
      const signout = await web.get('/signout');
      await web.postForm('/signout', { _csrf: /name="_csrf" value="([^"]+)"/.exec(signout.text)?.[1] ?? '' });
      const first = await web.get(
        new URL(authorizeUrl(server.url, params())).pathname + new URL(authorizeUrl(server.url, params())).search,
      );
      // The interaction shows the sign-in form itself, which returns to it.
      const interaction = await web.get(first.location ?? '');
      assert.equal(interaction.status, 200);
      assert.match(interaction.text, /<form method="post" action="\/signin">/);
      assert.match(interaction.text, /name="return_to" value="\/oauth\/interaction\/[\w-]+\?reauth_after=/);
    });
  });
}

describe('authorization requests are limited per address', () => {
  test('past OAUTH_AUTHORIZATIONS_PER_MINUTE a new authorization gets 429 with Retry-After', async () => {
    const server = await startTestServer('sqlite', { OAUTH_AUTHORIZATIONS_PER_MINUTE: '2' });
    try {
      const client = await registerClient(server.url, 47031);
      const { challenge } = pkce();
      const url = new URL(
        authorizeUrl(server.url, {
          response_type: 'code',
          client_id: client.client_id,
          redirect_uri: 'http://127.0.0.1:47031/callback',
          scope: 'openid',
          code_challenge: challenge,
          code_challenge_method: 'S256',
        }),
      );
      const web = new WebClient(server.url);
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await web.get(url.pathname + url.search));
      assert.deepEqual(
        answers.map((a) => a.status),
        [303, 303, 429],
      );
      assert.ok(Number(answers[2]?.headers.get('retry-after')) > 0);
    } finally {
      await server.close();
    }
  });
});
