import { join } from 'node:path';
import { CliFailure, EXIT } from './exit-codes.ts';
import { configDir, type Env } from './paths.ts';
import { readJson, writePrivateFile } from './profiles.ts';

/** What a login leaves behind for a profile. */
export type Tokens = {
  access_token: string;
  refresh_token?: string;
  /** Milliseconds since the epoch. */
  expires_at: number;
  scope: string;
};

export type TokenStore = {
  kind: 'keyring' | 'file';
  get(profile: string): Promise<Tokens | undefined>;
  set(profile: string, tokens: Tokens): Promise<void>;
  delete(profile: string): Promise<void>;
};

const SERVICE = 'lyceum';

/**
 * Where the keyring binding keeps entries. On Linux only the Secret Service (gnome-keyring, KWallet, KeePassXC):
 * the binding's silent fallback, the kernel keyring, is memory that a restart empties.
 */
export const KEYRING_OPTIONS =
  process.platform === 'linux' ? ({ linux: { store: 'secret-service' } } as const) : undefined;

/** The operating system's keyring (Secret Service, macOS Keychain, Windows Credential Manager), one entry a profile. */
export async function keyringStore(): Promise<TokenStore> {
  const { Entry } = await import('@napi-rs/keyring');
  const entry = (profile: string) => new Entry(SERVICE, profile, KEYRING_OPTIONS);
  return {
    kind: 'keyring',
    async get(profile) {
      const stored = entry(profile).getPassword();
      return stored ? (JSON.parse(stored) as Tokens) : undefined;
    },
    async set(profile, tokens) {
      entry(profile).setPassword(JSON.stringify(tokens));
    },
    async delete(profile) {
      entry(profile).deletePassword();
    },
  };
}

/** credentials.json beside config.json, readable by the user only (0600, in a 0700 folder). */
export function fileStore(env: Env): TokenStore & { path: string } {
  const path = join(configDir(env), 'credentials.json');
  const read = () => readJson<Record<string, Tokens>>(path, {});
  return {
    kind: 'file',
    path,
    async get(profile) {
      return read()[profile];
    },
    async set(profile, tokens) {
      writePrivateFile(path, `${JSON.stringify({ ...read(), [profile]: tokens }, null, 2)}\n`);
    },
    async delete(profile) {
      const { [profile]: _gone, ...rest } = read();
      writePrivateFile(path, `${JSON.stringify(rest, null, 2)}\n`);
    },
  };
}

/** The store a profile's tokens were put in. */
export const storeOf = (kind: 'keyring' | 'file', env: Env) => (kind === 'keyring' ? keyringStore() : fileStore(env));

/**
 * Where a new login keeps its tokens: the keyring when it answers (tried with a write and a read-back), else the file,
 * with a warning. LYCEUM_CREDENTIALS=file chooses the file without trying (no warning); =keyring refuses the fallback.
 */
export async function storeForLogin(env: Env, warn: (line: string) => void): Promise<TokenStore> {
  const file = fileStore(env);
  if (env.LYCEUM_CREDENTIALS === 'file') return file;
  let reason: string;
  try {
    const keyring = await keyringStore();
    const probe = { access_token: 'probe', expires_at: 0, scope: '' };
    await keyring.set('.probe', probe);
    const back = await keyring.get('.probe');
    await keyring.delete('.probe');
    if (back?.access_token === 'probe') return keyring;
    reason = 'it did not give back what was stored';
  } catch (error) {
    reason = (error as Error).message;
  }
  if (env.LYCEUM_CREDENTIALS === 'keyring')
    throw new CliFailure(
      EXIT.auth,
      `The system keyring cannot be used (${reason}); LYCEUM_CREDENTIALS=keyring allows no file.`,
    );
  warn(`Warning: the system keyring is not available (${reason}).`);
  warn(`Tokens are stored in ${file.path}, readable only by you.`);
  return file;
}
