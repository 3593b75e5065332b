import type { CoursesTable, EnrollmentsTable, Executor } from '../../db/tables.ts';

/**
 * What the curriculum needs of the areas around it; the composition root (areas/index.ts) hands in the owners'
 * implementations.
 */

/** The courses area's rows, which its visibility rule (courses.visibleTo) is asked about. */
export type CourseRowsPort = {
  findById(ex: Executor, id: string): Promise<CoursesTable | undefined>;
  findByIdOrSlug(ex: Executor, key: string): Promise<CoursesTable | undefined>;
};

/** The students area's enrollments: the one giving the caller access to a course decides drip. */
export type EnrollmentPort = {
  /** The person's active or completed enrollment in the course, if any (its expiry is checked by the caller). */
  accessEnrollment(
    ex: Executor,
    courseId: string,
    userId: string,
  ): Promise<Pick<EnrollmentsTable, 'enrolled_at' | 'expires_at'> | undefined>;
};
