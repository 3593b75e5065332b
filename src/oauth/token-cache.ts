import type { TokenPrincipal } from '../security/token-principal.ts';
import { sha256 } from '../security/tokens.ts';

/**
 * Validated access tokens, kept for a few seconds so the API does not look every request's token up. Bounds: an entry
 * lives at most `ttlMs` (and never past the token's own expiry); every revocation on this instance (app revoked,
 * token revoked, grant ended by a replay) clears the whole cache, so it takes effect at once here, and within
 * `ttlMs` on other instances. Keys are SHA-256 hashes, so raw tokens are not kept in memory.
 */
export function tokenCache(options: {
  ttlMs: number;
  maxEntries?: number;
  now?: () => number;
  /** Told of each lookup's result (the metrics' hit rate). */
  onLookup?: (hit: boolean) => void;
}) {
  const told = options.onLookup ?? (() => {});
  const now = options.now ?? Date.now;
  const max = options.maxEntries ?? 10_000;
  const entries = new Map<string, { principal: TokenPrincipal; until: number }>();
  return {
    enabled: options.ttlMs > 0,
    get(token: string): TokenPrincipal | undefined {
      if (options.ttlMs <= 0) return undefined;
      const key = sha256(token);
      const entry = entries.get(key);
      if (entry && entry.until <= now()) entries.delete(key);
      const hit = entry !== undefined && entry.until > now();
      told(hit);
      return hit ? entry.principal : undefined;
    },
    set(token: string, principal: TokenPrincipal) {
      if (options.ttlMs <= 0) return;
      if (entries.size >= max) entries.clear();
      entries.set(sha256(token), { principal, until: Math.min(now() + options.ttlMs, principal.expiresAt * 1000) });
    },
    clear() {
      entries.clear();
    },
  };
}

export type TokenCache = ReturnType<typeof tokenCache>;
