import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiClient, createUser, schoolWithPeople, tokenFor } from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { signedInClient } from '../support/web-client.ts';

type Member = { id: string; email: string; role: string; invited: boolean };
type Page = { data: Member[] };

for (const engine of engines) {
  describe(`staff (${engine})`, () => {
    let server: TestServer;
    let people: Awaited<ReturnType<typeof schoolWithPeople>>;
    let owner: ReturnType<typeof apiClient>;
    let staff: ReturnType<typeof apiClient>;

    before(async () => {
      server = await startTestServer(engine);
      people = await schoolWithPeople(server);
      owner = apiClient(server.url, await tokenFor(server, people.owner, 'school:read school:write'));
      staff = apiClient(server.url, await tokenFor(server, people.staff, 'school:read school:write'));
    });
    after(() => server.close());

    test('the owner invites a new address (an invitation is sent) and promotes a student; staff may not', async () => {
      const invited = await owner.post<Member>('/api/v1/staff', { email: 'New.Hire@School.test', name: 'New Hire' });
      assert.equal(invited.status, 201, JSON.stringify(invited.body));
      assert.deepEqual(
        [invited.body.email, invited.body.role, invited.body.invited],
        ['new.hire@school.test', 'staff', true],
      );
      const mail = await owner.get<{ data: { kind: string }[] }>('/api/v1/outbox?to=new.hire@school.test');
      assert.deepEqual(
        mail.body.data.map((m) => m.kind),
        ['invitation'],
      );
      const student = await createUser(server, 'student', 'Promoted Pat');
      const promoted = await owner.post<Member>('/api/v1/staff', { email: student.email, name: 'Promoted Pat' });
      assert.equal(promoted.body.role, 'staff');
      assert.equal((await owner.post('/api/v1/staff', { email: student.email, name: 'Again' })).status, 409);
      const refused = await staff.post<{ error: string }>('/api/v1/staff', { email: 'x@school.test', name: 'X' });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error, 'access_denied');
      const listed = await staff.get<Page>('/api/v1/staff?limit=100');
      assert.ok(
        listed.body.data.some((m) => m.id === promoted.body.id),
        'staff read the list',
      );
      assert.deepEqual(
        (await staff.get<Page>('/api/v1/staff?role=owner')).body.data.map((m) => m.role),
        ['owner'],
      );
      assert.equal((await staff.get<Page>('/api/v1/staff?q=promoted')).body.data.length, 1);
    });

    test('only the owner removes staff: the person becomes a student, their sessions and tokens end', async () => {
      const leaving = await createUser(server, 'staff', 'Leaving Lee');
      const token = apiClient(server.url, await tokenFor(server, leaving, 'courses:read courses:write'));
      const browser = await signedInClient(server.url, leaving);
      assert.equal((await browser.get('/admin')).status, 200);
      assert.equal((await staff.delete(`/api/v1/staff/${leaving.id}`)).status, 403, 'staff cannot remove staff');
      assert.equal((await owner.delete(`/api/v1/staff/${leaving.id}`)).status, 204);
      assert.equal(
        (await token.post('/api/v1/courses', { title: 'After leaving' })).status,
        401,
        'their grant is revoked',
      );
      assert.equal((await browser.get('/admin')).status, 303, 'their session ended');
      assert.equal((await owner.get(`/api/v1/staff/${leaving.id}`)).status, 404, 'no longer staff');
      const ownerId = (await owner.get<Page>('/api/v1/staff?role=owner')).body.data[0]?.id;
      assert.equal((await owner.delete(`/api/v1/staff/${ownerId}`)).status, 409, 'the owner cannot be removed');
    });

    test('making someone owner hands the school over: always exactly one owner', async () => {
      const heir = await createUser(server, 'staff', 'Heir Apparent');
      assert.equal((await staff.patch(`/api/v1/staff/${heir.id}`, { role: 'owner' })).status, 403);
      const made = await owner.patch<Member>(`/api/v1/staff/${heir.id}`, { role: 'owner' });
      assert.equal(made.status, 200);
      assert.equal(made.body.role, 'owner');
      const owners = (await staff.get<Page>('/api/v1/staff?role=owner')).body.data;
      assert.deepEqual(
        owners.map((m) => m.id),
        [heir.id],
      );
      assert.equal(
        (await owner.patch(`/api/v1/staff/${heir.id}`, { role: 'staff' })).status,
        403,
        'the old owner is staff now',
      );
      const heirApi = apiClient(server.url, await tokenFor(server, heir, 'school:read school:write'));
      assert.equal(
        (await heirApi.patch(`/api/v1/staff/${heir.id}`, { role: 'staff' })).status,
        409,
        'the owner stays owner',
      );
      const previous = owners.length
        ? (await heirApi.get<Page>(`/api/v1/staff?q=${encodeURIComponent(people.owner.email)}`)).body.data[0]
        : undefined;
      assert.equal(
        (await heirApi.patch(`/api/v1/staff/${previous?.id}`, { role: 'owner' })).status,
        200,
        'and hands it back',
      );
    });

    test('students see no staff; a token without school:read is refused; unknown fields are 400', async () => {
      const student = apiClient(server.url, await tokenFor(server, people.student, 'school:read'));
      assert.deepEqual((await student.get<Page>('/api/v1/staff')).body.data, []);
      const other = apiClient(server.url, await tokenFor(server, people.staff, 'courses:read'));
      assert.equal((await other.get('/api/v1/staff')).status, 403);
      assert.equal((await owner.post('/api/v1/staff', { email: 'a@b.test', name: 'A', role: 'owner' })).status, 400);
    });
  });
}
