import { spawn } from 'node:child_process';
import type { Env } from './paths.ts';

/** Opens a URL for the person: a program that is given the URL as its last argument. */
export type BrowserOpener = (url: string) => Promise<void>;

/**
 * LYCEUM_BROWSER_OPENER (a command, split on spaces, given the URL as last argument) when set, for other browsers,
 * remote sessions and tests; else the `open` package (xdg-open, open, start).
 */
export function browserOpener(env: Env): BrowserOpener {
  const command = env.LYCEUM_BROWSER_OPENER?.trim();
  if (command) {
    const [program = '', ...args] = command.split(/\s+/);
    return (url) =>
      new Promise((resolve, reject) => {
        const child = spawn(program, [...args, url], { stdio: 'ignore', detached: true });
        child.once('error', reject);
        child.once('spawn', () => {
          child.unref();
          resolve();
        });
      });
  }
  return async (url) => {
    const { default: open } = await import('open');
    // Resolves once the launcher has started (and rejects when it cannot be started).
    await open(url);
  };
}
