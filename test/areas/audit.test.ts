import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { apiClient, connectApp, insufficientScopeChallenge, schoolWithPeople, tokenFor } from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { mcpPost, toolCall } from '../support/mcp.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { fillIn, signedInClient } from '../support/web-client.ts';

type Entry = {
  id: string;
  at: string;
  actor: { id: string; email: string | null; role: string | null } | null;
  client: { id: string; name: string | null } | null;
  channel: string;
  operation: string;
  method: string;
  path: string;
  object: { type: string; id: string | null } | null;
  fields: string[];
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
};
type Page = { data: Entry[]; has_more: boolean; next_cursor: string | null };

for (const engine of engines) {
  describe(`the audit log (${engine})`, () => {
    let server: TestServer;
    let people: Awaited<ReturnType<typeof schoolWithPeople>>;
    let staff: ReturnType<typeof apiClient>;
    let clientId: string;
    let reader: ReturnType<typeof apiClient>;

    before(async () => {
      server = await startTestServer(engine);
      people = await schoolWithPeople(server);
      const app = await connectApp(server, people.staff, 'courses:read courses:write school:read school:write', {
        clientName: 'Audit test app',
      });
      clientId = app.clientId;
      staff = apiClient(server.url, app.token);
      reader = apiClient(server.url, await tokenFor(server, people.owner, 'school:read'));
    });
    after(() => server.close());

    const entries = async (query = '') => (await reader.get<Page>(`/api/v1/audit-log?limit=100${query}`)).body.data;

    test('each REST write records who, through which app, what, on which object and from where; never values', async () => {
      const made = await staff.post<{ id: string }>('/api/v1/courses', {
        title: 'Audited',
        description: 'secret words',
      });
      assert.equal(made.status, 201);
      const changed = await staff.patch(`/api/v1/courses/${made.body.id}`, { subtitle: 'Now with a subtitle' });
      assert.equal(changed.status, 200);
      const [update, create] = await entries(`&object_id=${made.body.id}`);
      assert.ok(create && update, 'two entries');
      assert.deepEqual({ ...create, id: undefined, at: undefined, path: undefined, user_agent: undefined }, {
        id: undefined,
        at: undefined,
        path: undefined,
        user_agent: undefined,
        actor: { id: create.actor?.id, email: 'stella.staff@school.test', role: 'staff' },
        client: { id: clientId, name: 'Audit test app' },
        channel: 'api',
        operation: 'createCourse',
        method: 'POST',
        object: { type: 'courses', id: made.body.id },
        fields: ['title', 'description'],
        ip: '127.0.0.1',
        request_id: create.request_id,
      } as unknown as Entry);
      assert.equal(create.path, '/api/v1/courses');
      assert.ok(create.user_agent, 'the user agent is kept');
      assert.equal(update.operation, 'updateCourse');
      assert.deepEqual(update.fields, ['subtitle']);
      assert.equal(update.path, `/api/v1/courses/${made.body.id}`);
      assert.ok(!JSON.stringify(await entries()).includes('secret words'), 'values are never recorded');
    });

    test('a refused write records nothing; each request that writes records exactly one entry', async () => {
      const before = (await entries()).length;
      assert.equal((await staff.post('/api/v1/courses', { title: 'x', colour: 'red' })).status, 400);
      const a = await staff.post<{ id: string; slug: string }>('/api/v1/courses', { title: 'Slugged' });
      assert.equal((await staff.post('/api/v1/courses', { title: 'Again', slug: a.body.slug })).status, 409);
      assert.equal((await staff.patch(`/api/v1/courses/${a.body.id}`, { slug: 'Not A Slug' })).status, 400);
      // One lone UPDATE (no transaction of its own) and one create made in a transaction, one entry each.
      assert.equal((await staff.patch('/api/v1/school', { description: 'We teach.' })).status, 200);
      assert.equal(
        (await staff.post('/api/v1/courses', { title: 'Idempotent' }, { 'idempotency-key': 'k-1' })).status,
        201,
      );
      const after = await entries();
      assert.deepEqual(
        after.slice(0, after.length - before).map((e) => e.operation),
        ['createCourse', 'updateSchool', 'createCourse'],
      );
    });

    test('an MCP tool and the admin record their channel, the MCP app and the browser', async () => {
      const mcpToken = await tokenFor(server, people.staff, 'courses:write');
      const called = await mcpPost(server.url, toolCall('createCourse', { title: 'Made by an agent' }), {
        authorization: `Bearer ${mcpToken}`,
        'user-agent': 'agent-test/1.0',
      });
      assert.equal(called.status, 200, called.text);
      const [byAgent] = await entries('&channel=mcp');
      assert.equal(byAgent?.operation, 'createCourse');
      assert.equal(byAgent?.client?.name, 'API test client');
      assert.equal(byAgent?.user_agent, 'agent-test/1.0');

      const browser = await signedInClient(server.url, people.owner);
      const saved = await fillIn(browser, '/admin/school', '/admin/school/edit', {
        description: 'Changed in the admin',
      });
      assert.equal(saved.status, 303);
      const [byAdmin] = await entries('&channel=admin');
      assert.equal(byAdmin?.operation, 'updateSchool');
      assert.equal(byAdmin?.client, null, 'no app stands between the admin and the school');
      assert.equal(byAdmin?.actor?.role, 'owner');
      assert.deepEqual(byAdmin?.fields, ['description']);
      assert.equal(byAdmin?.ip, '127.0.0.1');
    });

    test('filters, newest first, pages by cursor; one entry by id', async () => {
      const all = await entries();
      assert.ok(all.length >= 5);
      assert.deepEqual(
        all.map((e) => e.id),
        [...all.map((e) => e.id)].sort().reverse(),
      );
      const first = await reader.get<Page>('/api/v1/audit-log?limit=2');
      const second = await reader.get<Page>(`/api/v1/audit-log?limit=2&starting_after=${first.body.next_cursor}`);
      assert.deepEqual(
        [...first.body.data, ...second.body.data].map((e) => e.id),
        all.slice(0, 4).map((e) => e.id),
      );
      const mine = await entries(`&client_id=${clientId}&operation=createCourse`);
      assert.ok(mine.length >= 3 && mine.every((e) => e.client?.id === clientId && e.operation === 'createCourse'));
      const staffId = all.find((e) => e.actor?.role === 'staff')?.actor?.id;
      assert.ok((await entries(`&actor_id=${staffId}`)).every((e) => e.actor?.id === staffId));
      const later = new Date(Date.now() + 60_000).toISOString();
      assert.deepEqual(await entries(`&since=${later}`), []);
      assert.equal((await entries(`&until=${later}`)).length, all.length);
      const one = await reader.get<Entry>(`/api/v1/audit-log/${all[0]?.id}`);
      assert.deepEqual(one.body, all[0]);
      for (const bad of ['limit=101', 'starting_after=nope', 'channel=fax', 'unknown=1'])
        assert.equal((await reader.get(`/api/v1/audit-log?${bad}`)).status, 400, bad);
    });

    test('students see no entries; a token without school:read is refused', async () => {
      const student = apiClient(server.url, await tokenFor(server, people.student, 'school:read'));
      assert.deepEqual((await student.get<Page>('/api/v1/audit-log')).body.data, []);
      const any = (await entries())[0];
      assert.equal((await student.get(`/api/v1/audit-log/${any?.id}`)).status, 404);
      const other = apiClient(server.url, await tokenFor(server, people.staff, 'courses:read'));
      const refused = await other.get('/api/v1/audit-log');
      assert.equal(refused.status, 403);
      assert.match(refused.headers.get('www-authenticate') ?? '', insufficientScopeChallenge('school:read'));
    });

    test('the log is append-only at the database: UPDATE and DELETE fail, even run directly', async () => {
      const db = server.database.db;
      const count = async () =>
        Number((await sql<{ n: number }>`select count(*) as n from audit_log`.execute(db)).rows[0]?.n);
      const before = await count();
      await assert.rejects(sql`update audit_log set operation = 'nothing'`.execute(db), /append-only/);
      await assert.rejects(sql`delete from audit_log`.execute(db), /append-only/);
      if (engine === 'postgres') await assert.rejects(sql`truncate audit_log`.execute(db), /append-only/);
      assert.equal(await count(), before);
      assert.equal(
        server.routes.filter((r) => r.url.startsWith('/api/v1/audit-log') && r.method !== 'GET' && r.method !== 'HEAD')
          .length,
        0,
        'the API has no route that writes the log',
      );
    });

    test('every write route of the API is audited', () => {
      const writes = server.routes
        .filter((r) => r.url.startsWith('/api/v1/') && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method))
        .map((r) => `${r.method} ${r.url}`);
      const audited = new Set(server.auditedRoutes.map((r) => `${r.method} ${r.url}`));
      assert.ok(writes.length > 80);
      assert.deepEqual(
        writes.filter((w) => !audited.has(w)),
        [],
      );
    });
  });
}
