import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonWords } from '@zxcvbn-ts/language-common';
import { dictionary as englishWords, translations } from '@zxcvbn-ts/language-en';

/**
 * zxcvbn's score: 3 means "safely unguessable" against an attacker who has the hashes and tries 10^10 guesses; below
 * it are the common passwords, keyboard walks, dates, names and their l33t variants that guessing tools try first.
 */
const ENOUGH = 3;

// The dictionaries are large: built on the first password judged, not when a process that never sees one starts.
let estimator: ZxcvbnFactory | undefined;
const estimate = (password: string, related: string[]) => {
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...commonWords, ...englishWords },
    graphs: adjacencyGraphs,
    translations,
  });
  return estimator.check(password, related);
};

/**
 * Why a new password would be guessed quickly, in words for the person choosing it, or undefined when it is strong
 * enough. `related` are the person's own words (name, e-mail, the school's name), which a guesser tries too.
 */
export function passwordWeakness(password: string, related: string[] = []): string | undefined {
  const words = related
    .map((text) => text.toLowerCase())
    .flatMap((text) => [text, ...text.split(/[^\p{L}\p{N}]+/u)])
    .filter((w) => w.length > 2);
  const result = estimate(password, words);
  if (result.score >= ENOUGH) return undefined;
  const why = result.feedback.warning ?? 'It would be one of the first guesses an attacker tries.';
  return `This password is too easy to guess. ${why} Choose a longer one: a few unrelated words that only you would put together are easy to remember and hard to guess.`;
}
