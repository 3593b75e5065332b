import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import {
  fallbackRateLimiter,
  memoryRateLimiter,
  type RateLimiter,
  redisRateLimiter,
} from '../../src/security/rate-limiter.ts';
import { privateRedis, redisServerMissing } from '../support/private-services.ts';

let now = Date.now();
const kinds: [string, () => RateLimiter][] = [['memory', () => memoryRateLimiter(() => now)]];
const redisUrl = process.env.TEST_REDIS_URL;
if (redisUrl) kinds.push(['redis', () => redisRateLimiter(redisUrl, `lyceum-test:${randomUUID()}:`)]);

for (const [kind, make] of kinds) {
  describe(`rate limiter (${kind})`, () => {
    test('counts hits in a window, peeks without counting, resets', async () => {
      const limiter = make();
      try {
        assert.deepEqual(await limiter.peek('k'), { count: 0, retryAfterSeconds: 0 });
        assert.equal((await limiter.hit('k', 60)).count, 1);
        const second = await limiter.hit('k', 60);
        assert.equal(second.count, 2);
        assert.ok(second.retryAfterSeconds > 0 && second.retryAfterSeconds <= 60);
        assert.equal((await limiter.peek('k')).count, 2);
        assert.equal((await limiter.hit('other', 60)).count, 1);
        await limiter.reset('k');
        assert.equal((await limiter.peek('k')).count, 0);
      } finally {
        await limiter.close();
      }
    });

    test('a window ends by itself', async () => {
      const limiter = make();
      try {
        await limiter.hit('short', 1);
        assert.equal((await limiter.peek('short')).count, 1);
        if (kind === 'memory') {
          now += 1001;
          assert.equal((await limiter.peek('short')).count, 0);
        } else {
          // Redis keeps the time: the counter carries an expiry no longer than its window.
          const state = await limiter.peek('short');
          assert.ok(
            state.retryAfterSeconds >= 1 && state.retryAfterSeconds <= 1,
            `retry after ${state.retryAfterSeconds}`,
          );
        }
      } finally {
        await limiter.close();
      }
    });
  });
}

if (redisUrl) {
  test('two instances sharing Redis see one counter', async () => {
    const prefix = `lyceum-test:${randomUUID()}:`;
    const a = redisRateLimiter(redisUrl, prefix);
    const b = redisRateLimiter(redisUrl, prefix);
    try {
      await a.hit('shared', 60);
      await b.hit('shared', 60);
      assert.equal((await a.peek('shared')).count, 2);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
}

test('while Redis is unreachable, limits count in this instance’s memory at once; in Redis again when it is back', {
  skip: redisServerMissing(),
}, async (t) => {
  const redis = await privateRedis();
  t.after(() => redis.close());
  await redis.stop();
  const switches: string[] = [];
  const shared = (prefix: string) => redisRateLimiter(redis.url, prefix);
  const prefix = `lyceum-test:${randomUUID()}:`;
  const limiter = fallbackRateLimiter(
    shared(prefix),
    memoryRateLimiter(() => now),
    (to) => switches.push(to),
  );
  t.after(() => limiter.close());

  const started = Date.now();
  assert.equal((await limiter.hit('signin:ip', 60)).count, 1);
  assert.equal((await limiter.hit('signin:ip', 60)).count, 2, 'still limited, in memory');
  const waited = Date.now() - started;
  assert.ok(waited < 1_500, `answered without waiting on Redis (${waited} ms)`);
  assert.deepEqual(switches, ['fallback']);

  await redis.start();
  const other = shared(prefix);
  t.after(() => other.close());
  await other.hit('signin:ip', 60);
  // The limiter's own connection comes back by itself (it retries every second at most).
  for (let i = 0; i < 60 && switches.length < 2; i++) {
    await limiter.peek('signin:ip');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.deepEqual(switches, ['fallback', 'primary']);
  assert.equal((await limiter.hit('signin:ip', 60)).count, 2, 'counted with the other instance in Redis again');
});
