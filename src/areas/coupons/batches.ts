import { randomBytes } from 'node:crypto';
import type { Insertable } from 'kysely';
import { newId } from '../../db/ids.ts';
import type { CouponsTable, Executor } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import { BULK_CODE_LENGTH } from './schema.ts';
import type { CouponsStore } from './store.ts';

/** 32 characters that cannot be mistaken for each other when read aloud or typed: no 0/O, no 1/I. */
const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
/** Rows per INSERT: well under either engine's limit of bound parameters. */
const CHUNK = 200;
/** Rounds of drawing new codes for the ones that were taken; at 32^8 codes a second round is already rare. */
const ROUNDS = 10;

/** `PREFIX-` and BULK_CODE_LENGTH random characters (a byte & 31 is uniform over the 32 characters). */
export const randomCode = (prefix: string) => {
  let random = '';
  for (const byte of randomBytes(BULK_CODE_LENGTH)) random += ALPHABET[byte & 31];
  return `${prefix}-${random}`;
};

/**
 * Inserts `count` coupons with fresh codes from `nextCode`, built by `row(id, code)`, in the caller's transaction.
 * A code already taken (by an older coupon, or drawn twice) is skipped by the insert itself and drawn again, so the
 * batch ends with exactly `count` unique codes, or fails whole. Returns the codes.
 */
export async function insertBatch(
  trx: Executor,
  store: CouponsStore,
  count: number,
  nextCode: () => string,
  row: (id: string, code: string) => Insertable<CouponsTable>,
): Promise<string[]> {
  const made: string[] = [];
  for (let round = 0; round < ROUNDS && made.length < count; round++) {
    const drawn = new Set<string>();
    const wanted = count - made.length;
    for (let draws = 0; drawn.size < wanted && draws < wanted * 4; draws++) drawn.add(nextCode());
    const rows = [...drawn].map((code) => row(newId('cpn'), code));
    for (let i = 0; i < rows.length; i += CHUNK) made.push(...(await store.insertFree(trx, rows.slice(i, i + CHUNK))));
  }
  if (made.length < count) {
    throw errors.conflict('Not enough free codes could be found with this prefix; choose a longer or another prefix.');
  }
  return made;
}
