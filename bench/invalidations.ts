/**
 * npm run bench:invalidations — how long a revocation published by one process takes to be applied by another, through
 * Redis (BENCH_REDIS_URL or TEST_REDIS_URL, default redis://127.0.0.1:6379): 200 `tokens` invalidations 10 ms apart,
 * each timed from publish to the moment the other process's handler ran (both clocks are this machine's).
 */
import { spawn } from 'node:child_process';
import { invalidations } from '../src/cluster/invalidations.ts';
import { percentile } from './support.ts';

const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const channel = `bench-invalidations-${Date.now()}`;
const COUNT = 200;

const listener = spawn(process.execPath, ['bench/invalidation-listener.ts'], {
  env: { ...process.env, REDIS_URL: redisUrl, INVALIDATION_CHANNEL: channel },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const applied: number[] = [];
const ready = new Promise<void>((resolve) => {
  listener.stdout.on('data', (chunk) => {
    for (const line of String(chunk).split('\n').filter(Boolean)) {
      if (line === 'ready') resolve();
      else applied.push(Number(line));
    }
  });
});
await ready;
const bus = invalidations({ redisUrl, channel });
await bus.ready();
const sent: number[] = [];
for (let i = 0; i < COUNT; i++) {
  sent.push(Date.now());
  bus.publish('tokens');
  await new Promise((resolve) => setTimeout(resolve, 10));
}
await new Promise((resolve) => setTimeout(resolve, 500));
listener.kill();
const latencies = applied.map((at, i) => at - (sent[i] ?? at)).sort((a, b) => a - b);
console.log(
  `invalidations applied by the other process: ${applied.length} of ${COUNT}; publish → applied p50 ${percentile(latencies, 50)} ms, ` +
    `p99 ${percentile(latencies, 99)} ms, max ${latencies.at(-1)} ms`,
);
process.exit(applied.length === COUNT ? 0 : 1);
