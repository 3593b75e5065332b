import { newId } from '../../db/ids.ts';
import type { CoursesTable, Db, EnrollmentsTable, Executor } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import type { Clock } from '../../time/clock.ts';
import { paginate } from '../pagination.ts';
import type { StudentMail } from './mail.ts';
import type { CourseFactsPort } from './ports.ts';
import type { Enrollment, EnrollmentListQuery, EnrollmentStatus } from './schema.ts';
import type { StudentsStore } from './store.ts';

type EnrollmentRow = EnrollmentsTable & { effective_status: string };
type Person = { id: string; email: string; name: string };
type CourseRow = Pick<CoursesTable, 'id' | 'title' | 'slug' | 'status'>;

const toEnrollment = (row: EnrollmentRow, course: Pick<CourseRow, 'title' | 'slug'>): Enrollment => ({
  id: row.id,
  student_id: row.user_id,
  course_id: row.course_id,
  course_title: course.title,
  course_slug: course.slug,
  source: row.source,
  status: row.effective_status as EnrollmentStatus,
  enrolled_at: row.enrolled_at,
  expires_at: row.expires_at,
  completed_at: row.completed_at,
  progress_percent: Number(row.progress_percent),
});

/** Whether an enrollment opens its course now: active or completed, and not past its expiry. */
export const givesAccess = (row: Pick<EnrollmentsTable, 'status' | 'expires_at'>, now: string) =>
  (row.status === 'active' || row.status === 'completed') && (row.expires_at === null || row.expires_at > now);

/** Whether an access ending at `a` lasts longer than one ending at `b` (null: no end). */
const outlasts = (a: string | null, b: string | null) => b !== null && (a === null || a > b);

/**
 * Why a course takes no new enrollment, if it does not: a draft is not ready to be studied, and an archived course
 * is closed to newcomers (the people enrolled keep their access). `enrollment_open` is the storefront's switch for
 * self-enrollment; staff enroll people whatever it says.
 */
export function closedCourse(course: CourseRow): string | undefined {
  if (course.status === 'draft')
    return `The course “${course.title}” is a draft; publish it first (POST /api/v1/courses/${course.id}/publish).`;
  if (course.status === 'archived') return `The course “${course.title}” is archived and takes no new enrollments.`;
  return undefined;
}

/**
 * Enrollments of one person in one course each (a unique index). States: active → completed / expired / revoked;
 * `expired` is derived from expires_at and the clock (store.ts), so no job has to flip it and the access rules, which
 * compare expires_at too, agree with it. Unenrolling revokes (the row stays as history, with its progress).
 * Enrolling again reopens a revoked or expired enrollment: active again (completed if it had been completed), from
 * the new source with the new expiry, keeping its enrolled_at (drip goes on from the first enrollment) and progress.
 * An enrollment that gives access now (active, or completed within its expiry) is left as it is, unless the new grant
 * lasts longer: then it takes the row over (its source and expiry).
 */
