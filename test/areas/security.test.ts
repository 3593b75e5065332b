import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiClient, connectApp, schoolWithPeople, tokenFor } from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { authorizeUrl, pkce, tokenRequest } from '../support/oauth.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { WebClient } from '../support/web-client.ts';

type App = {
  id: string;
  client_name: string | null;
  grants: number;
  last_used_at: string | null;
  blocked_at: string | null;
};
type Detail = App & { grant_list: { user: { email: string } | null; scopes: string[] }[] };

for (const engine of engines) {
  describe(`the front door as staff see it (${engine})`, () => {
    let server: TestServer;
    let people: Awaited<ReturnType<typeof schoolWithPeople>>;
    let staff: ReturnType<typeof apiClient>;

    before(async () => {
      server = await startTestServer(engine);
      people = await schoolWithPeople(server);
      staff = apiClient(server.url, await tokenFor(server, people.staff, 'school:read school:write'));
    });
    after(() => server.close());

    test('staff list apps with their grants and last use, and see who connected one', async () => {
      const watched = await connectApp(server, people.student, 'courses:read', { clientName: 'Watched app' });
      const listed = await staff.get<{ data: App[] }>('/api/v1/oauth-clients?q=Watched');
      const app = listed.body.data.find((a) => a.id === watched.clientId);
      assert.equal(app?.client_name, 'Watched app');
      assert.equal(app?.grants, 1);
      assert.ok(app?.last_used_at, 'it got a token');
      const detail = await staff.get<Detail>(`/api/v1/oauth-clients/${watched.clientId}`);
      assert.equal(detail.body.grant_list[0]?.user?.email, people.student.email);
      assert.ok(detail.body.grant_list[0]?.scopes.includes('courses:read'));
    });

    test("revoking an app's grants ends its tokens at once", async () => {
      const app = await connectApp(server, people.student, 'courses:read', { clientName: 'Revoked app' });
      const student = apiClient(server.url, app.token);
      assert.equal((await student.get('/api/v1/courses')).status, 200);
      const revoked = await staff.post<Detail>(`/api/v1/oauth-clients/${app.clientId}/revoke-grants`);
      assert.equal(revoked.status, 200);
      assert.equal(revoked.body.grants, 0);
      assert.equal((await student.get('/api/v1/courses')).status, 401);
    });

    test('a blocked app loses its tokens and can neither refresh nor authorize; unblocking lets it back', async () => {
      const app = await connectApp(server, people.student, 'openid offline_access courses:read', {
        clientName: 'Blocked app',
      });
      const blocked = await staff.post<Detail>(`/api/v1/oauth-clients/${app.clientId}/block`);
      assert.equal(blocked.status, 200);
      assert.ok(blocked.body.blocked_at);
      assert.equal((await apiClient(server.url, app.token).get('/api/v1/courses')).status, 401);
      const refresh = await tokenRequest(server.url, {
        grant_type: 'refresh_token',
        refresh_token: String(app.tokens.refresh_token ?? 'none'),
        client_id: app.clientId,
      });
      assert.equal(refresh.body.error, 'invalid_client');
      const { challenge } = pkce();
      const authorize = await new WebClient(server.url).get(
        authorizeUrl(server.url, {
          response_type: 'code',
          client_id: app.clientId,
          redirect_uri: 'http://127.0.0.1:44000/callback',
          scope: 'openid',
          code_challenge: challenge,
          code_challenge_method: 'S256',
        }).replace(server.url, ''),
      );
      assert.equal(authorize.status, 400);
      assert.match(authorize.text, /invalid_client/);
      assert.deepEqual(
        (await staff.get<{ data: App[] }>('/api/v1/oauth-clients?blocked=true')).body.data.map((a) => a.id),
        [app.clientId],
      );
      const unblocked = await staff.post<Detail>(`/api/v1/oauth-clients/${app.clientId}/unblock`);
      assert.equal(unblocked.body.blocked_at, null);
      const again = await new WebClient(server.url).get(
        authorizeUrl(server.url, {
          response_type: 'code',
          client_id: app.clientId,
          redirect_uri: 'http://127.0.0.1:44000/callback',
          scope: 'openid',
          code_challenge: challenge,
          code_challenge_method: 'S256',
        }).replace(server.url, ''),
      );
      assert.notEqual(again.status, 400, 'the app may ask again');
    });

    test('sign-in attempts are recorded with their outcome and address', async () => {
      const browser = new WebClient(server.url);
      await browser.submit('/signin', '/signin', { email: people.student.email, password: 'wrong password!' });
      await browser.submit('/signin', '/signin', { email: 'nobody@school.test', password: 'whatever123' });
      await browser.submit('/signin', '/signin', { email: people.student.email, password: people.student.password });
      const log = await staff.get<{ data: { email: string; outcome: string; ip: string; user_id: string | null }[] }>(
        '/api/v1/sign-in-activity?limit=3',
      );
      assert.deepEqual(
        log.body.data.map((e) => [e.email, e.outcome]),
        [
          [people.student.email, 'success'],
          ['nobody@school.test', 'unknown_email'],
          [people.student.email, 'wrong_password'],
        ],
      );
      assert.equal(log.body.data[0]?.ip, '127.0.0.1');
      const failures = await staff.get<{ data: unknown[] }>('/api/v1/sign-in-activity?outcome=unknown_email');
      assert.equal(failures.body.data.length, 1);
    });

    test('students see none of it; tokens without the school scopes are refused', async () => {
      const student = apiClient(server.url, await tokenFor(server, people.student, 'school:read'));
      assert.deepEqual((await student.get<{ data: unknown[] }>('/api/v1/oauth-clients')).body.data, []);
      assert.deepEqual((await student.get<{ data: unknown[] }>('/api/v1/sign-in-activity')).body.data, []);
      const some = (await staff.get<{ data: App[] }>('/api/v1/oauth-clients')).body.data[0];
      assert.equal((await student.get(`/api/v1/oauth-clients/${some?.id}`)).status, 404);
      const readOnly = apiClient(server.url, await tokenFor(server, people.staff, 'school:read'));
      assert.equal((await readOnly.post(`/api/v1/oauth-clients/${some?.id}/block`)).status, 403);
      const other = apiClient(server.url, await tokenFor(server, people.staff, 'courses:read'));
      assert.equal((await other.get('/api/v1/sign-in-activity')).status, 403);
    });
  });
}
