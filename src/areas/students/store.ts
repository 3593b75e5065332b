import { type Insertable, sql, type Updateable } from 'kysely';
import type {
  EnrollmentsTable,
  Executor,
  LessonProgressTable,
  QuizAttemptsTable,
  UsersTable,
} from '../../db/tables.ts';
import { containsText } from '../../db/text-match.ts';

type EnrollmentState = EnrollmentsTable['status'];

/**
 * The one rule of an enrollment's state as shown: an active enrollment whose expires_at has passed is `expired`;
 * every other row shows its stored state. Written once, in SQL, so the rows shown and the status filter agree.
 */
const effectiveStatus = (now: string) =>
  sql<EnrollmentState>`case when ${sql.ref('enrollments.status')} = 'active' and ${sql.ref('enrollments.expires_at')} is not null and ${sql.ref('enrollments.expires_at')} <= ${now} then 'expired' else ${sql.ref('enrollments.status')} end`;

const STUDENT_COLUMNS = ['id', 'email', 'name', 'status', 'role', 'created_at', 'updated_at'] as const;

export function studentsStore() {
  return {
    /** Users of role student (whatever their enrollments), the rows of the student list. */
    studentsQuery: (ex: Executor) => ex.selectFrom('users').select(STUDENT_COLUMNS).where('role', '=', 'student'),

    /** Narrows a student query to those holding an enrollment (of `courseId`, in `status` as shown). */
    holdingEnrollment: (filter: { courseId?: string; status?: EnrollmentState }, now: string) =>
      sql<boolean>`exists (select 1 from enrollments where enrollments.user_id = users.id${
        filter.courseId ? sql` and enrollments.course_id = ${filter.courseId}` : sql``
      }${filter.status ? sql` and ${effectiveStatus(now)} = ${filter.status}` : sql``})`,

    /** Name or email contains `text` (a scan: the student list is small beside the catalog). */
    nameOrEmail: (text: string) => sql<boolean>`(${containsText('name', text)} or ${containsText('email', text)})`,

    findUser: (ex: Executor, id: string) =>
      ex.selectFrom('users').select(STUDENT_COLUMNS).where('id', '=', id).executeTakeFirst(),

    findUserByEmail: (ex: Executor, email: string) =>
      ex.selectFrom('users').select(STUDENT_COLUMNS).where('email', '=', email).executeTakeFirst(),

    insertUser: async (ex: Executor, row: Insertable<UsersTable>) => {
      await ex.insertInto('users').values(row).execute();
    },

    updateUser: async (ex: Executor, id: string, changes: Updateable<UsersTable>) => {
      await ex.updateTable('users').set(changes).where('id', '=', id).execute();
    },

    /** Sets a student's status while they are a student; returns the row as written, or undefined. */
    setStatus: (ex: Executor, id: string, status: UsersTable['status'], at: string) =>
      ex
        .updateTable('users')
        .set({ status, updated_at: at })
        .where('id', '=', id)
        .where('role', '=', 'student')
        .returning(STUDENT_COLUMNS)
        .executeTakeFirst(),

    deleteSessions: async (ex: Executor, userId: string) => {
      await ex.deleteFrom('sessions').where('user_id', '=', userId).execute();
    },

    /** A person's enrollments with their state as shown. */
    enrollmentsQuery: (ex: Executor, userId: string, now: string) =>
      ex
        .selectFrom('enrollments')
        .selectAll('enrollments')
        .select(effectiveStatus(now).as('effective_status'))
        .where('enrollments.user_id', '=', userId),

    effectiveStatusIs: (now: string, status: EnrollmentState) => sql<boolean>`${effectiveStatus(now)} = ${status}`,

    /**
     * Takes the enrollment's row lock (a no-op update; SQLite runs one writer at a time) and returns the row, so
     * what is decided on it — re-enrolling, completing — holds until the transaction ends.
     */
    lockEnrollment: (ex: Executor, userId: string, courseId: string) =>
      ex
        .updateTable('enrollments')
        .set((eb) => ({ status: eb.ref('status') }))
        .where('user_id', '=', userId)
        .where('course_id', '=', courseId)
        .returningAll()
        .executeTakeFirst(),

    findEnrollment: (ex: Executor, userId: string, courseId: string) =>
      ex
        .selectFrom('enrollments')
        .selectAll()
        .where('user_id', '=', userId)
        .where('course_id', '=', courseId)
        .executeTakeFirst(),

    /** Inserts an enrollment unless the person already has one for the course; returns whether it did. */
    insertEnrollment: async (ex: Executor, row: EnrollmentsTable) => {
      const result = await ex
        .insertInto('enrollments')
        .values(row)
        .onConflict((oc) => oc.columns(['course_id', 'user_id']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    updateEnrollment: async (ex: Executor, id: string, changes: Partial<EnrollmentsTable>) => {
      await ex.updateTable('enrollments').set(changes).where('id', '=', id).execute();
    },

    completedLessons: (ex: Executor, userId: string, courseId: string) =>
      ex
        .selectFrom('lesson_progress')
        .select(['lesson_id', 'completed_at'])
        .where('user_id', '=', userId)
        .where('course_id', '=', courseId)
        .execute(),

    hasPassingAttempt: async (ex: Executor, userId: string, lessonId: string) =>
      (await ex
        .selectFrom('quiz_attempts')
        .select('id')
        .where('user_id', '=', userId)
        .where('lesson_id', '=', lessonId)
        .where('passed', '=', 1)
        .executeTakeFirst()) !== undefined,

    countAttempts: async (ex: Executor, userId: string, lessonId: string) =>
      Number(
        (
          await ex
            .selectFrom('quiz_attempts')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('user_id', '=', userId)
            .where('lesson_id', '=', lessonId)
            .executeTakeFirstOrThrow()
        ).n,
      ),

    insertAttempt: async (ex: Executor, row: QuizAttemptsTable) => {
      await ex.insertInto('quiz_attempts').values(row).execute();
    },

    /** A person's attempts at one quiz, newest first (a quiz allows at most 100, so no cursor). */
    listAttempts: (ex: Executor, userId: string, lessonId: string) =>
      ex
        .selectFrom('quiz_attempts')
        .selectAll()
        .where('user_id', '=', userId)
        .where('lesson_id', '=', lessonId)
        .orderBy('id', 'desc')
        .limit(100)
        .execute(),

    /** Records a completion; a lesson completed before keeps its first time. */
    insertProgress: async (ex: Executor, row: LessonProgressTable) => {
      await ex
        .insertInto('lesson_progress')
        .values(row)
        .onConflict((oc) => oc.columns(['user_id', 'lesson_id']).doNothing())
        .execute();
    },
  };
}

export type StudentsStore = ReturnType<typeof studentsStore>;
