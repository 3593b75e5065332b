import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { invalidations } from '../../src/cluster/invalidations.ts';
import { apiClient, connectApp, type Person, schoolWithPeople } from '../support/api.ts';
import { publishWithALesson } from '../support/course-content.ts';
import { engines } from '../support/databases.ts';
import { formPost } from '../support/oauth.ts';
import { freePort, startTestServer, type TestServer } from '../support/server.ts';

test('without Redis an invalidation applies on this instance only, at once', () => {
  const bus = invalidations();
  let dropped = 0;
  bus.on('tokens', () => {
    dropped += 1;
  });
  bus.on('catalog', () => {
    dropped += 10;
  });
  bus.publish('tokens');
  assert.equal(dropped, 1);
});

const redisUrl = process.env.TEST_REDIS_URL;

/** A message that never comes fails the test instead of hanging it. */
const within = <T>(promise: Promise<T>, ms = 5000) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`nothing arrived within ${ms} ms`)), ms).unref(),
    ),
  ]);

/**
 * Two instances on one database and one Redis. Each caches validated tokens for 5 s and the catalog list for a
 * minute here, so only the published invalidation can explain the second instance seeing a change.
 */
for (const engine of engines) {
  describe(`two instances tell each other what to drop, through Redis (${engine})`, { skip: !redisUrl }, () => {
    let a: TestServer;
    let b: TestServer;
    let staff: Person;
    before(async () => {
      // Behind one load balancer: one public origin (tokens are bound to it), two listeners.
      const port = await freePort();
      const env = {
        REDIS_URL: redisUrl ?? '',
        // Its own keys and channel: counters left in the shared Redis by other runs must not limit this one.
        REDIS_PREFIX: `lyceum-test-${randomUUID()}:`,
        TOKEN_CACHE_SECONDS: '60',
        LIST_CACHE_MS: '60000',
        BASE_URL: `http://127.0.0.1:${port}`,
      };
      a = await startTestServer(engine, { ...env, PORT: String(port) });
      ({ staff } = await schoolWithPeople(a));
      b = await startTestServer(engine, env, { databaseUrl: a.databaseUrl });
      await Promise.all([a.services.invalidations.ready(), b.services.invalidations.ready()]);
    });
    after(async () => {
      await b.close();
      await a.close();
    });

    test('a token revoked on one instance is refused by the other as soon as the message arrives', async () => {
      const { clientId, token } = await connectApp(a, staff, 'courses:read');
      const onB = apiClient(b.url, token);
      assert.equal((await onB.get('/api/v1/courses')).status, 200, 'B validated the token and cached it');
      const arrived = b.services.invalidations.nextFromElsewhere();
      const revoked = await formPost(a.url, '/api/oauth/revoke', { token, client_id: clientId });
      assert.equal(revoked.status, 200);
      assert.equal(await within(arrived), 'tokens');
      assert.equal((await onB.get('/api/v1/courses')).status, 401);
    });

    test('a course published on one instance shows in the other instance’s cached list as soon as the message arrives', async () => {
      const anonymousOnB = apiClient(b.url);
      await anonymousOnB.get('/api/v1/courses');
      assert.equal((await anonymousOnB.get('/api/v1/courses')).headers.get('x-cache'), 'hit');
      const { token } = await connectApp(a, staff, 'courses:write curriculum:write');
      const onA = apiClient(a.url, token);
      const arrived = b.services.invalidations.nextFromElsewhere();
      const course = (await onA.post<{ id: string }>('/api/v1/courses', { title: 'Seen everywhere' })).body;
      await publishWithALesson(onA, course.id);
      assert.equal(await within(arrived), 'catalog');
      const listed = await anonymousOnB.get<{ data: { id: string }[] }>('/api/v1/courses');
      assert.ok(listed.body.data.some((c) => c.id === course.id));
    });
  });
}
