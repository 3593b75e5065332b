import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

function base32(value: number, length: number): string {
  let out = '';
  let v = value;
  for (let i = 0; i < length; i++) {
    out = ALPHABET[v % 32] + out;
    v = Math.floor(v / 32);
  }
  return out;
}

/** Ids made in the same millisecond by this process carry an increasing counter, so they still sort in creation order. */
const sequence = { time: -1, counter: 0 };

/**
 * Opaque prefixed ids (`usr_…`, `crs_…`): 10 characters of creation time in milliseconds, 4 of a per-millisecond
 * counter, 12 random. Ids sort by creation, so they serve as pagination cursors.
 */
export function newId(prefix: string, now = Date.now()): string {
  if (now === sequence.time) sequence.counter += 1;
  else {
    sequence.time = now;
    sequence.counter = 0;
  }
  let random = '';
  for (const byte of randomBytes(12)) random += ALPHABET[byte & 31];
  return `${prefix}_${base32(now, 10)}${base32(sequence.counter, 4)}${random}`;
}
