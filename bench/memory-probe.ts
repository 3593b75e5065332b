/**
 * Preloaded into a server process (`--import ./bench/memory-probe.ts`) by bench/soak.ts: every MEMORY_PROBE_MS it
 * appends the process's memory figures, after a full garbage collection when `--expose-gc` is on, as one JSON line
 * to MEMORY_PROBE_FILE.
 */
import { appendFileSync } from 'node:fs';

const file = process.env.MEMORY_PROBE_FILE;
if (file) {
  const started = Date.now();
  setInterval(
    () => {
      (globalThis as { gc?: () => void }).gc?.();
      const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
      const line = { s: Math.round((Date.now() - started) / 1000), rss, heapUsed, heapTotal, external, arrayBuffers };
      appendFileSync(file, `${JSON.stringify(line)}\n`);
    },
    Number(process.env.MEMORY_PROBE_MS ?? 10_000),
  ).unref();
}
