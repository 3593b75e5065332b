/**
 * The second process of bench/invalidations.ts: listens on INVALIDATION_CHANNEL and prints the time (ms) at which each
 * `tokens` invalidation was applied here, one per line, after a line "ready".
 */
import { invalidations } from '../src/cluster/invalidations.ts';

const bus = invalidations({ redisUrl: process.env.REDIS_URL, channel: process.env.INVALIDATION_CHANNEL });
bus.on('tokens', () => process.stdout.write(`${Date.now()}\n`));
await bus.ready();
process.stdout.write('ready\n');
