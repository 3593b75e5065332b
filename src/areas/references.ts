import type { Executor } from '../db/tables.ts';

/** What another area's object an input may point at: a coupon at the courses, plans and products it applies to, … */
export type ReferenceKind = 'course' | 'plan' | 'product' | 'lecturer' | 'user' | 'page';

/**
 * Which of `ids` exist, asked of the area that owns each kind (filled at the composition root, areas/index.ts), so an
 * area checks the references in its input without reading another area's tables.
 */
export type References = { existing(ex: Executor, kind: ReferenceKind, ids: string[]): Promise<Set<string>> };

/** The references port from each owner's way of telling which of some ids exist. */
export function references(
  owners: Record<ReferenceKind, (ex: Executor, ids: string[]) => Promise<string[]>>,
): References {
  return {
    async existing(ex, kind, ids) {
      return new Set(ids.length === 0 ? [] : await owners[kind](ex, ids));
    },
  };
}
