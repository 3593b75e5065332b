import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The addresses assets are served at. Public assets (images: covers, avatars, logos) have one stable address each;
 * lesson media get an address signed with a server secret (HMAC-SHA256 over the asset id and the expiry) that works
 * until it expires, for whoever holds it — so it is handed only to callers entitled to the lesson.
 */
export function mediaUrls(deps: { baseUrl: string; key: string; ttlSeconds: number }) {
  const sign = (id: string, expires: number) =>
    createHmac('sha256', deps.key).update(`${id}\n${expires}`).digest('base64url');
  const path = (id: string) => `${deps.baseUrl}/media/${id}`;
  const base = deps.baseUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const own = new RegExp(`^(?:${base})?/media/(ast_[0-9a-z]{26})$`);
  return {
    publicUrl: path,
    /** The asset whose public address `url` is (absolute, or from the root), else undefined. */
    assetOf: (url: string) => own.exec(url)?.[1],
    signedUrl(id: string, now: Date) {
      const expires = Math.floor(now.getTime() / 1000) + deps.ttlSeconds;
      return {
        url: `${path(id)}?expires=${expires}&signature=${sign(id, expires)}`,
        expiresAt: new Date(expires * 1000).toISOString(),
      };
    },
    /** Whether a signed address is genuine, and if so whether it is still valid at `now`. */
    check(id: string, expires: string, signature: string, now: Date): 'valid' | 'expired' | 'forged' {
      if (!/^\d{1,12}$/.test(expires)) return 'forged';
      const expected = Buffer.from(sign(id, Number(expires)));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'forged';
      return Number(expires) * 1000 > now.getTime() ? 'valid' : 'expired';
    },
  };
}

export type MediaUrls = ReturnType<typeof mediaUrls>;
