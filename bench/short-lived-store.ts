/**
 * npm run bench:short-lived-store — what a write costs in the in-memory short-lived store once it is full: 100,000
 * interactions (its bound), then 2,000 more writes, each of which has to make room.
 */
import { memoryShortLivedStore } from '../src/oauth/short-lived-store.ts';

const store = memoryShortLivedStore({ now: () => 1_000_000 });
for (let i = 0; i < 100_000; i++) await store.set('Interaction', `i${i}`, { uid: `u${i}` }, 3600);
const started = performance.now();
for (let i = 0; i < 2_000; i++) await store.set('Interaction', `n${i}`, { uid: `v${i}` }, 3600);
console.log(`${((performance.now() - started) / 2000).toFixed(4)} ms per write into a full store of 100,000 records`);
await store.close();
