import { type ChildProcess, spawn } from 'node:child_process';
import { MEMORY_FLAGS } from '../../src/memory-budget.ts';

export type ServerProcess = { child: ChildProcess; lines: string[]; exited: Promise<number | null> };

/**
 * Starts `node src/main.ts` as its own process and resolves once `ready` accepts one of its output lines (by default
 * the line with the first-run setup link). Everything it prints is kept in `lines`.
 */
export function startMain(
  env: Record<string, string>,
  ready: (line: string) => boolean = (line) => line.includes('setup_url'),
): Promise<ServerProcess> {
  // As `npm start` runs it.
  const child = spawn(process.execPath, [...MEMORY_FLAGS, 'src/main.ts'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready: ${lines.join('\n')}`)), 20_000);
    child.stdout?.on('data', (chunk) => {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        lines.push(line);
        if (ready(line)) {
          clearTimeout(timer);
          resolve({ child, lines, exited });
        }
      }
    });
    child.stderr?.on('data', (chunk) => lines.push(String(chunk)));
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${lines.join('\n')}`)));
  });
}
