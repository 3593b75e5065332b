import { randomBytes, scryptSync } from 'node:crypto';
import { type Insertable, sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { connectDatabase } from '../src/db/connect.ts';
import { newId } from '../src/db/ids.ts';
import type { Db, Tables } from '../src/db/tables.ts';
import { hashPassword } from '../src/security/passwords.ts';

/** `covers`: how many uploaded cover pictures (with their variants recorded) the odd-numbered courses share; none by default. */
export type SeedSizes = { courses: number; enrollments: number; covers?: number };
export const ENROLLMENTS_PER_STUDENT = 50;
const BATCH = 1000;

/** A vocabulary of 200 words; every course carries three of them (see `course`), two in its title. */
const STEMS = ['alge', 'baro', 'chem', 'dyna', 'ecol', 'fres', 'geom', 'hist', 'iron', 'juri'];
const ENDINGS = ['bra', 'que', 'istry', 'mics', 'ogy', 'co', 'etry', 'ory', 'work', 'sprudence'];
/**
 * Two forms of each stem and ending that English stemming keeps apart (Porter strips "-al", which made 28 pairs of the
 * vocabulary one search word and doubled what a search found), so each word is its own search.
 */
export const WORDS = STEMS.flatMap((s) => ENDINGS.flatMap((e) => ['', 'an'].map((l) => `${s}${e}${l}`)));

/** The seeded lecturers' names: each course names one of them. */
const LECTURERS = ['Ada Lovelace', 'Grace Hopper', 'Emmy Noether', 'Alan Turing', 'Marie Curie', 'Carl Gauss'];
/** What a course's subtitle and description speak of besides its vocabulary words (never searched by the benches). */
const TOPICS = [
  'practice',
  'theory',
  'history',
  'method',
  'craft',
  'studio',
  'fieldwork',
  'review',
  'project',
  'drill',
];
const word = (n: number) => WORDS[n % WORDS.length] ?? '';
const topic = (n: number) => TOPICS[n % TOPICS.length] ?? '';

/**
 * Course i: a tenth drafts (i % 10 = 0), a twentieth private (i % 20 = 5), a third free. It carries vocabulary words
 * as a course carries its subject, two in its title and one in its description (of a believable length), so a search
 * for a word finds about 1.5 % of the courses, ranked by where the word is; "course" is in every title.
 */
const course = (i: number, at: number, lecturerIds: string[], coverIds: string[]) => {
  const created = new Date(at + i * 1000).toISOString();
  return {
    id: newId('crs', at + i * 1000),
    title: `Course ${i}: ${word(i * 7)} and ${word(i * 13 + 5)}`,
    slug: `course-${i}`,
    subtitle: `Learn the ${topic(i)} properly`,
    description:
      `A course on ${word(i * 19 + 3)} and its ${topic(i * 3 + 1)}, with exercises, worked examples and a final ` +
      `${topic(i * 7 + 2)} of your own. Each week has a short reading, a video and a task that a lecturer marks.`,
    cover_url: null,
    // Odd courses show an uploaded picture, even ones their generated cover: a catalog page has both.
    cover_asset_id: coverIds.length && i % 2 === 1 ? (coverIds[i % coverIds.length] ?? null) : null,
    lecturer_ids: JSON.stringify([lecturerIds[i % lecturerIds.length]]),
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
async function bulkInsert<T extends 'lecturers' | 'assets' | 'image_variants' | 'courses' | 'users' | 'enrollments'>(
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

/** The widths and formats the variants job makes of a 1600 × 900 photograph (areas/storage/image-variants.ts). */
const VARIANT_WIDTHS = [160, 320, 640, 960, 1280, 1600];
const VARIANT_FORMATS = [
  ['avif', 'avif'],
  ['webp', 'webp'],
  ['jpeg', 'jpg'],
] as const;
/** A 16 px placeholder of the length the job records (~120 characters). */
const PLACEHOLDER = `data:image/webp;base64,${'UklGRlYAAABXRUJQVlA4IEoAAADQAQCdASoQAAkAAUAmJaQAA3AA/v02aAA'.padEnd(100, 'A')}`;

/**
 * Uploaded cover pictures as the storage area records them once their variants are made: the page reads only these
 * rows (its <picture> names the variants' addresses), so no bytes are stored.
 */
async function seedCovers(db: Db, ids: string[], stamp: string) {
  if (!ids.length) return;
  await bulkInsert(db, 'assets', ids.length, (i) => ({
    id: ids[i] ?? '',
    purpose: 'image' as const,
    filename: `cover-${i}.jpg`,
    content_type: 'image/jpeg',
    byte_size: 250_000,
    sha256: null,
    expected_sha256: null,
    status: 'ready' as const,
    failure_reason: null,
    storage_key: `assets/${ids[i]}/original`,
    created_by: null,
    created_at: stamp,
    updated_at: stamp,
    width: 1600,
    height: 900,
    placeholder: PLACEHOLDER,
    variants: 'made' as const,
  }));
  const perImage = VARIANT_WIDTHS.length * VARIANT_FORMATS.length;
  await bulkInsert(db, 'image_variants', ids.length * perImage, (n) => {
    const id = ids[Math.floor(n / perImage)] ?? '';
    const width = VARIANT_WIDTHS[n % VARIANT_WIDTHS.length] ?? 160;
    const [format, extension] = VARIANT_FORMATS[Math.floor((n % perImage) / VARIANT_WIDTHS.length)] ?? ['jpeg', 'jpg'];
    const name = `${width}-${(n % 0xffffff).toString(16).padStart(12, '0')}.${extension}`;
    return {
      asset_id: id,
      name,
      format,
      width,
      height: Math.round((width * 9) / 16),
      byte_size: width * 20,
      storage_key: `assets/${id}/variants/${name}`,
      created_at: stamp,
    };
  });
}

/**
 * Writes straight into the database (the search index follows by its triggers): six lecturers, `courses` courses (see
 * `course`), a staff account, `enrollments` enrollments of
 * students (ENROLLMENTS_PER_STUDENT each; the first student, `student`, is enrolled in published, private and draft
 * courses), and `quick`, an account whose stored password hash is scrypt at N=16 instead of the school's 16384 (the
 * school verifies with the N stored in the hash), to measure a sign-in without the cost of the hash.
 */
export async function seedSchool(databaseUrl: string, sizes: SeedSizes) {
  const database = connectDatabase(loadConfig({ DATABASE_URL: databaseUrl }).database);
  const { db } = database;
  const at = Date.now() - sizes.courses * 1000;
  const stamp = new Date(at).toISOString();
  const lecturerIds = LECTURERS.map(() => newId('lec'));
  await bulkInsert(db, 'lecturers', LECTURERS.length, (i) => ({
    id: lecturerIds[i] ?? '',
    name: LECTURERS[i] ?? '',
    title: 'Lecturer',
    bio: '',
    avatar_url: null,
    email: null,
    user_id: null,
    status: 'active' as const,
    created_at: stamp,
    updated_at: stamp,
  }));
  const coverIds = Array.from({ length: sizes.covers ?? 0 }, () => newId('ast'));
  await seedCovers(db, coverIds, stamp);
  const courseIds: string[] = [];
  await bulkInsert(db, 'courses', sizes.courses, (i) => {
    const row = course(i, at, lecturerIds, coverIds);
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
  // The planner's statistics and the visibility map, as autovacuum makes them within a minute of such a load.
  if (database.engine === 'postgres') await sql`vacuum analyze`.execute(db);
  await database.close();
  const account = (row: { email: string }) => ({ email: row.email, password });
  return {
    staff: account(staff),
    student: students[0] ? account(students[0]) : undefined,
    quick: account(quick),
    courseIds,
  };
}
