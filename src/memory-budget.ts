import { getHeapStatistics } from 'node:v8';

/**
 * The V8 heap bounds the server runs with: `npm start` passes them to Node, and the benchmarks and tests that start a
 * real server process do too. Left to itself on a large machine, V8 sizes the young generation at 2 × 64 MB and lets
 * the old generation grow to several times what is live before collecting, so an instance whose live heap is 70 MB
 * held 450–500 MB under load. With these bounds the same soak stays near 270 MB (docs/operations.md, Memory budget). A school whose
 * live heap outgrows them raises --max-old-space-size through NODE_OPTIONS.
 */
export const MEMORY_FLAGS = ['--max-semi-space-size=16', '--max-old-space-size=256'] as const;

/** Whether this process runs with an old generation as bounded as MEMORY_FLAGS asks (or tighter, or raised on purpose). */
export function heapBounded(limitBytes = getHeapStatistics().heap_size_limit): boolean {
  return limitBytes <= 2 * 1024 * 1024 * 1024;
}
