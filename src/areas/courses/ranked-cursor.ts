import { errors } from '../../http/errors.ts';
import type { RankedPosition } from './search-store.ts';
import { wordsKey } from './search-words.ts';

/**
 * A ranked search's cursor begins with this; the list without `q` takes ids, so neither list mistakes the other's
 * cursor for its own.
 */
const PREFIX = 'rank_';
const ID = /^crs_[0-9a-z]{26}$/;
/** A position's key: a number of SQLite's index, or a course id (search-store.ts `RankedPosition`). */
const KEY = /^(?:[0-9]{1,19}|crs_[0-9a-z]{26})$/;
const VERSION = 1;
const HEADER = 13;

/**
 * The cursor of a ranked page: version, score (float64), the words' fingerprint and the position's key, in base64url
 * — at most 63 characters, inside `starting_after`'s 64. The score is kept exactly, so the next page starts right
 * after the last result even when others share its score; a result deleted since still marks the place.
 */
export function rankedCursor(words: string[], at: RankedPosition): string {
  const bytes = Buffer.alloc(HEADER + at.key.length);
  bytes.writeUInt8(VERSION, 0);
  bytes.writeDoubleBE(at.score, 1);
  wordsKey(words).copy(bytes, 9);
  bytes.write(at.key, HEADER, 'latin1');
  return `${PREFIX}${bytes.toString('base64url')}`;
}

export const isRankedCursor = (cursor: string) => cursor.startsWith(PREFIX);

const refuse = (description: string, message: string) =>
  errors.invalidRequest(description, [{ field: 'starting_after', code: 'format', message }]);

/** The list without `q` was handed a ranked search's cursor. */
export const rankedCursorWithoutSearch = () =>
  refuse(
    'starting_after is a cursor of a search (q=); pass it with the same q, or page the list without q by its own next_cursor.',
    'Use the next_cursor of the previous page of this list.',
  );

/**
 * The position a ranked search's cursor names, or a 400 naming `starting_after`: a course id (the list without `q`
 * pages by those), a cursor of a search for other words, or anything else that is not a cursor this search made.
 */
export function readRankedCursor(words: string[], cursor: string): RankedPosition {
  if (ID.test(cursor)) {
    throw refuse(
      'starting_after is an id, the cursor of the list without q; a search (q=) pages by the next_cursor of its own previous page.',
      'Use the next_cursor of the previous page of this search.',
    );
  }
  const bytes = isRankedCursor(cursor) ? Buffer.from(cursor.slice(PREFIX.length), 'base64url') : Buffer.alloc(0);
  const key = bytes.subarray(HEADER).toString('latin1');
  if (
    bytes.length <= HEADER ||
    bytes.readUInt8(0) !== VERSION ||
    !KEY.test(key) ||
    Number.isNaN(bytes.readDoubleBE(1))
  ) {
    throw refuse(
      'starting_after must be the next_cursor of a previous page of this search.',
      'Use the next_cursor of the previous page of this search.',
    );
  }
  if (!bytes.subarray(9, 13).equals(wordsKey(words))) {
    throw refuse(
      'starting_after is a cursor of a search for other words; with a new q, start again without starting_after.',
      'This cursor belongs to a search for other words.',
    );
  }
  return { score: bytes.readDoubleBE(1), key };
}
