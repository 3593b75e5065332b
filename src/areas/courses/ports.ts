import type { Executor } from '../../db/tables.ts';

/**
 * What courses need of the students area's enrollments: who is enrolled where (a student sees those courses) and
 * where the latest enrollments went (the popular courses). The composition root (areas/index.ts) hands them in.
 */
export type EnrollmentsPort = {
  /** Ids of the courses `userId` is enrolled in now (active or completed, not past its expiry); or only `courseId`. */
  enrolledCourseIds(ex: Executor, userId: string, now: string, courseId?: string): Promise<string[]>;
  /** The courses most of the latest `window` enrollments giving access went to, with how many, most first. */
  enrollmentLeaders(
    ex: Executor,
    now: string,
    limit: number,
    window: number,
  ): Promise<{ courseId: string; enrollments: number }[]>;
};

/**
 * What publishing a course needs of its curriculum (the curriculum area's publishing.ts), asked in the publishing
 * transaction after the course's lock: whether there is a lesson to learn, and its drafts published with it.
 */
export type ContentsPort = {
  /** The lessons a student would see: published lessons of published sections. */
  publishedLessonCount(ex: Executor, courseId: string): Promise<number>;
  /** Publishes every draft section and lesson, or refuses (invalid_request, a field per lesson with no content). */
  publishDrafts(trx: Executor, courseId: string, at: string): Promise<void>;
};
