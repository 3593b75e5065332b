import type Provider from 'oidc-provider';
import type { JWK } from 'oidc-provider';
import type { Db } from '../db/tables.ts';
import type { Clock } from '../time/clock.ts';
import { loadSigningKeys, rotateSigningKeys } from './keys.ts';

/** How often an instance looks at the stored keys: the same minute its JWKS may lag behind them. */
const LOOK_EVERY_MS = 60_000;

/**
 * The authorization server as it signs now. oidc-provider takes its keys when it is made, so every minute each
 * instance looks at the stored keys: with automatic rotation on (`rotateEveryDays` > 0) it first takes the rotation's
 * next step when one is due (two instances at once cannot both change the keys: the loser's write is refused, and it
 * tries again next minute); then, when the keys differ from those its provider holds, it makes a new provider with
 * them. A newly promoted key signs on every instance within a minute, without a restart, and it was published a
 * quarter of an hour before (oauth/keys.ts), so every client already holds it.
 */
export function signingKeyKeeper(deps: {
  db: Db;
  clock: Clock;
  /** The keys as loaded at start, the signing one first. */
  keys: JWK[];
  make: (keys: JWK[]) => Provider;
  rotateEveryDays: number;
  log: (message: string, fields: Record<string, unknown>) => void;
}) {
  const kidsOf = (keys: JWK[]) => keys.map((k) => k.kid).join(' ');
  let provider = deps.make(deps.keys);
  let held = kidsOf(deps.keys);

  /** One look: a rotation step if automatic rotation is on, then the provider made anew if the keys changed. */
  async function look() {
    if (deps.rotateEveryDays > 0) {
      const step = await rotateSigningKeys(deps.db, deps.clock, { everyMs: deps.rotateEveryDays * 86_400_000 }).catch(
        (error: unknown) => ({ did: 'failed' as const, error }),
      );
      if (step.did === 'published' || step.did === 'promoted') deps.log('signing key rotation', { ...step });
    }
    const keys = await loadSigningKeys(deps.db, deps.clock);
    if (kidsOf(keys) === held) return false;
    const signedWith = held.split(' ')[0];
    provider = deps.make(keys);
    held = kidsOf(keys);
    if (keys[0]?.kid !== signedWith) deps.log('signing with the current key', { kid: keys[0]?.kid });
    return true;
  }

  const timer = setInterval(() => void look().catch(() => undefined), LOOK_EVERY_MS);
  timer.unref();
  return {
    /** The provider to hand each request to. */
    provider: () => provider,
    look,
    stop: () => clearInterval(timer),
  };
}

export type SigningKeyKeeper = ReturnType<typeof signingKeyKeeper>;
