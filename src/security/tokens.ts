import { createHash, randomBytes } from 'node:crypto';

/** A random secret for URLs and cookies: 32 bytes, base64url. */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

/** What is stored of a bearer secret: its SHA-256, so a database read does not yield usable secrets. */
export const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
