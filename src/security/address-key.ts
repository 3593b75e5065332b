import { createHmac } from 'node:crypto';

/**
 * A client address as a keyed hash (HMAC-SHA-256 with a server secret), for rate-limit counters that must not hold
 * the address itself: without the key the few billion IPv4 addresses cannot be tried one by one to undo it.
 */
export const addressKeyer = (secret: string) => (address: string) =>
  createHmac('sha256', secret).update(address).digest('base64url').slice(0, 22);
