import { type ChildProcess, spawn } from 'node:child_process';
import { MEMORY_FLAGS } from '../../src/memory-budget.ts';

export type ServerProcess = {
  child: ChildProcess;
  lines: string[];
  exited: Promise<number | null>;
  /** Resolves with the first line (already printed, or printed later) that `match` accepts; rejects after `timeoutMs`. */
  waitForLine(match: (line: string) => boolean, timeoutMs?: number): Promise<string>;
};

/**
 * Starts `node src/main.ts` as its own process and resolves once `ready` accepts one of its output lines (by default
 * the line with the first-run setup link). Everything it prints is kept in `lines`. `cwd`: another build's folder.
 */
export function startMain(
  env: Record<string, string>,
  ready: (line: string) => boolean = (line) => line.includes('setup_url'),
  options: { cwd?: string } = {},
): Promise<ServerProcess> {
  // As `npm start` runs it.
  const child = spawn(process.execPath, [...MEMORY_FLAGS, 'src/main.ts'], {
    cwd: options.cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiters = new Set<{ match: (line: string) => boolean; found: (line: string) => void }>();
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const waitForLine = (match: (line: string) => boolean, timeoutMs = 10_000) => {
    const seen = lines.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise<string>((resolve, reject) => {
      const waiter = {
        match,
        found: (line: string) => {
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(line);
        },
      };
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`no such line within ${timeoutMs} ms:\n${lines.join('\n')}`));
      }, timeoutMs);
      waiters.add(waiter);
    });
  };
  return new Promise((resolve, reject) => {
    // A guard against a server that never starts, not a speed check: on two busy cores a start can take many seconds.
    const timer = setTimeout(() => reject(new Error(`not ready: ${lines.join('\n')}`)), 60_000);
    child.stdout?.on('data', (chunk) => {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        lines.push(line);
        for (const waiter of [...waiters]) if (waiter.match(line)) waiter.found(line);
        if (ready(line)) {
          clearTimeout(timer);
          resolve({ child, lines, exited, waitForLine });
        }
      }
    });
    child.stderr?.on('data', (chunk) => lines.push(String(chunk)));
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${lines.join('\n')}`)));
  });
}

/** Runs one of the school's commands (`node <script> <args>`, as npm runs it) to its end: its exit code and output. */
export function runScript(script: string, args: string[], env: Record<string, string>, options: { cwd?: string } = {}) {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...env },
    stdio: 'pipe',
  });
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr.on('data', (chunk) => {
    out += chunk;
  });
  return new Promise<{ code: number | null; out: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, out })),
  );
}
