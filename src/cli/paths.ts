import { homedir } from 'node:os';
import { join } from 'node:path';

export type Env = Record<string, string | undefined>;

/** Where settings and credentials live: $XDG_CONFIG_HOME/lyceum, else ~/.config/lyceum. */
export const configDir = (env: Env) => join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'lyceum');

/** Where each school's command tree is cached: $XDG_CACHE_HOME/lyceum/<host>, else ~/.cache/lyceum/<host>. */
export function cacheDir(env: Env, baseUrl: string): string {
  const url = new URL(baseUrl);
  const place = `${url.host}${url.pathname.replace(/\/+$/, '')}`.replace(/[^\w.-]+/g, '_');
  return join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'lyceum', place);
}
