import { randomBytes, scryptSync } from 'node:crypto';
import type { Insertable } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { connectDatabase } from '../src/db/connect.ts';
import { newId } from '../src/db/ids.ts';
import type { Db, Tables } from '../src/db/tables.ts';
import { hashPassword } from '../src/security/passwords.ts';

export type SeedSizes = { courses: number; enrollments: number };
export const ENROLLMENTS_PER_STUDENT = 50;
const BATCH = 1000;

/** A vocabulary of 200 words; every course title carries two, so a search for one finds about 1 % of the courses. */
const STEMS = ['alge', 'baro', 'chem', 'dyna', 'ecol', 'fres', 'geom', 'hist', 'iron', 'juri'];
const ENDINGS = ['bra', 'que', 'istry', 'mics', 'ogy', 'co', 'etry', 'ory', 'work', 'sprudence'];
const LETTERS = ['', 'al', 'an', 'ic', 'ist', 'ous', 'ar', 'ine', 'ite', 'ism', 'ery', 'ive', 'ent', 'ate', 'ure'];
export const WORDS = STEMS.flatMap((s) => ENDINGS.flatMap((e) => LETTERS.slice(0, 2).map((l) => `${s}${e}${l}`)));

/** Course i: a tenth drafts (i % 10 = 0), a twentieth private (i % 20 = 5), a third free. */
const course = (i: number, at: number) => {
  const created = new Date(at + i * 1000).toISOString();
  return {
    id: newId('crs', at + i * 1000),
    title: `Course ${i}: ${WORDS[(i * 7) % WORDS.length]} and ${WORDS[(i * 13 + 5) % WORDS.length]}`,
    slug: `course-${i}`,
    subtitle: 'Learn it properly',
    description: 'A course with a description of a believable length, long enough to look like a real one.',
    cover_url: null,
    lecturer_ids: '[]',
    price_amount: i % 3 === 0 ? null : 1900 + (i % 50) * 100,
    price_currency: i % 3 === 0 ? null : 'EUR',
    status: i % 10 === 0 ? ('draft' as const) : ('published' as const),
    visibility: i % 20 === 5 ? ('private' as const) : ('public' as const),
    enrollment_open: 1 as const,
    published_at: created,
    created_at: created,
    updated_at: created,
  };
};

/** Inserts `count` rows made by `make`, BATCH rows to a statement, all in one transaction. */
async function bulkInsert<T extends 'courses' | 'users' | 'enrollments'>(
  db: Db,
  table: T,
  count: number,
  make: (i: number) => Insertable<Tables[T]>,
) {
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < count; start += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, count - start) }, (_, k) => make(start + k));
      await trx.insertInto(table).values(rows).execute();
    }
  });
}

/** A stored hash of the scrypt form the school reads (`scrypt$N$r$p$salt$hash`), at a chosen cost N. */
function scryptHash(password: string, n: number) {
  const salt = randomBytes(16);
  const hash = scryptSync(password, salt, 32, { N: n, r: 8, p: 1 });
  return ['scrypt', n, 8, 1, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/**
 * Writes straight into the database: `courses` courses (see `course`), a staff account, `enrollments` enrollments of
 * students (ENROLLMENTS_PER_STUDENT each; the first student, `student`, is enrolled in published, private and draft
 * courses), and `quick`, an account whose stored password hash is scrypt at N=16 instead of the school's 16384 (the
 * school verifies with the N stored in the hash), to measure a sign-in without the cost of the hash.
 */
export async function seedSchool(databaseUrl: string, sizes: SeedSizes) {
  const database = connectDatabase(loadConfig({ DATABASE_URL: databaseUrl }).database);
  const { db } = database;
  const at = Date.now() - sizes.courses * 1000;
  const courseIds: string[] = [];
  await bulkInsert(db, 'courses', sizes.courses, (i) => {
    const row = course(i, at);
    courseIds.push(row.id);
    return row;
  });

  const password = 'bench password 1';
  const hash = await hashPassword(password);
  const now = new Date().toISOString();
  const person = (role: 'staff' | 'student', email: string, password_hash = hash) => ({
    id: newId('usr'),
    email,
    name: `Bench ${role}`,
    role,
    status: 'active' as const,
    password_hash,
    locale: null,
    created_at: now,
    updated_at: now,
  });
  const perStudent = Math.min(ENROLLMENTS_PER_STUDENT, sizes.courses);
  const studentCount = perStudent ? Math.ceil(sizes.enrollments / perStudent) : 0;
  const students = Array.from({ length: studentCount }, (_, s) => person('student', `student${s}@school.test`));
  const staff = person('staff', 'bench.staff@school.test');
  const quick = person('staff', 'bench.quick@school.test', scryptHash(password, 16));
  await bulkInsert(db, 'users', students.length + 2, (i) => students[i] ?? (i === students.length ? staff : quick));

  // Student s: courses s*13 + k*step (k < perStudent), distinct; step is not a multiple of 20, so the first student's
  // courses include drafts (i % 10 = 0) and private ones (i % 20 = 5).
  let step = Math.max(1, Math.floor(sizes.courses / Math.max(1, perStudent)));
  if (step % 20 === 0) step -= 1;
  const enrolled = new Date().toISOString();
  await bulkInsert(db, 'enrollments', Math.min(sizes.enrollments, studentCount * perStudent), (i) => {
    const s = Math.floor(i / perStudent);
    const k = i % perStudent;
    return {
      id: `enr_bench${i}`,
      course_id: courseIds[(s * 13 + k * step) % sizes.courses],
      user_id: students[s].id,
      source: 'import' as const,
      status: 'active' as const,
      enrolled_at: enrolled,
      expires_at: null,
      completed_at: null,
      progress_percent: 0,
    };
  });
  await database.close();
  const account = (row: { email: string }) => ({ email: row.email, password });
  return {
    staff: account(staff),
    student: students[0] ? account(students[0]) : undefined,
    quick: account(quick),
    courseIds,
  };
}
