import type { CoursesTable, Executor } from '../../db/tables.ts';

/**
 * What students need of the courses area beyond its service: the courses an enrollment is in (shown by title and
 * link, and open to new enrollments by status), many at once, read in the caller's transaction.
 */
export type CourseFactsPort = {
  facts(ex: Executor, ids: string[]): Promise<Pick<CoursesTable, 'id' | 'title' | 'slug' | 'status'>[]>;
};
