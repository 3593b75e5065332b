/** The rows of an editor (a quiz's questions, the menu's links) after a Move up, Move down or Remove button. */

/** The rows with `a` and `b` swapped; unchanged when either is outside them (Move up on the first row). */
export const swapped = <T>(items: readonly T[], a: number, b: number): T[] => {
  if (a < 0 || b < 0 || a >= items.length || b >= items.length) return [...items];
  const next = [...items];
  [next[a], next[b]] = [next[b] as T, next[a] as T];
  return next;
};

/** The rows without the one at `at`. */
export const without = <T>(items: readonly T[], at: number): T[] => items.filter((_, i) => i !== at);
