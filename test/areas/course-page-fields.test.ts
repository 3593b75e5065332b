import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiClient, schoolWithPeople, tokenFor } from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

type Course = {
  id: string;
  outcomes: string[];
  audience: string[];
  requirements: string[];
  trailer_url: string | null;
};

for (const engine of engines) {
  describe(`a course page's fields in the API (${engine})`, () => {
    let server: TestServer;
    let staff: ReturnType<typeof apiClient>;

    before(async () => {
      server = await startTestServer(engine);
      const people = await schoolWithPeople(server);
      staff = apiClient(server.url, await tokenFor(server, people.staff, 'courses:read courses:write'));
    });
    after(() => server.close());

    test('empty until written; written on update; each list replaced as a whole, blank lines dropped', async () => {
      const bare = await staff.post<Course>('/api/v1/courses', { title: 'Bare' });
      assert.equal(bare.status, 201);
      assert.deepEqual(
        [bare.body.outcomes, bare.body.audience, bare.body.requirements, bare.body.trailer_url],
        [[], [], [], null],
      );
      const refused = await staff.post('/api/v1/courses', { title: 'Full', outcomes: ['Mix a wash'] });
      assert.equal(refused.status, 400, 'not on create: a course is made short, its page written after');
      const created = await staff.post<Course>('/api/v1/courses', { title: 'Full' });
      const made = await staff.patch<Course>(`/api/v1/courses/${created.body.id}`, {
        outcomes: ['Mix a wash', '  Paint a sky  ', ' ', ''],
        audience: ['Beginners'],
        requirements: ['A brush'],
        trailer_url: 'https://media.school.test/trailer.mp4',
      });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      assert.deepEqual(made.body.outcomes, ['Mix a wash', 'Paint a sky']);
      assert.equal(made.body.trailer_url, 'https://media.school.test/trailer.mp4');
      const changed = await staff.patch<Course>(`/api/v1/courses/${made.body.id}`, {
        requirements: [],
        trailer_url: null,
      });
      assert.equal(changed.status, 200);
      assert.deepEqual(changed.body.requirements, []);
      assert.equal(changed.body.trailer_url, null);
      assert.deepEqual(changed.body.outcomes, ['Mix a wash', 'Paint a sky'], 'untouched');
      const read = await staff.get<Course>(`/api/v1/courses/${made.body.id}`);
      assert.deepEqual(read.body, changed.body);
    });

    test('refused: too many lines, a line too long, a trailer that is not https', async () => {
      const { body } = await staff.post<Course>('/api/v1/courses', { title: 'Checked' });
      for (const [change, field] of [
        [{ outcomes: Array.from({ length: 13 }, (_, i) => `Line ${i}`) }, 'outcomes'],
        [{ audience: ['x'.repeat(201)] }, 'audience.0'],
        [{ trailer_url: 'javascript:alert(1)' }, 'trailer_url'],
        [{ outcomes: 'Mix a wash' }, 'outcomes'],
      ] as const) {
        const refused = await staff.patch(`/api/v1/courses/${body.id}`, change);
        assert.equal(refused.status, 400, JSON.stringify(change));
        assert.equal((refused.body.errors as { field: string }[])[0]?.field, field);
      }
    });
  });
}
