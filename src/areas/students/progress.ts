import { newId } from '../../db/ids.ts';
import type { WriteContext } from '../../db/request-writes.ts';
import type { Db, EnrollmentsTable, Executor, QuizAttemptsTable } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { Clock } from '../../time/clock.ts';
import type { CertificatesService } from '../certificates/service.ts';
import type { QuizAttempt, QuizSubmission } from '../curriculum/schema.ts';
import type { CurriculumService } from '../curriculum/service.ts';
import { type EnrollmentRules, givesAccess } from './enrollments.ts';
import type { Progress } from './schema.ts';
import type { StudentsStore } from './store.ts';

/** Whole percent, rounded down: 100 only when every counted lesson is complete. */
const percentOf = (done: number, total: number) => (total === 0 ? 0 : Math.floor((done * 100) / total));

type StudentRef = { id: string; role: string };

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
  writes: WriteContext;
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
    const lessons = (await deps.curriculum.countedLessons(ex, courseId)).map((lesson) => ({
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

  /** The lesson as the student may open it, or why not (404 unseen, 409 not enrolled or drip-locked). */
  async function openLesson(student: StudentRef, lessonId: string) {
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
    if (!access.enrolled) throw notEnrolled();
    if (access.lesson.locked)
      throw errors.conflict(`This lesson opens at ${access.lesson.available_at}; it can be completed from then on.`);
    return access;
  }

  /** Runs `fn` under the enrollment's row lock, once the enrollment is found to give access now. */
  function underEnrollment<T>(
    userId: string,
    courseId: string,
    fn: (trx: Executor, row: EnrollmentsTable, at: string) => Promise<T>,
  ) {
    return db.transaction().execute(async (trx) => {
      // Under the enrollment's lock: a revoke cannot slip in, and two completions at once count each other.
      const row = await store.lockEnrollment(trx, userId, courseId);
      const at = now();
      if (!row || !givesAccess(row, at)) throw notEnrolled();
      return fn(trx, row, at);
    });
  }

  /** Records a completed lesson and what follows from it: the percent, and at 100 the enrollment and certificate. */
  async function record(trx: Executor, row: EnrollmentsTable, lessonId: string, at: string): Promise<Progress> {
    await store.insertProgress(trx, {
      user_id: row.user_id,
      lesson_id: lessonId,
      course_id: row.course_id,
      completed_at: at,
    });
    const progress = await progressOf(trx, row.user_id, row.course_id);
    const changes: Partial<EnrollmentsTable> = { progress_percent: progress.percent };
    if (progress.percent === 100 && row.status === 'active') {
      changes.status = 'completed';
      changes.completed_at = at;
    }
    await store.updateEnrollment(trx, row.id, changes);
    if (changes.status === 'completed') await deps.certificates.issue(trx, row.user_id, row.course_id);
    return changes.status ? { ...progress, enrollment_status: 'completed', completed_at: at } : progress;
  }

  const notEnrolled = () =>
    errors.conflict(
      'Only a student enrolled in the course (an active or completed enrollment, not expired) completes its lessons.',
    );

  const attemptOf = (
    row: Pick<
      QuizAttemptsTable,
      'id' | 'lesson_id' | 'user_id' | 'answers' | 'score_percent' | 'passed' | 'created_at'
    >,
    results: QuizAttempt['results'],
  ): QuizAttempt => ({
    id: row.id,
    lesson_id: row.lesson_id,
    user_id: row.user_id,
    answers: JSON.parse(row.answers) as number[][],
    score_percent: Number(row.score_percent),
    passed: Number(row.passed) === 1,
    results,
    created_at: row.created_at,
  });

  return {
    progressOf: (userId: string, courseId: string) => progressOf(db, userId, courseId),

    /**
     * The one rule of completing a lesson, for the student's own path and staff's alike. A quiz lesson is completed by
     * passing its quiz (submitQuiz), not by asking.
     */
    async complete(student: StudentRef, lessonId: string): Promise<Progress> {
      const { lesson } = await openLesson(student, lessonId);
      return underEnrollment(student.id, lesson.course_id, async (trx, row, at) => {
        if (lesson.type === 'quiz' && !(await store.hasPassingAttempt(trx, student.id, lessonId)))
          throw errors.conflict(
            `A quiz lesson is completed by passing its quiz: submit answers (POST /api/v1/account/lessons/${lessonId}/quiz-attempts).`,
          );
        return record(trx, row, lessonId, at);
      });
    },

    /**
     * Marks a quiz attempt and keeps it; a pass completes the lesson in the same transaction. Attempts are counted
     * under the enrollment's lock, so a quiz's attempt limit holds when answers arrive at once.
     */
    async submitQuiz(student: StudentRef, lessonId: string, submission: QuizSubmission) {
      const { lesson, quiz: stored } = await openLesson(student, lessonId);
      const quiz = lesson.type === 'quiz' ? stored : null;
      if (!quiz) throw errors.conflict('This lesson has no quiz to answer.');
      if (submission.answers.length !== quiz.questions.length) {
        throw errors.invalidRequest(
          `The quiz has ${quiz.questions.length} questions: send one list of picked choices for each, in order.`,
          [{ field: 'answers', code: 'length', message: `Needs ${quiz.questions.length} items.` }],
        );
      }
      return underEnrollment(student.id, lesson.course_id, async (trx, row, at) => {
        const made = await store.countAttempts(trx, student.id, lessonId);
        if (quiz.max_attempts && made >= quiz.max_attempts)
          throw errors.conflict(`All ${quiz.max_attempts} attempts at this quiz are used.`);
        const grade = deps.curriculum.gradeQuiz(quiz, submission);
        const attempt = {
          id: newId('qat'),
          lesson_id: lessonId,
          user_id: student.id,
          answers: JSON.stringify(submission.answers),
          score_percent: grade.score_percent,
          passed: grade.passed ? (1 as const) : (0 as const),
          created_at: at,
        };
        await store.insertAttempt(trx, attempt);
        const progress = grade.passed
          ? await record(trx, row, lessonId, at)
          : await progressOf(trx, student.id, row.course_id);
        const result = {
          attempt: attemptOf(attempt, grade.results),
          attempts_left: quiz.max_attempts ? quiz.max_attempts - made - 1 : null,
          progress,
        };
        // A retry with the same Idempotency-Key replays this answer instead of spending another attempt.
        await deps.writes.made(trx, result);
        return result;
      });
    },

    /** A person's attempts at a quiz, newest first, with what each got right. */
    async attempts(userId: string, lessonId: string): Promise<QuizAttempt[]> {
      const quiz = await deps.curriculum.storedQuiz(lessonId);
      const rows = await store.listAttempts(db, userId, lessonId);
      return rows.map((row) => {
        const answers = JSON.parse(row.answers) as number[][];
        return attemptOf(row, quiz ? deps.curriculum.gradeQuiz(quiz, { answers }).results : []);
      });
    },
  };
}

export type ProgressRules = ReturnType<typeof progressRules>;
