import { createHash } from 'node:crypto';

/** More words than anyone types into a search box; the rest of a longer text is not searched. */
const MOST_WORDS = 12;

/**
 * Small words left out of a search that has others, so "history of art" finds a course that says "art history". Both
 * engines keep them in their indexes, so a search of small words alone ("the") still finds what has them.
 */
const SMALL_WORDS = new Set(
  'a an and are as at be by for from how in into is it its of on or that the this to with you your'.split(' '),
);

/**
 * The words of a `q=` text, as both engines' indexes cut text into words: runs of letters, digits and their marks,
 * everything else a separator (so quotes, `%`, `*`, `OR` and `-` are plain text, never search operators), lower-cased.
 * A course is found when it has every word, in any form English inflects it to ("watercolours" for "watercolour").
 */
export function searchWords(text: string): string[] {
  const words = [
    ...new Set(
      text
        .normalize('NFKC')
        .toLowerCase()
        .match(/[\p{L}\p{N}\p{M}]+/gu) ?? [],
    ),
  ];
  const big = words.filter((word) => !SMALL_WORDS.has(word));
  return (big.length ? big : words).slice(0, MOST_WORDS);
}

/** A short fingerprint of a search's words (in any order), so a ranked cursor is refused by a search for others. */
export const wordsKey = (words: string[]) =>
  createHash('sha256')
    .update([...words].sort().join(' '))
    .digest()
    .subarray(0, 4);
