import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { responseCache } from '../../src/http/response-cache.ts';
import { apiClient, schoolWithPeople, tokenFor } from '../support/api.ts';
import { publishWithALesson } from '../support/course-content.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

test('entries expire after the TTL and clear() drops only its area', () => {
  let now = 0;
  const cache = responseCache({ ttlMs: 1000, now: () => now });
  cache.set('courses', 'k', 'a', cache.generation('courses'));
  cache.set('pages', 'k', 'b', cache.generation('pages'));
  assert.equal(cache.get('courses', 'k')?.toString(), 'a');
  cache.clear('courses');
  assert.equal(cache.get('courses', 'k'), undefined);
  assert.equal(cache.get('pages', 'k')?.toString(), 'b');
  now = 1001;
  assert.equal(cache.get('pages', 'k'), undefined);
  // A page read before a write (an older generation) is not stored after the write cleared the area.
  const before = cache.generation('courses');
  cache.clear('courses');
  cache.set('courses', 'k', 'stale', before);
  assert.equal(cache.get('courses', 'k'), undefined);
});

test('the cache stays within maxBytes, also when an entry is replaced as it fills', () => {
  const cache = responseCache({ ttlMs: 60_000, maxBytes: 1020 });
  const key = (name: string) => name.padEnd(8, '.');
  const put = (name: string, size: number) =>
    cache.set('courses', key(name), 'x'.repeat(size - 8), cache.generation('courses'));
  for (let i = 0; i < 20; i++) put(`old-${i}`, 51); // exactly full
  put('old-0', 60); // replacing one entry with a larger one overflows: everything goes, then it is stored
  assert.equal(cache.get('courses', key('old-1')), undefined);
  assert.ok(cache.get('courses', key('old-0')));
  // 960 bytes are left: 18 entries of 51 fit, the 19th overflows again and drops the first.
  for (let i = 0; i < 18; i++) put(`new-${i}`, 51);
  assert.ok(cache.get('courses', key('new-0')), 'still within the bound');
  put('new-18', 51);
  assert.equal(cache.get('courses', key('new-0')), undefined, 'past the bound: dropped');
});

describe('the catalog list micro-cache', () => {
  let server: TestServer;
  let staff: ReturnType<typeof apiClient>;
  let student: ReturnType<typeof apiClient>;
  const anonymous = () => apiClient(server.url);
  before(async () => {
    server = await startTestServer('sqlite', { LIST_CACHE_MS: '60000' });
    const people = await schoolWithPeople(server);
    staff = apiClient(server.url, await tokenFor(server, people.staff, 'courses:read courses:write curriculum:write'));
    student = apiClient(server.url, await tokenFor(server, people.student, 'courses:read'));
  });
  after(() => server.close());

  test('shared views are served from the cache; a write clears it at once; students are never cached', async () => {
    const created = await staff.post<{ id: string }>('/api/v1/courses', { title: 'Cached One' });
    await publishWithALesson(staff, created.body.id);
    const first = await anonymous().get<{ data: { title: string }[] }>('/api/v1/courses');
    assert.equal(first.headers.get('x-cache'), null);
    const second = await anonymous().get<{ data: { title: string }[] }>('/api/v1/courses');
    assert.equal(second.headers.get('x-cache'), 'hit');
    assert.deepEqual(second.body, first.body);
    await staff.get('/api/v1/courses');
    assert.equal((await staff.get('/api/v1/courses')).headers.get('x-cache'), 'hit');

    await staff.patch(`/api/v1/courses/${created.body.id}`, { title: 'Renamed' });
    const after = await anonymous().get<{ data: { title: string }[] }>('/api/v1/courses');
    assert.equal(after.headers.get('x-cache'), null, 'the write cleared the cache');
    assert.equal(after.body.data[0]?.title, 'Renamed');

    await student.get('/api/v1/courses');
    assert.equal((await student.get('/api/v1/courses')).headers.get('x-cache'), null);
  });
});
