import type { Updateable } from 'kysely';
import type { Executor, UsersTable } from '../../db/tables.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { errors } from '../../http/errors.ts';
import { isStaff, type Principal } from '../../http/principal.ts';
import { isDeletedAccount } from '../../identity/deleted-account.ts';
import type { Invitations } from '../../identity/invitations.ts';
import { normalizeEmail } from '../../identity/schema.ts';
import type { CertificatesService } from '../certificates/service.ts';
import type { CoursesService } from '../courses/service.ts';
import type { QuizSubmission } from '../curriculum/schema.ts';
import type { CurriculumService } from '../curriculum/service.ts';
import type { AreaDeps } from '../deps.ts';
import { paginate } from '../pagination.ts';
import { bulkEnrollment } from './bulk-enrollment.ts';
import { closedCourse, enrollmentRules, givesAccess } from './enrollments.ts';
import type { StudentMail } from './mail.ts';
import type { CourseFactsPort } from './ports.ts';
import { progressRules } from './progress.ts';
import type {
  BulkEnrollmentCreate,
  EnrollmentCreate,
  EnrollmentListQuery,
  Student,
  StudentCreate,
  StudentListQuery,
  StudentUpdate,
} from './schema.ts';
import type { StudentsStore } from './store.ts';

type StudentRow = Pick<UsersTable, 'id' | 'email' | 'name' | 'status' | 'role' | 'created_at' | 'updated_at'>;

