import { join } from 'node:path';
import { storeOf, type TokenStore, type Tokens } from './credentials.ts';
import { CliFailure, EXIT } from './exit-codes.ts';
import { withLockFile } from './lock-file.ts';
import { OAuthError, refresh, type TokenResponse } from './oauth-client.ts';
import { configDir, type Env } from './paths.ts';
import type { Profile } from './profiles.ts';

/** Refresh this long before the access token runs out, so a request does not race its expiry. */
const EARLY_MS = 30_000;

export const tokensOf = (response: TokenResponse, now: number, previous?: Tokens): Tokens => ({
  access_token: response.access_token,
  refresh_token: response.refresh_token ?? previous?.refresh_token,
  expires_at: now + (response.expires_in ?? 3600) * 1000,
  scope: response.scope ?? previous?.scope ?? '',
});

export const loginCommand = (baseUrl: string, profileName: string, scope?: string) =>
  `lyceum login ${baseUrl}${profileName === new URL(baseUrl).host ? '' : ` --profile ${profileName}`}${scope ? ` --scope ${scope.split(/\s+/).join(',')}` : ''}`;

/** The lock file a profile's refreshes take turns on, beside config.json. */
export const refreshLockPath = (env: Env, name: string) =>
  join(configDir(env), `${name.replace(/[^\w.-]/g, '_')}.refresh.lock`);

/**
 * A signed-in profile's tokens: the access token to send, refreshed by itself when it is about to run out (or was
 * refused), the rotated refresh token stored at once. A refresh the server refuses (the grant was revoked or has
 * ended) forgets the tokens and asks for a new login.
 *
 * Refreshes of one profile take turns across processes (a lock file beside the config): the refresh token rotates, so
 * two runs sending the same one would have the school refuse the second (and end the grant as a replay). Inside the
 * lock the store is read again, and tokens another run has just rotated in are used instead of refreshing again.
 */
export async function openSession(env: Env, name: string, profile: Profile, now: () => number) {
  const store: TokenStore = await storeOf(profile.token_store, env);
  let tokens = await store.get(name);
  const lockPath = refreshLockPath(env, name);

  /** `refused`: the access token the API refused (a 401), which the stored one must differ from to be used. */
  async function renew(refused?: string): Promise<string | undefined> {
    if (!tokens?.refresh_token) return undefined;
    const mine = tokens;
    return withLockFile(lockPath, async () => {
      const stored = await store.get(name);
      if (!stored) {
        // Signed out (or in again elsewhere, then out) meanwhile: nothing to refresh.
        tokens = undefined;
        return undefined;
      }
      if (stored.refresh_token !== mine.refresh_token && stored.access_token !== refused) {
        tokens = stored;
        if (stored.expires_at - EARLY_MS > now() || refused !== undefined) return stored.access_token;
      }
      const sent = tokens?.refresh_token;
      if (!sent) return undefined;
      try {
        const response = await refresh(profile.endpoints.token, {
          refresh_token: sent,
          client_id: profile.client_id,
          resource: profile.base_url,
        });
        tokens = tokensOf(response, now(), tokens);
        await store.set(name, tokens);
        return tokens.access_token;
      } catch (error) {
        if (!(error instanceof OAuthError) || (error.error !== 'invalid_grant' && error.error !== 'invalid_client'))
          throw error;
        // A login that stored new tokens meanwhile keeps them: only the refused ones are forgotten.
        if ((await store.get(name))?.refresh_token === sent) await store.delete(name);
        tokens = undefined;
        throw new CliFailure(
          EXIT.auth,
          `Your login to ${profile.base_url} has ended (it was revoked or has expired): ${error.message}`,
          `Run: ${loginCommand(profile.base_url, name)}`,
        );
      }
    });
  }

  return {
    store,
    get tokens() {
      return tokens;
    },
    /** The access token to send now, or undefined when not signed in (the request goes anonymous). */
    async accessToken(): Promise<string | undefined> {
      if (!tokens) return undefined;
      if (tokens.expires_at - EARLY_MS > now()) return tokens.access_token;
      return renew();
    },
    /** After a 401 invalid_token: the token was refused before its time, so try one refresh. */
    renew: (refused: string) => renew(refused),
    async forget() {
      await store.delete(name);
      tokens = undefined;
    },
  };
}

export type Session = Awaited<ReturnType<typeof openSession>>;
