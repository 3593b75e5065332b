import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CliFailure, EXIT } from './exit-codes.ts';
import { configDir, type Env } from './paths.ts';

/** What the CLI keeps about one school it signed in to (no secrets: tokens are in the credential store). */
export type Profile = {
  base_url: string;
  client_id: string;
  /** The scopes the last login granted. */
  scope: string;
  /**
   * Every scope this person's role may hold at the school, as a login that asked for all of them was granted (consent
   * is all or nothing, so what the school dropped, the role can never hold). Absent until such a login.
   */
  role_scopes?: string;
  /** Scopes a login asked for and the school dropped: this person's role can never hold them. */
  role_refused?: string;
  user: { sub: string; email?: string; name?: string };
  /** The authorization server's endpoints the CLI calls after login (from its RFC 8414 metadata). */
  endpoints: { token: string; revocation?: string; userinfo?: string };
  /** Where this profile's tokens are: the OS keyring or the 0600 file beside this one. */
  token_store: 'keyring' | 'file';
};

export type ProfileFile = { current?: string; profiles: Record<string, Profile> };

/** A school's default profile name: its host (and port). */
export const defaultProfileName = (baseUrl: string) => new URL(baseUrl).host;

/** Base URLs are compared and stored without a trailing slash. */
export function normalizeBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(/^https?:\/\//.test(value) ? value : `https://${value}`);
  } catch {
    throw new CliFailure(EXIT.usage, `"${value}" is not a URL (for example https://school.example).`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * Writes a file only the user can read, replacing the old one at once (never half-written). The temporary file has a
 * random name and must not exist yet ('wx'), so nothing planted at a guessable name is written through.
 */
export function writePrivateFile(path: string, content: string) {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temporary, content, { mode: 0o600, flag: 'wx' });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}

/**
 * The config folder (settings, and credentials.json when there is no keyring) is the user's alone: one that others
 * may read or enter (made by hand, or by an old umask) is set to 0700, with a warning.
 */
export function keepConfigDirPrivate(env: Env, warn: (line: string) => void) {
  const dir = configDir(env);
  let mode: number;
  try {
    mode = statSync(dir).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (!(mode & 0o077)) return;
  chmodSync(dir, 0o700);
  warn(`Warning: ${dir} was open to others (mode ${mode.toString(8).padStart(4, '0')}); it is now 0700.`);
}

export function readJson<T>(path: string, fallback: T): T {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
    throw error;
  }
}

export function profileStore(env: Env) {
  const path = join(configDir(env), 'config.json');
  const read = () => readJson<ProfileFile>(path, { profiles: {} });
  return {
    path,
    read,
    save(name: string, profile: Profile) {
      const file = read();
      file.profiles[name] = profile;
      file.current = name;
      writePrivateFile(path, `${JSON.stringify(file, null, 2)}\n`);
    },
    use(name: string) {
      const file = read();
      if (!file.profiles[name]) throw new CliFailure(EXIT.usage, `No profile named "${name}" (see: lyceum profiles).`);
      file.current = name;
      writePrivateFile(path, `${JSON.stringify(file, null, 2)}\n`);
    },
    /**
     * The profile a command runs with: --profile, else LYCEUM_PROFILE, else the one signed in to last. A name that is
     * a base URL picks that school's default profile.
     */
    resolve(explicit: string | undefined): { name: string; profile: Profile | undefined } | undefined {
      const file = read();
      const wanted = explicit ?? env.LYCEUM_PROFILE ?? file.current;
      if (!wanted) return undefined;
      if (file.profiles[wanted]) return { name: wanted, profile: file.profiles[wanted] };
      if (/^https?:\/\//.test(wanted)) {
        const name = defaultProfileName(wanted);
        return { name, profile: file.profiles[name] };
      }
      return { name: wanted, profile: undefined };
    },
  };
}

export type ProfileStore = ReturnType<typeof profileStore>;