const toStudent = (row: StudentRow): Student => ({
  id: row.id,
  email: row.email,
  name: row.name,
  status: row.status,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/**
 * The one rule of which students a caller sees: staff and owners every student; a student themselves only (their
 * `students:read` token reads their own record, enrollments and progress); nobody else any. Both the list query and
 * the single-row check go by it; a student the caller may not see is 404.
 */
const visibleStudents = (principal: Principal): 'all' | string[] =>
  isStaff(principal) ? 'all' : principal.kind === 'user' ? [principal.userId] : [];

/**
 * Students: users of role student, listed whether or not they hold an enrollment (a person invited and not yet
 * enrolled is a student too). Staff and owners are not students: their e-mail cannot be taken for a student (409),
 * and they are neither listed nor suspended here. Adding a student is an upsert by e-mail; a new student has no
 * password until they set one through the invitation's link. Suspending ends the person's browser sessions, and
 * their tokens are refused at once here (the token check requires an active user, and the validated-token caches of
 * every instance are cleared through `onAccessChange`); sign-in, new authorizations and refreshes are refused too
 * while suspended. Reactivating lets them sign in again (ended sessions stay ended).
 */
export function studentsService(
  deps: AreaDeps & {
    store: StudentsStore;
    courses: Pick<CoursesService, 'get'>;
    /** The courses enrollments are in, read in the caller's transaction. */
    courseFacts: CourseFactsPort;
    curriculum: CurriculumService;
    /** Issues the certificate of a course completed, in the completing transaction. */
    certificates: Pick<CertificatesService, 'issue'>;
    mail: StudentMail;
    /** Makes a new student's account and invites them, in the caller's transaction. */
    invitations: Invitations;
    /** Tells every instance that whose tokens are valid changed (drop validated-token caches). */
    onAccessChange: () => void;
  },
) {
  const { db, clock, store } = deps;
  const now = () => clock.now().toISOString();
  const notFound = () => errors.notFound('student');
  const enrollments = enrollmentRules({ db, clock, store, mail: deps.mail, courses: deps.courseFacts });
  /** The signed-in caller's own user row, for the account's paths (a caller without one finds no `what`). */
  async function me(principal: Principal, what = 'lesson') {
    const row = principal.kind === 'user' ? await store.findUser(db, principal.userId) : undefined;
    if (!row) throw errors.notFound(what);
    return row;
  }

  const progress = progressRules({
    db,
    clock,
    writes: deps.writes,
    store,
    curriculum: deps.curriculum,
    certificates: deps.certificates,
    enrollments,
  });

  /** The student `key` names (a usr_… id, or "me") if the caller may see them; else 404. */
  async function visibleStudent(principal: Principal, key: string) {
    const id = key === 'me' ? (principal.kind === 'user' ? principal.userId : '') : key;
    const visible = visibleStudents(principal);
    const row = id && (visible === 'all' || visible.includes(id)) ? await store.findUser(db, id) : undefined;
    if (row?.role !== 'student') throw notFound();
    return row;
  }

  /** A student for staff to act on; staff and owner accounts are 404 here. */
  async function studentForWrite(ex: Executor, id: string) {
    const row = await store.findUser(ex, id);
    if (row?.role !== 'student') throw notFound();
    return row;
  }

  const addStudent = (trx: Executor, email: string, name: string) =>
    deps.invitations.invite(trx, { email, name, role: 'student' });

  const blankName = () =>
    errors.invalidRequest('name: must not be only spaces.', [
      { field: 'name', code: 'blank', message: 'Give a name.' },
    ]);

  /**
   * The student with this e-mail, renamed to `name`, or a new one invited to choose a password, in the caller's
   * transaction. A staff account's e-mail is 409: `forWhom` says who needs an address of their own.
   */
  async function ensureStudent(trx: Executor, email: string, name: string, forWhom = 'a student') {
    const existing = await store.findUserByEmail(trx, email);
    if (existing && existing.role !== 'student')
      throw errors.conflict(`This e-mail belongs to a staff account; ${forWhom} needs an address of their own.`);
    if (existing) {
      const changes = { name, updated_at: now() };
      await store.updateUser(trx, existing.id, changes);
      return { created: false, student: toStudent({ ...existing, ...changes }) };
    }
    return { created: true, student: toStudent(await addStudent(trx, email, name)) };
  }

  async function upsert(input: StudentCreate) {
    const email = normalizeEmail(input.email);
    const name = input.name.trim();
    if (!name) throw blankName();
    return db.transaction().execute(async (trx) => {
      const { created, student } = await ensureStudent(trx, email, name);
      await deps.writes.made(trx, student, created ? 'created' : 'existing');
      return { created, item: student };
    });
  }

  const bulk = bulkEnrollment({
    db,
    clock,
    writes: deps.writes,
    jobs: deps.jobs,
    store,
    courses: deps.courseFacts,
    enrollments,
    addStudent,
  });

  /** What is left of a deleted account is kept only for the records that point at it: it stays as deletion left it. */
  const deletedAccount = (what: 'changed' | 'reactivated') =>
    errors.conflict(`This account was deleted by its owner, so it cannot be ${what}.`);

  async function setStatus(id: string, status: UsersTable['status']) {
    const row = await db.transaction().execute(async (trx) => {
      const current = status === 'active' ? await store.findUser(trx, id) : undefined;
      if (current && isDeletedAccount(current)) throw deletedAccount('reactivated');
      const written = await store.setStatus(trx, id, status, now());
      if (!written) throw notFound();
      if (status === 'suspended') await store.deleteSessions(trx, id);
      return written;
    });
    if (status === 'suspended') deps.onAccessChange();
    return toStudent(row);
  }

  return {
    ensureStudent,

    async list(principal: Principal, query: StudentListQuery) {
      const at = now();
      let q = store.studentsQuery(db);
      const visible = visibleStudents(principal);
      if (visible !== 'all') q = q.where('id', 'in', visible.length ? visible : ['']);
      if (query.status) q = q.where('status', '=', query.status);
      if (query.q) q = q.where(store.nameOrEmail(query.q));
      if (query.course_id || query.enrollment_status)
        q = q.where(store.holdingEnrollment({ courseId: query.course_id, status: query.enrollment_status }, at));
      const page = await paginate(q, query, 'id', 'created_at');
      return { ...page, data: page.data.map(toStudent) };
    },

    get: async (principal: Principal, key: string) => toStudent(await visibleStudent(principal, key)),

    /** Upsert by e-mail: `created` says whether the student is new (and was invited). */
    async create(input: StudentCreate) {
      try {
        return await upsert(input);
      } catch (error) {
        // Another request made this e-mail's account meanwhile: now it exists, so this one updates it.
        if (isUniqueViolation(error)) return upsert(input);
        throw error;
      }
    },

    async update(id: string, input: StudentUpdate) {
      const row = await studentForWrite(db, id);
      if (isDeletedAccount(row)) throw deletedAccount('changed');
      const changes: Updateable<UsersTable> = { updated_at: now() };
      if (input.name !== undefined) {
        changes.name = input.name.trim();
        if (!changes.name) throw blankName();
      }
      if (input.email !== undefined) {
        changes.email = normalizeEmail(input.email);
        // A new address is unconfirmed until its owner opens a link sent to it.
        if (changes.email !== row.email) changes.email_verified = 0;
      }
      try {
        await store.updateUser(db, id, changes);
      } catch (error) {
        if (isUniqueViolation(error)) throw errors.conflict('Another account already uses this e-mail address.');
        throw error;
      }
      return toStudent({ ...row, ...changes });
    },

    suspend: (id: string) => setStatus(id, 'suspended'),
    reactivate: (id: string) => setStatus(id, 'active'),

    async listEnrollments(principal: Principal, key: string, query: EnrollmentListQuery) {
      const student = await visibleStudent(principal, key);
      return enrollments.list(student.id, query);
    },

    /** Enrolls a student: `created` is false when an enrollment was already there (reopened, or left as it was). */
    async enroll(id: string, input: EnrollmentCreate) {
      const expiresAt = input.expires_at ? new Date(input.expires_at).toISOString() : null;
      if (expiresAt && expiresAt <= now())
        throw errors.invalidRequest('expires_at: must be in the future (or null: never expires).', [
          { field: 'expires_at', code: 'past', message: 'Give a time in the future, or null.' },
        ]);
      return db.transaction().execute(async (trx) => {
        const student = await studentForWrite(trx, id);
        const [course] = await deps.courseFacts.facts(trx, [input.course_id]);
        if (!course)
          throw errors.invalidRequest(`course_id: no such course ${input.course_id}.`, [
            { field: 'course_id', code: 'not_found', message: `Unknown course ${input.course_id}` },
          ]);
        const closed = closedCourse(course);
        if (closed) throw errors.conflict(closed);
        const result = await enrollments.enroll(trx, student, course, {
          expiresAt,
          source: input.source ?? 'manual',
          confirm: true,
        });
        await deps.writes.made(trx, result.enrollment, result.inserted ? 'created' : 'existing');
        return { created: result.inserted, item: result.enrollment };
      });
    },

    /**
     * A student enrolls themselves (the course page's button, or their app with account:write): only in a free,
     * published course they can see whose enrollment is open. Staff are not students; paid courses go through checkout.
     */
    async enrollSelf(principal: Principal, courseKey: string) {
      const student = await me(principal, 'course');
      const course = await deps.courses.get(principal, courseKey);
      if (student.role !== 'student')
        throw errors.conflict('Staff and owners see every course without enrolling; enrollment is for students.');
      const closed = closedCourse(course);
      if (closed) throw errors.conflict(closed);
      if (!course.enrollment_open) throw errors.conflict(`${course.title} is not taking enrollments at the moment.`);
      if (course.price)
        throw errors.conflict(`${course.title} is a paid course: it is bought at checkout, not enrolled in directly.`);
      return db.transaction().execute(async (trx) => {
        const result = await enrollments.enroll(trx, student, course, {
          expiresAt: null,
          source: 'manual',
          confirm: true,
        });
        await deps.writes.made(trx, result.enrollment, result.inserted ? 'created' : 'existing');
        return { created: result.inserted, item: result.enrollment };
      });
    },

    /**
     * Opens a course bought or held through a plan, in the caller's transaction: the order's receipt (or the plan's
     * own mail) tells the person, so no enrollment confirmation is sent. An enrollment giving access is left alone.
     */
    async openCourse(
      trx: Executor,
      userId: string,
      courseId: string,
      input: { source: 'order' | 'subscription'; expiresAt: string | null },
    ) {
      const [user, [course]] = await Promise.all([
        store.findUser(trx, userId),
        deps.courseFacts.facts(trx, [courseId]),
      ]);
      if (!user || !course) throw errors.notFound('course');
      return enrollments.enroll(trx, user, course, { ...input, confirm: false });
    },

    /** Takes back what `source` opened (a refunded order): revokes the enrollment only if that source made it. */
    async closeCourse(trx: Executor, userId: string, courseId: string, source: 'order' | 'subscription') {
      const row = await store.lockEnrollment(trx, userId, courseId);
      if (row && row.source === source && row.status !== 'revoked')
        await store.updateEnrollment(trx, row.id, { status: 'revoked' });
    },

    /** Why a course takes no new enrollment (a draft, an archived course), or undefined when it does. */
    closedCourse,

    /** Whether `userId` can study `courseId` now (an enrollment giving access). */
    async holdsCourse(ex: Executor, userId: string, courseId: string) {
      const row = await store.findEnrollment(ex, userId, courseId);
      return row !== undefined && givesAccess(row, now());
    },

    async unenroll(id: string, courseId: string) {
      await studentForWrite(db, id);
      return enrollments.revoke(id, courseId);
    },

    async progress(principal: Principal, key: string, courseId: string) {
      const student = await visibleStudent(principal, key);
      return progress.progressOf(student.id, courseId);
    },

    /** Staff mark a lesson complete for a student, by the same rule as the student's own path. */
    async completeLesson(id: string, lessonId: string) {
      return progress.complete(await studentForWrite(db, id), lessonId);
    },

    /** The caller completes a lesson of their own (the account's path). */
    async completeMyLesson(principal: Principal, lessonId: string) {
      return progress.complete(await me(principal), lessonId);
    },

    /** The caller answers a quiz of their own; a pass completes the lesson. */
    async submitMyQuiz(principal: Principal, lessonId: string, submission: QuizSubmission) {
      return progress.submitQuiz(await me(principal), lessonId, submission);
    },

    async myQuizAttempts(principal: Principal, lessonId: string) {
      return { data: await progress.attempts((await me(principal)).id, lessonId) };
    },

    /** A student's attempts at a quiz: staff see anyone's, a student their own. */
    async quizAttempts(principal: Principal, key: string, lessonId: string) {
      const student = await visibleStudent(principal, key);
      return { data: await progress.attempts(student.id, lessonId) };
    },

    startBulkEnrollment: (input: BulkEnrollmentCreate) => bulk.start(input),

    async getBulkEnrollment(principal: Principal, id: string) {
      if (!isStaff(principal)) throw errors.notFound('bulk enrollment');
      return bulk.get(id);
    },
  };
}

export type StudentsService = ReturnType<typeof studentsService>;
