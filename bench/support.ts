import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Engine } from '../src/db/tables.ts';
import { MEMORY_FLAGS } from '../src/memory-budget.ts';
import { freshDatabaseUrl } from '../test/support/databases.ts';
import { freePort } from '../test/support/server.ts';

export type { Engine };

/** PostgreSQL is measured when BENCH_DATABASE_URL (or TEST_DATABASE_URL) names a server; SQLite always. */
export function benchEngines(): Engine[] {
  if (!process.env.TEST_DATABASE_URL && process.env.BENCH_DATABASE_URL)
    process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  return process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

export type SpawnedServer = {
  url: string;
  logFile: string;
  databaseUrl: string;
  setupUrl: string | undefined;
  child: ChildProcess;
  pid: number;
  stop(): Promise<void>;
};

export type Child = { url: string; child: ChildProcess; pid: number; logFile: string; stop(): Promise<void> };

/**
 * Starts `node <script>` as its own process on a free port (PORT), logging to a file, as in production (a pipe read by
 * this load-generating process would slow both sides); resolves once `ready(child)` holds.
 */
export async function spawnNode(
  script: string,
  env: Record<string, string>,
  ready: (child: Child) => Promise<boolean>,
  nodeFlags: readonly string[] = [],
): Promise<Child> {
  const port = await freePort();
  const logFile = join(mkdtempSync(join(tmpdir(), 'lyceum-bench-')), 'server.log');
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, [...nodeFlags, script], {
    env: { ...process.env, PORT: String(port), ...env },
    stdio: ['ignore', log, 'inherit'],
  });
  closeSync(log);
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const spawned: Child = {
    url: `http://127.0.0.1:${port}`,
    child,
    pid: child.pid ?? 0,
    logFile,
    stop: () =>
      new Promise((resolve) => {
        if (exited) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
  for (let waited = 0; !(await ready(spawned).catch(() => false)); waited += 50) {
    if (exited || waited > 60_000) throw new Error(`${script} did not start; see ${logFile}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return spawned;
}

/** Whether `url` answers 200. */
export const answers = async (url: string) => (await fetch(url)).status === 200;

/**
 * Starts `node src/main.ts` as its own process (as in production) and waits for it: on a fresh database it waits for
 * the one-time setup link; given `databaseUrl` (a second instance of a school already set up) for `/healthz`.
 */
export async function spawnServer(
  engine: Engine,
  env: Record<string, string> = {},
  shared?: string,
): Promise<SpawnedServer> {
  const databaseUrl = shared ?? (await freshDatabaseUrl(engine));
  let setupUrl: string | undefined;
  const child = await spawnNode(
    'src/main.ts',
    { DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', ...env },
    async ({ url, logFile }) => {
      if (shared) return answers(`${url}/healthz`);
      const line = readFileSync(logFile, 'utf8')
        .split('\n')
        .find((l) => l.includes('setup_url'));
      if (line) setupUrl = JSON.parse(line).setup_url;
      return setupUrl !== undefined;
    },
    // As `npm start` runs it; SERVER_NODE_FLAGS=none (for all, or in one server's env) measures Node's own defaults.
    (env.SERVER_NODE_FLAGS ?? process.env.SERVER_NODE_FLAGS) === 'none' ? [] : MEMORY_FLAGS,
  );
  return { ...child, databaseUrl, setupUrl };
}

/** The `p`th percentile (0–100) of ascending `sorted`, by the nearest-rank method. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

/** Runs `worker` on `concurrency` loops until `durationMs` has passed; returns how many iterations finished. */
export async function runFor(
  durationMs: number,
  concurrency: number,
  worker: () => Promise<void>,
): Promise<{ count: number; seconds: number }> {
  const started = performance.now();
  let count = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() - started < durationMs) {
        await worker();
        count += 1;
      }
    }),
  );
  return { count, seconds: (performance.now() - started) / 1000 };
}

export function table(headers: string[], rows: (string | number)[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells: (string | number)[]) =>
    `| ${cells.map((c, i) => String(c).padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(headers), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}
