import type { Clock } from '../../db/clock.ts';
import type { Db, EnrollmentsTable, Executor } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { CertificatesService } from '../certificates/service.ts';
import type { CurriculumService } from '../curriculum/service.ts';
import type { EnrollmentRules } from './enrollments.ts';
import type { Progress } from './schema.ts';
import type { StudentsStore } from './store.ts';

/** Whole percent, rounded down: 100 only when every counted lesson is complete. */
const percentOf = (done: number, total: number) => (total === 0 ? 0 : Math.floor((done * 100) / total));

const opens = (row: Pick<EnrollmentsTable, 'status' | 'expires_at'>, now: string) =>
  (row.status === 'active' || row.status === 'completed') && (row.expires_at === null || row.expires_at > now);

/**
 * Progress through a course: the lessons that count are the published lessons of its published sections (each is
 * required); percent is the completed share of them, rounded down. Completing a lesson is open to a student the
 * curriculum area lets in (`lessonAccess`: the lesson and its section are published, the course is visible to them,
 * they hold an active or completed enrollment within its expiry, and drip has opened the lesson) — the same rule
 * whether the student completes it themselves or staff mark it for them. Completing the last counted lesson
 * completes the enrollment (status completed, completed_at) and issues its certificate in the same transaction;
 * enrollments.progress_percent is rewritten at each completion. Lessons published later lower the live percent but do
 * not reopen a completed enrollment.
 */
export function progressRules(deps: {
  db: Db;
  clock: Clock;
  store: StudentsStore;
  curriculum: CurriculumService;
  certificates: Pick<CertificatesService, 'issue'>;
  enrollments: EnrollmentRules;
}) {
  const { db, clock, store } = deps;
  const now = () => clock.now().toISOString();

  async function progressOf(ex: Executor, userId: string, courseId: string): Promise<Progress> {
    const enrollment = await deps.enrollments.read(ex, userId, courseId);
    const completed = new Map(
      (await store.completedLessons(ex, userId, courseId)).map((r) => [r.lesson_id, r.completed_at]),
    );
    const lessons = (await store.countedLessons(ex, courseId)).map((lesson) => ({
      id: lesson.id,
      section_id: lesson.section_id,
      title: lesson.title,
      completed_at: completed.get(lesson.id) ?? null,
    }));
    const done = lessons.filter((lesson) => lesson.completed_at !== null).length;
    return {
      student_id: userId,
      course_id: courseId,
      enrollment_status: enrollment.status,
      percent: percentOf(done, lessons.length),
      completed_lessons: done,
      total_lessons: lessons.length,
      next_lesson_id: lessons.find((lesson) => lesson.completed_at === null)?.id ?? null,
      completed_at: enrollment.completed_at,
      lessons,
    };
  }

  return {
    progressOf: (userId: string, courseId: string) => progressOf(db, userId, courseId),

    /** The one rule of completing a lesson, for the student's own path and staff's alike. */
    async complete(student: { id: string; role: string }, lessonId: string): Promise<Progress> {
      if (student.role !== 'student')
        throw errors.conflict('Only students complete lessons; staff and owners see every lesson without enrolling.');
      const principal: Principal = {
        kind: 'user',
        userId: student.id,
        role: 'student',
        clientId: 'lyceum',
        scopes: new Set(),
      };
      const access = await deps.curriculum.lessonAccess(principal, lessonId);
      if (!access) throw errors.notFound('lesson');
      const notEnrolled = () =>
        errors.conflict(
          'Only a student enrolled in the course (an active or completed enrollment, not expired) completes its lessons.',
        );
      if (!access.enrolled) throw notEnrolled();
      if (access.lesson.locked)
        throw errors.conflict(`This lesson opens at ${access.lesson.available_at}; it can be completed from then on.`);
      const courseId = access.lesson.course_id;
      return db.transaction().execute(async (trx) => {
        // Under the enrollment's lock: a revoke cannot slip in, and two completions at once count each other.
        const row = await store.lockEnrollment(trx, student.id, courseId);
        const at = now();
        if (!row || !opens(row, at)) throw notEnrolled();
        await store.insertProgress(trx, {
          user_id: student.id,
          lesson_id: lessonId,
          course_id: courseId,
          completed_at: at,
        });
        const progress = await progressOf(trx, student.id, courseId);
        const changes: Partial<EnrollmentsTable> = { progress_percent: progress.percent };
        if (progress.percent === 100 && row.status === 'active') {
          changes.status = 'completed';
          changes.completed_at = at;
        }
        await store.updateEnrollment(trx, row.id, changes);
        if (changes.status === 'completed') await deps.certificates.issue(trx, student.id, courseId);
        return changes.status ? progressOf(trx, student.id, courseId) : progress;
      });
    },
  };
}

export type ProgressRules = ReturnType<typeof progressRules>;
