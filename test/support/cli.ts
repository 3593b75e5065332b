import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Runs a Node CLI (a tool we did not write) in a scratch folder — with HOME there too, so whatever it writes (results,
 * catalogs, stored credentials) stays out of the repository and the user's home — and collects what it prints.
 */
export function runNodeCli(
  script: string,
  args: string[],
  options: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const scratch = mkdtempSync(join(tmpdir(), 'lyceum-cli-'));
    const child = spawn(process.execPath, [script, ...args], {
      cwd: scratch,
      env: { ...process.env, HOME: scratch, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill(), options.timeoutMs ?? 120_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}
