import type { Db, Executor } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import type { Clock } from '../../time/clock.ts';
import type { CoursesService } from '../courses/service.ts';

/** Sections and lessons are listed whole (at most 100 per parent), in the list shape every area answers. */
export const wholeList = <T>(data: T[]) => ({ data, has_more: false, next_cursor: null });

/**
 * Positions: dense (0..n-1) per course and per section, and every change of them runs in one transaction holding the
 * course's curriculum lock, so two writes of one course's order never interleave.
 */
export function curriculumOrdering(deps: { db: Db; clock: Clock; courses: Pick<CoursesService, 'lock'> }) {
  const { db, clock } = deps;
  const now = () => clock.now().toISOString();

  /** The place to insert at among `count` items: the end when absent, else 0..count. */
  function placeAt(position: number | undefined, count: number) {
    if (position === undefined) return count;
    if (position > count) {
      throw errors.invalidRequest(`position: must be between 0 and ${count} here; omit it to add at the end.`, [
        { field: 'position', code: 'maximum', message: `At most ${count}.` },
      ]);
    }
    return position;
  }

  /** Runs `fn` in a transaction that holds the course's curriculum lock. */
  const inCourse = <T>(courseId: string, fn: (trx: Executor) => Promise<T>) =>
    db.transaction().execute(async (trx) => {
      await deps.courses.lock(trx, courseId);
      return fn(trx);
    });

  /** Checks that `ids` names every item of `current` exactly once. */
  function checkPermutation(field: string, what: string, ids: string[], current: string[]) {
    const known = new Set(current);
    const given = new Set(ids);
    const missing = current.filter((id) => !given.has(id));
    const unknown = ids.filter((id) => !known.has(id));
    if (missing.length || unknown.length) {
      const parts = [
        missing.length ? `missing ${missing.join(', ')}` : '',
        unknown.length ? `not in this ${what} ${unknown.join(', ')}` : '',
      ].filter(Boolean);
      const message =
        `${field} must list every one of the ${current.length} items of this ${what} exactly once ` +
        `(${parts.join('; ')}).`;
      throw errors.invalidRequest(`${field}: ${message}`, [{ field, code: 'permutation', message }]);
    }
  }

  /**
   * Puts `rows` (every item of one course or section) in the order of `ids`, which must name each exactly once, and
   * writes only the positions that change.
   */
  async function reorder<R extends { id: string; position: number; updated_at: string }>(
    trx: Executor,
    field: string,
    what: string,
    rows: R[],
    ids: string[],
    setPosition: (ex: Executor, id: string, position: number, at: string) => Promise<void>,
  ): Promise<R[]> {
    checkPermutation(
      field,
      what,
      ids,
      rows.map((r) => r.id),
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    const at = now();
    const ordered: R[] = [];
    for (const [position, id] of ids.entries()) {
      const row = byId.get(id) as R;
      if (Number(row.position) === position) {
        ordered.push(row);
      } else {
        await setPosition(trx, id, position, at);
        ordered.push({ ...row, position, updated_at: at });
      }
    }
    return ordered;
  }

  /** A course's id from one of its rows, read before taking the course lock (a row never changes course). */
  async function courseOf(find: (ex: Executor, id: string) => Promise<{ course_id: string } | undefined>, id: string) {
    return (await find(db, id))?.course_id;
  }

  return { placeAt, inCourse, reorder, courseOf };
}

export type CurriculumOrdering = ReturnType<typeof curriculumOrdering>;
