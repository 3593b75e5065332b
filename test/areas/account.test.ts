import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  apiClient,
  connectApp as connectAppFor,
  createUser,
  type Person,
  schoolWithPeople,
  tokenFor,
} from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { WebClient } from '../support/web-client.ts';

type Account = { id: string; name: string; email: string; locale: string | null; role: string; updated_at: string };
type App = { client_id: string; client_name: string; scopes: string[]; granted_at: string };
type AppPage = { data: App[]; has_more: boolean; next_cursor: string | null };

const FULL = 'openid profile email account:read account:write';

for (const engine of engines) {
  describe(`account API (${engine})`, () => {
    let server: TestServer;
    let staff: Person;
    let student: Person;
    let anonymous: ReturnType<typeof apiClient>;

    before(async () => {
      // Every test connects its own apps; each is a registration from this address.
      server = await startTestServer(engine, { OAUTH_REGISTRATIONS_PER_HOUR: '1000' });
      ({ staff, student } = await schoolWithPeople(server));
      anonymous = apiClient(server.url);
    });
    after(() => server.close());

    /** Connects a named app for a person through the real authorization flow; returns its client id and token. */
    async function connectApp(person: Person, clientName: string, scope = FULL) {
      const { clientId, token } = await connectAppFor(server, person, scope, { clientName });
      return { clientId, token, api: apiClient(server.url, token) };
    }

    const signedInBrowser = async (email: string, password: string) => {
      const browser = new WebClient(server.url);
      const signin = await browser.submit('/signin', '/signin', { email, password });
      assert.equal(signin.status, 303, 'signed in');
      return browser;
    };
    const isSignedIn = async (browser: WebClient) => (await browser.get('/account/apps')).status === 200;

    const userinfo = (token: string) =>
      fetch(`${server.url}/api/oauth/userinfo`, { headers: { authorization: `Bearer ${token}` } });

    test('get: staff and students each see their own account, with the role and without secrets', async () => {
      const staffApi = apiClient(server.url, await tokenFor(server, staff, 'account:read'));
      const studentApi = apiClient(server.url, await tokenFor(server, student, 'account:read'));
      const mine = await staffApi.get<Account>('/api/v1/account');
      assert.equal(mine.status, 200);
      assert.deepEqual(
        { id: mine.body.id, email: mine.body.email, name: mine.body.name, role: mine.body.role },
        { id: staff.id, email: staff.email, name: 'Stella Staff', role: 'staff' },
      );
      assert.equal(mine.body.locale, null);
      assert.ok(!('password_hash' in mine.body));
      const theirs = await studentApi.get<Account>('/api/v1/account');
      assert.equal(theirs.body.id, student.id);
      assert.equal(theirs.body.role, 'student');
    });

    test('anonymous gets 403 insufficient_scope (never 401) on every account route', async () => {
      for (const [method, path, body] of [
        ['GET', '/api/v1/account', undefined],
        ['PATCH', '/api/v1/account', { name: 'X' }],
        ['POST', '/api/v1/account/password', { current_password: 'x', new_password: 'y'.repeat(12) }],
        ['GET', '/api/v1/account/apps', undefined],
        ['DELETE', '/api/v1/account/apps/some-client', undefined],
      ] as const) {
        const response = await anonymous.call(method, path, body);
        assert.equal(response.status, 403, `${method} ${path}`);
        assert.equal(response.body.error, 'insufficient_scope');
        const scope = method === 'GET' ? 'account:read' : 'account:write';
        assert.match(
          response.headers.get('www-authenticate') ?? '',
          new RegExp(
            `^Bearer error="insufficient_scope", error_description="[^"]+", scope="${scope}", ` +
              'resource_metadata="http://127\\.0\\.0\\.1:\\d+/\\.well-known/oauth-protected-resource"$',
          ),
        );
      }
    });

    test('a token lacking the scope gets 403 with the scope it needs; read does not imply write', async () => {
      const noAccount = apiClient(server.url, await tokenFor(server, student, 'openid courses:read'));
      const refused = await noAccount.get('/api/v1/account');
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error, 'insufficient_scope');
      assert.match(refused.headers.get('www-authenticate') ?? '', /scope="account:read"/);
      const readOnly = apiClient(server.url, await tokenFor(server, student, 'account:read'));
      const write = await readOnly.patch('/api/v1/account', { name: 'Nope' });
      assert.equal(write.status, 403);
      assert.match(write.headers.get('www-authenticate') ?? '', /scope="account:write"/);
      assert.equal((await readOnly.delete('/api/v1/account/apps/x')).status, 403);
      const invalid = await apiClient(server.url, 'not-a-real-token-at-all').get('/api/v1/account');
      assert.equal(invalid.status, 401);
      assert.equal(invalid.body.error, 'invalid_token');
    });

    test('update: name and locale change; the locale is canonicalised and can be cleared', async () => {
      const person = await createUser(server, 'student', 'Lena Locale');
      const api = apiClient(server.url, await tokenFor(server, person, 'account:read account:write'));
      const before_ = (await api.get<Account>('/api/v1/account')).body;
      const updated = await api.patch<Account>('/api/v1/account', { name: '  Lena L. Locale ', locale: 'pt-br' });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      assert.equal(updated.body.name, 'Lena L. Locale');
      assert.equal(updated.body.locale, 'pt-BR');
      assert.equal(updated.body.email, person.email, 'untouched fields stay');
      assert.ok(updated.body.updated_at >= before_.updated_at);
      assert.deepEqual((await api.get<Account>('/api/v1/account')).body, updated.body);
      const cleared = await api.patch<Account>('/api/v1/account', { locale: null });
      assert.equal(cleared.body.locale, null);
      assert.equal(cleared.body.name, 'Lena L. Locale');
    });

    test('update email: needs the password; an address in use is 409; a new one waits for its link', async () => {
      const person = await createUser(server, 'student', 'Emil Email');
      const api = apiClient(server.url, await tokenFor(server, person, 'account:read account:write'));
      const withoutPassword = await api.patch('/api/v1/account', { email: 'takeover@evil.test' });
      assert.equal(withoutPassword.status, 400, 'an app cannot change the email without the password');
      assert.equal((withoutPassword.body.errors as { field: string }[])[0]?.field, 'current_password');
      const wrongPassword = await api.patch('/api/v1/account', {
        email: 'takeover@evil.test',
        current_password: 'nope',
      });
      assert.equal(wrongPassword.status, 400);
      const current_password = person.password;
      const taken = await api.patch('/api/v1/account', { email: staff.email.toUpperCase(), current_password });
      assert.equal(taken.status, 409);
      assert.equal(taken.body.error, 'conflict');
      assert.match(String(taken.body.error_description), /already uses this email.*choose another/);
      const same = await api.patch<Account>('/api/v1/account', { email: person.email.toUpperCase(), current_password });
      assert.equal(same.status, 200, 'your own address is not "taken"');

      const changed = await api.patch<Account & { pending_email: string }>('/api/v1/account', {
        email: 'Emil.New@School.Test',
        current_password,
      });
      assert.equal(changed.status, 200);
      assert.equal(changed.body.email, person.email, 'the address moves only when the link is opened');
      assert.equal(changed.body.pending_email, 'emil.new@school.test', 'stored lower-case, waiting');
      await signedInBrowser(person.email, person.password);
    });

    test('validation: role is read-only; unknown field, wrong type, too long, bad locale or email, empty', async () => {
      const api = apiClient(server.url, await tokenFor(server, student, 'account:read account:write'));
      const role = await api.patch('/api/v1/account', { role: 'owner' });
      assert.equal(role.status, 400);
      assert.deepEqual((role.body.errors as { field: string; code: string }[])[0], {
        field: 'role',
        code: 'unknown_field',
        message: 'Unknown field "role"; remove it.',
      });
      assert.equal((await api.get<Account>('/api/v1/account')).body.role, 'student');
      const cases: [Record<string, unknown>, string][] = [
        [{ name: 42 }, 'name'],
        [{ name: 'x'.repeat(121) }, 'name'],
        [{ name: '' }, 'name'],
        [{ name: '   ' }, 'name'],
        [{ locale: 'not a locale' }, 'locale'],
        [{ locale: 'en-' }, 'locale'],
        [{ locale: 'x'.repeat(36) }, 'locale'],
        [{ email: 'no-at-sign' }, 'email'],
        [{ email: `${'a'.repeat(250)}@x.test` }, 'email'],
      ];
      for (const [body, field] of cases) {
        const response = await api.patch('/api/v1/account', body);
        assert.equal(response.status, 400, JSON.stringify(body));
        assert.equal(response.body.error, 'invalid_request');
        assert.equal((response.body.errors as { field: string }[])[0]?.field, field, JSON.stringify(body));
      }
      assert.equal((await api.patch('/api/v1/account', {})).status, 400);
      assert.equal((await api.call('PATCH', '/api/v1/account', '{"name":', {})).status, 400);
      const unchanged = (await api.get<Account>('/api/v1/account')).body;
      assert.equal(unchanged.name, student.name);
      assert.equal(unchanged.email, student.email);
    });

    test('change password: a wrong current password is 400; success signs out every browser of the user', async () => {
      const person = await createUser(server, 'student', 'Paula Password');
      const other = await createUser(server, 'student', 'Otto Other');
      const api = apiClient(server.url, await tokenFor(server, person, 'account:read account:write'));
      const browserA = await signedInBrowser(person.email, person.password);
      const browserB = await signedInBrowser(person.email, person.password);
      const otherBrowser = await signedInBrowser(other.email, other.password);
      assert.ok((await isSignedIn(browserA)) && (await isSignedIn(browserB)));

      const wrong = await api.post('/api/v1/account/password', {
        current_password: 'not my password',
        new_password: 'a brand new password',
      });
      assert.equal(wrong.status, 400);
      assert.equal(wrong.body.error, 'invalid_request');
      assert.match(String(wrong.body.error_description), /current password is incorrect/);
      assert.ok(await isSignedIn(browserA), 'a refused change ends nothing');

      for (const body of [
        { current_password: person.password, new_password: 'short' },
        { current_password: person.password, new_password: 'x'.repeat(257) },
        { current_password: person.password },
        { current_password: person.password, new_password: 'a brand new password', confirm: 'x' },
        { current_password: person.password, new_password: 1234567890123 },
      ]) {
        const response = await api.post('/api/v1/account/password', body);
        assert.equal(response.status, 400, JSON.stringify(body));
      }

      const changed = await api.post('/api/v1/account/password', {
        current_password: person.password,
        new_password: 'a brand new password',
      });
      assert.equal(changed.status, 204);
      assert.equal(await isSignedIn(browserA), false, 'browser A is signed out');
      assert.equal(await isSignedIn(browserB), false, 'browser B is signed out');
      assert.ok(await isSignedIn(otherBrowser), "another user's session stays");
      const old = await new WebClient(server.url).submit('/signin', '/signin', {
        email: person.email,
        password: person.password,
      });
      assert.equal(old.status, 401, 'the old password no longer signs in');
      await signedInBrowser(person.email, 'a brand new password');
      // Connected apps keep their tokens; they are disconnected one by one under /account/apps.
      assert.equal((await api.get('/api/v1/account')).status, 200);
    });

    test('connected apps: listed with scopes; revoking one ends its tokens at once, not the others', async () => {
      const person = await createUser(server, 'student', 'Connie Connected');
      const notes = await connectApp(person, 'Notes CLI');
      const agent = await connectApp(person, 'Study Agent', 'openid account:read courses:read');
      const stranger = await connectApp(staff, 'Staff Tool');

      const listed = await notes.api.get<AppPage>('/api/v1/account/apps');
      assert.equal(listed.status, 200);
      assert.equal(listed.body.has_more, false);
      assert.equal(listed.body.next_cursor, null);
      const byName = new Map(listed.body.data.map((a) => [a.client_name, a]));
      assert.deepEqual([...byName.keys()].sort(), ['Notes CLI', 'Study Agent'], "only this user's apps");
      assert.equal(byName.get('Study Agent')?.client_id, agent.clientId);
      assert.deepEqual(byName.get('Study Agent')?.scopes, ['account:read', 'courses:read', 'openid']);
      assert.ok(byName.get('Notes CLI')?.scopes.includes('account:write'));
      assert.match(byName.get('Notes CLI')?.granted_at ?? '', /^\d{4}-\d\d-\d\dT/);
      assert.equal((await notes.api.get('/api/v1/account/apps?limit=5')).status, 400, 'no query parameters');
      assert.equal((await agent.api.get<AppPage>('/api/v1/account/apps')).body.data.length, 2, 'read scope lists');

      assert.equal((await userinfo(agent.token)).status, 200);
      const revoked = await notes.api.delete(`/api/v1/account/apps/${encodeURIComponent(agent.clientId)}`);
      assert.equal(revoked.status, 204);
      const afterUserinfo = await userinfo(agent.token);
      assert.equal(afterUserinfo.status, 401, 'the revoked app is refused at once');
      const afterApi = await agent.api.get('/api/v1/account');
      assert.equal(afterApi.status, 401);
      assert.equal(afterApi.body.error, 'invalid_token');
      assert.equal((await notes.api.get('/api/v1/account')).status, 200, 'the other app keeps working');
      assert.deepEqual(
        (await notes.api.get<AppPage>('/api/v1/account/apps')).body.data.map((a) => a.client_name),
        ['Notes CLI'],
      );

      const again = await notes.api.delete(`/api/v1/account/apps/${encodeURIComponent(agent.clientId)}`);
      assert.equal(again.status, 404);
      assert.equal(again.body.error, 'not_found');
      assert.equal((await notes.api.delete('/api/v1/account/apps/no-such-client')).status, 404);
      // Another user's app is not this user's to see or end.
      const foreign = await notes.api.delete(`/api/v1/account/apps/${encodeURIComponent(stranger.clientId)}`);
      assert.equal(foreign.status, 404);
      assert.equal((await stranger.api.get('/api/v1/account')).status, 200);

      // Revoking the app whose token makes the call ends that very token too.
      const self = await notes.api.delete(`/api/v1/account/apps/${encodeURIComponent(notes.clientId)}`);
      assert.equal(self.status, 204);
      assert.equal((await notes.api.get('/api/v1/account')).status, 401);
    });

    test('a student with only account:read lists apps but cannot revoke them', async () => {
      const person = await createUser(server, 'student', 'Rita Reader');
      const reader = await connectApp(person, 'Reader', 'account:read');
      assert.equal((await reader.api.get<AppPage>('/api/v1/account/apps')).body.data.length, 1);
      const refused = await reader.api.delete(`/api/v1/account/apps/${encodeURIComponent(reader.clientId)}`);
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error, 'insufficient_scope');
      assert.equal((await reader.api.get('/api/v1/account')).status, 200);
    });
  });
}
