import { Value } from 'typebox/value';
import type { WriteContext } from '../../db/request-writes.ts';
import type { Db, Executor } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import { Email, normalizeEmail } from '../../identity/schema.ts';
import type { Job, JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../time/clock.ts';
import { closedCourse, type EnrollmentRules } from './enrollments.ts';
import type { CourseFactsPort } from './ports.ts';
import type { BulkEnrollment, BulkEnrollmentCreate, BulkEnrollmentRow, BulkRowResult } from './schema.ts';
import type { StudentsStore } from './store.ts';

export const BULK_ENROLL = 'students.bulk_enroll';
/** Rows written per transaction: a failure loses at most one batch's work, and no transaction holds the writer long. */
const BATCH_ROWS = 100;
const COURSE_ID = /^crs_[0-9a-z]{26}$/;

type Payload = { rows: BulkEnrollmentRow[] };
type Recorded = { done: number; total: number; results: BulkRowResult[] };
type Person = { id: string; email: string; name: string; role: string };

/**
 * Bulk enrollment (up to 1,000 rows): the request queues a durable job in its transaction and answers 202 with it;
 * the job works through the rows in batches of 100, each batch one transaction, recording after each the rows done
 * and their results. A row whose e-mail is malformed, whose course is unknown, a draft or archived, whose expiry has
 * passed, or whose e-mail belongs to a staff account is `invalid` and the others go on. A new e-mail becomes a student
 * (named by the row, or by the address's local part) who is sent an invitation; people already there keep their
 * name. Import sends no enrollment confirmations (the invitation speaks for new people; existing students see the
 * course in their list). Running the job twice cannot enroll anyone twice — enrollment is unique per course and person
 * — and a re-run after a lost worker carries on after the rows it recorded.
 */
export function bulkEnrollment(deps: {
  db: Db;
  clock: Clock;
  writes: WriteContext;
  jobs: JobQueue;
  store: StudentsStore;
  courses: CourseFactsPort;
  enrollments: EnrollmentRules;
  /** Makes a new student in `trx` and invites them. */
  addStudent: (trx: Executor, email: string, name: string) => Promise<Person>;
}) {
  const { db, clock, jobs, store } = deps;

  async function enrollRow(
    trx: Executor,
    row: BulkEnrollmentRow,
    index: number,
    courses: Map<string, Awaited<ReturnType<CourseFactsPort['facts']>>[number]>,
  ): Promise<BulkRowResult> {
    const invalid = (error: string): BulkRowResult => ({ row: index, status: 'invalid', error });
    const email = normalizeEmail(row.email);
    if (!Value.Check(Email, email)) return invalid('email: not an e-mail address.');
    const course = courses.get(row.course_id);
    if (!course) return invalid(`course_id: no such course ${row.course_id}.`);
    const closed = closedCourse(course);
    if (closed) return invalid(`course_id: ${closed}`);
    const expiresAt = row.expires_at ? new Date(row.expires_at).toISOString() : null;
    if (expiresAt && expiresAt <= clock.now().toISOString()) return invalid('expires_at: already passed.');
    let person: Person | undefined = await store.findUserByEmail(trx, email);
    if (person && person.role !== 'student') return invalid('email: belongs to a staff account, not a student.');
    person ??= await deps.addStudent(trx, email, row.name?.trim() || (email.split('@')[0] ?? email));
    const { outcome } = await deps.enrollments.enroll(trx, person, course, {
      expiresAt,
      source: 'import',
      confirm: false,
    });
    return { row: index, status: outcome, student_id: person.id };
  }

  async function run(payload: Payload, job: { id: string; progress(value: unknown): Promise<void> }) {
    const total = payload.rows.length;
    const before = (await jobs.get(db, job.id))?.progress as Recorded | null;
    const results = before?.results ?? [];
    for (let start = results.length; start < total; start += BATCH_ROWS) {
      const batch = payload.rows.slice(start, start + BATCH_ROWS);
      const ids = [...new Set(batch.map((row) => row.course_id).filter((id) => COURSE_ID.test(id)))];
      const done = await db.transaction().execute(async (trx) => {
        const courses = new Map((await deps.courses.facts(trx, ids)).map((course) => [course.id, course]));
        const out: BulkRowResult[] = [];
        for (const [offset, row] of batch.entries()) out.push(await enrollRow(trx, row, start + offset, courses));
        return out;
      });
      results.push(...done);
      await job.progress({ done: results.length, total, results } satisfies Recorded);
    }
    return { done: total, total, results } satisfies Recorded;
  }
  jobs.handle(BULK_ENROLL, run);

  function toView(job: Job): BulkEnrollment {
    const total = (job.payload as Payload).rows.length;
    const recorded = (job.result ?? job.progress) as Recorded | null;
    return {
      id: job.id,
      status: job.status,
      progress: { done: recorded?.done ?? 0, total },
      results: recorded?.results ?? [],
      created_at: job.created_at,
      updated_at: job.updated_at,
    };
  }

  return {
    start: (input: BulkEnrollmentCreate) =>
      db.transaction().execute(async (trx) => {
        const id = await jobs.enqueue(trx, BULK_ENROLL, { rows: input.rows } satisfies Payload, { maxAttempts: 3 });
        const job = await jobs.get(trx, id);
        if (!job) throw errors.serverError();
        const view = toView(job);
        await deps.writes.made(trx, view, 'accepted');
        return view;
      }),

    async get(id: string) {
      const job = await jobs.get(db, id);
      if (!job || job.kind !== BULK_ENROLL) throw errors.notFound('bulk enrollment');
      return toView(job);
    },
  };
}
