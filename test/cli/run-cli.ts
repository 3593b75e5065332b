import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Person } from '../support/api.ts';

export const BIN = resolve('bin/lyceum.js');

export type CliResult = { code: number | null; stdout: string; stderr: string };

/**
 * A person's terminal for `lyceum`: a home folder of their own (config, credentials and cache land there), and a
 * browser opener that signs them in with Chromium. `run` spawns bin/lyceum.js as a person would run it.
 */
export function cliUser(person?: Pick<Person, 'email' | 'password'>, extraEnv: Record<string, string> = {}) {
  const home = mkdtempSync(join(tmpdir(), 'lyceum-cli-home-'));
  const env: Record<string, string | undefined> = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: undefined,
    XDG_CACHE_HOME: undefined,
    LYCEUM_PROFILE: undefined,
    LYCEUM_BROWSER_OPENER: `${process.execPath} ${resolve('test/cli/browser-opener.ts')}`,
    LYCEUM_TEST_EMAIL: person?.email,
    LYCEUM_TEST_PASSWORD: person?.password,
    LYCEUM_TEST_OPENER_LOG: join(home, 'opener.log'),
    LYCEUM_LOGIN_TIMEOUT_SECONDS: '60',
    ...extraEnv,
  };
  const run = (args: string[], more: Record<string, string> = {}, input?: string): Promise<CliResult> =>
    new Promise((done, fail) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        cwd: home,
        env: { ...env, ...more } as NodeJS.ProcessEnv,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      child.stdin.end(input ?? '');
      child.on('error', fail);
      child.on('close', (code) => done({ code, stdout, stderr }));
    });
  return { home, env, run };
}