export function enrollmentRules(deps: {
  db: Db;
  clock: Clock;
  store: StudentsStore;
  mail: StudentMail;
  courses: CourseFactsPort;
}) {
  const { db, clock, store } = deps;
  const now = () => clock.now().toISOString();

  /** The rows as shown, each with its course's title and slug, asked of the courses area in one read. */
  async function shown(ex: Executor, rows: EnrollmentRow[]): Promise<Enrollment[]> {
    const ids = [...new Set(rows.map((row) => row.course_id))];
    const courses = new Map((await deps.courses.facts(ex, ids)).map((course) => [course.id, course]));
    return rows.flatMap((row) => {
      const course = courses.get(row.course_id);
      return course ? [toEnrollment(row, course)] : [];
    });
  }

  /** The enrollment as shown; `course`, when the caller has it at hand, spares asking the courses area. */
  async function read(ex: Executor, userId: string, courseId: string, course?: Pick<CourseRow, 'title' | 'slug'>) {
    const row = await store
      .enrollmentsQuery(ex, userId, now())
      .where('enrollments.course_id', '=', courseId)
      .executeTakeFirst();
    const [enrollment] = !row ? [] : course ? [toEnrollment(row, course)] : await shown(ex, [row]);
    if (!enrollment) throw errors.notFound('enrollment');
    return enrollment;
  }

  return {
    read,

    /**
     * Enrolls `user` in `course` inside `trx`: `enrolled` when a row was made (`inserted`) or reopened,
     * `already_enrolled` when the enrollment already gives access. With `confirm`, a new or reopened enrollment is
     * confirmed by e-mail.
     */
    async enroll(
      trx: Executor,
      user: Person,
      course: CourseRow,
      input: { expiresAt: string | null; source: EnrollmentsTable['source']; confirm: boolean },
    ): Promise<{ outcome: 'enrolled' | 'already_enrolled'; inserted: boolean; enrollment: Enrollment }> {
      const at = now();
      const inserted = await store.insertEnrollment(trx, {
        id: newId('enr'),
        course_id: course.id,
        user_id: user.id,
        source: input.source,
        status: 'active',
        enrolled_at: at,
        expires_at: input.expiresAt,
        completed_at: null,
        progress_percent: 0,
      });
      let outcome: 'enrolled' | 'already_enrolled' = 'enrolled';
      if (!inserted) {
        const row = await store.lockEnrollment(trx, user.id, course.id);
        if (!row) throw errors.serverError();
        if (givesAccess(row, at)) {
          outcome = 'already_enrolled';
          // Access is the union of what grants it: a grant that outlasts the one holding the row (a course bought
          // or given for good while a plan opens it until its period ends) takes the row over, so the shorter one
          // ending later cannot close what the longer one still gives.
          if (outlasts(input.expiresAt, row.expires_at))
            await store.updateEnrollment(trx, row.id, { source: input.source, expires_at: input.expiresAt });
        } else
          await store.updateEnrollment(trx, row.id, {
            status: row.completed_at ? 'completed' : 'active',
            source: input.source,
            expires_at: input.expiresAt,
          });
      }
      if (outcome === 'enrolled' && input.confirm)
        await deps.mail.enrollmentConfirmed(trx, { user, course: { title: course.title, slug: course.slug } });
      return { outcome, inserted, enrollment: await read(trx, user.id, course.id, course) };
    },

    /**
     * Moves when `userId`'s enrollment in `courseId` ends, while it still comes from `source` (a subscription renewed,
     * lapsed or canceled moves the end of what it opened): null never, a time at or before now ends it. A revoked one
     * is reopened when the new end is ahead. An enrollment from another source is left as it is. Returns whether it
     * changed anything.
     */
    async setExpiry(
      trx: Executor,
      userId: string,
      courseId: string,
      source: EnrollmentsTable['source'],
      expiresAt: string | null,
    ): Promise<boolean> {
      const row = await store.lockEnrollment(trx, userId, courseId);
      if (!row || row.source !== source) return false;
      const opens = row.status === 'revoked' && (expiresAt === null || expiresAt > now());
      const status = opens ? (row.completed_at ? 'completed' : 'active') : row.status;
      if (status === row.status && row.expires_at === expiresAt) return false;
      await store.updateEnrollment(trx, row.id, { status, expires_at: expiresAt });
      return true;
    },

    async list(userId: string, query: EnrollmentListQuery) {
      let q = store.enrollmentsQuery(db, userId, now());
      if (query.status) q = q.where(store.effectiveStatusIs(now(), query.status));
      if (query.course_id) q = q.where('enrollments.course_id', '=', query.course_id);
      const page = await paginate(q, query, 'enrollments.id', 'enrollments.enrolled_at');
      return { ...page, data: await shown(db, page.data) };
    },

    /** Revokes the enrollment (kept as history); revoking a revoked one changes nothing. */
    revoke: (userId: string, courseId: string) =>
      db.transaction().execute(async (trx) => {
        const row = await store.lockEnrollment(trx, userId, courseId);
        if (!row) throw errors.notFound('enrollment');
        if (row.status !== 'revoked') await store.updateEnrollment(trx, row.id, { status: 'revoked' });
        return read(trx, userId, courseId);
      }),
  };
}

export type EnrollmentRules = ReturnType<typeof enrollmentRules>;
