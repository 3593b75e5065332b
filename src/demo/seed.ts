import { randomBytes } from 'node:crypto';
import type { Static, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { AppearanceUpdate } from '../areas/appearance/schema.ts';
import { CouponCreate } from '../areas/coupons/schema.ts';
import { CourseCreate } from '../areas/courses/schema.ts';
import { LessonCreate, type QuizInput, QuizSubmission, SectionCreate } from '../areas/curriculum/schema.ts';
import { EventCreate } from '../areas/events/schema.ts';
import { FormCreate, type FormField } from '../areas/forms/schema.ts';
import { LecturerCreate } from '../areas/lecturers/schema.ts';
import { PlanCreate, PriceCreate } from '../areas/membership-plans/schema.ts';
import { PageCreate } from '../areas/pages/schema.ts';
import { PostCreate, PostSchedule } from '../areas/posts/schema.ts';
import { SchoolUpdate } from '../areas/school/schema.ts';
import { schoolStore } from '../areas/school/store.ts';
import { slugify } from '../areas/slugs.ts';
import { StaffInvite } from '../areas/staff/schema.ts';
import { EnrollmentCreate } from '../areas/students/schema.ts';
import { type Config, loadConfig } from '../config.ts';
import type { Db, Executor } from '../db/tables.ts';
import type { Principal } from '../http/principal.ts';
import { usersStore } from '../identity/users-store.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { localBlobStore } from '../storage/local-blob-store.ts';
import { type Clock, systemClock } from '../time/clock.ts';
import {
  DEMO_COMMENTS,
  DEMO_COURSES,
  DEMO_ENROLLMENTS,
  DEMO_LECTURERS,
  DEMO_PAGES,
  DEMO_PEOPLE,
  DEMO_POSTS,
  DEMO_SCHOOL,
  type DemoCourse,
  type DemoLesson,
} from './content.ts';
import { DEMO_MEDIA, demoMediaFacts, demoMediaFile } from './media.ts';
import { createProduct } from './product.ts';
import { type DemoClock, type DemoServices, demoClock, demoServices } from './services.ts';

type Role = keyof typeof DEMO_PEOPLE;

/** The demo fills only an empty school; this says why it would not. */
export class DemoRefused extends Error {
  override name = 'DemoRefused';
}

export type DemoAccount = {
  role: Role;
  name: string;
  email: string;
  /** null when the account existed before (the owner made at first-run setup keeps their password). */
  password: string | null;
};

export type DemoResult = {
  schoolName: string;
  accounts: DemoAccount[];
  counts: {
    courses: number;
    published: number;
    lecturers: number;
    pages: number;
    posts: number;
    comments: number;
    plans: number;
    products: number;
    coupons: number;
    events: number;
  };
};

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** A password to print once: 20 URL-safe characters (120 random bits), no spaces, easy to copy. */
const generatePassword = () => randomBytes(15).toString('base64url');

/** Whole-unit prices scaled to minor units of the currency (cents for EUR, none for JPY). */
function minorUnits(currency: string): number {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits;
  return 10 ** (digits ?? 2);
}

/**
 * The demo's input to a service, checked first against the schema its API operation validates the request body with:
 * what the API would refuse with 400 stops the demo too.
 */
function valid<T extends TSchema>(schema: T, input: Static<T>): Static<T> {
  for (const error of Value.Errors(schema, input)) {
    throw new Error(`demo content: ${error.instancePath || 'the input'} ${error.message}`);
  }
  return input;
}

/** Someone signed in, as the services know a caller (the demo acts as each of its people in turn). */
const signedIn = (userId: string, role: Role): Principal => ({
  kind: 'user',
  userId,
  role,
  clientId: 'demo',
  scopes: new Set(),
});

/** What one step of the demo needs: the services, and the clock it sets to the moment the step happened. */
type Seeding = { s: DemoServices; clock: DemoClock; now: number };

/**
 * Fills an empty school with a believable one: courses with sections and lessons, lecturers, pages, posts with
 * comments, an appearance, and a staff and a student account (and the school and its owner when first-run setup was
 * not done). Everything is made through the services the API uses, each step at the moment it happened (the clock is
 * set back: a course made four months ago, a lesson completed last week), so every object passed the same rules as
 * an API call. Everything is written in one transaction, so a failure leaves the school as it was and the demo can
 * simply be run again; it refuses (DemoRefused) when the school already has content, and then writes nothing.
 */
export async function seedDemoSchool(
  db: Db,
  options: { clock?: Clock; config?: Config; blobs?: BlobStore } = {},
): Promise<DemoResult> {
  const config = options.config ?? loadConfig({});
  const blobs = options.blobs ?? localBlobStore(config.STORAGE_DIR);
  const people = Object.fromEntries(
    (Object.keys(DEMO_PEOPLE) as Role[]).map((role) => {
      const person = DEMO_PEOPLE[role];
      const email = `${person.local}@${DEMO_SCHOOL.emailDomain}`;
      return [role, { role, name: person.name, email, password: generatePassword() }] as const;
    }),
  ) as Record<Role, DemoAccount & { password: string }>;

  return db.transaction().execute(async (trx) => {
    await refuseUnlessEmpty(
      trx,
      Object.values(people).map((p) => p.email),
    );
    const now = (options.clock ?? systemClock).now().getTime();
    const clock = demoClock(now);
    const seeding: Seeding = { s: demoServices(trx, clock, config, blobs), clock, now };
    const owner = await ensureSchoolAndOwner(trx, seeding, people.owner);
    const school = await schoolStore().get(trx);
    if (!school) throw new Error('demo: the school was not made');
    const staffId = await signUp(seeding, 150, people.staff);
    clock.set(now - 150 * DAY_MS + HOUR_MS);
    await seeding.s.staff.invite(
      signedIn(owner.id, 'owner'),
      valid(StaffInvite, { email: people.staff.email, name: people.staff.name }),
    );
    const studentId = await signUp(seeding, 40, people.student);
    const lecturerIds = await createLecturers(seeding, staffId);
    const courses = new Map<string, DemoCourseIds>();
    for (const [index, course] of DEMO_COURSES.entries()) {
      courses.set(
        course.title,
        await createCourse(seeding, staffId, index, course, lecturerIds, school.default_currency),
      );
    }
    await enrollStudent(seeding, studentId, courses);
    await createPlanAndCoupon(seeding, school.default_currency);
    seeding.clock.set(seeding.now - 20 * DAY_MS);
    await createProduct(seeding.s, signedIn(staffId, 'staff'), {
      name: school.name,
      currency: school.default_currency,
      minorUnits: minorUnits(school.default_currency),
    });
    await createEvents(seeding, lecturerIds, school.timezone);
    await createPages(seeding);
    const comments = await createPostsAndComments(
      seeding,
      { staff: signedIn(staffId, 'staff'), student: signedIn(studentId, 'student') },
      courses,
    );
    await ensureAppearance(trx, seeding);
    return {
      schoolName: school.name,
      accounts: [
        owner.created ? people.owner : { ...people.owner, ...owner.existing, password: null },
        people.staff,
        people.student,
      ].map(({ role, name, email, password }) => ({ role, name, email, password })),
      counts: {
        courses: DEMO_COURSES.length,
        published: DEMO_COURSES.filter((c) => !c.draft).length,
        lecturers: DEMO_LECTURERS.length,
        pages: DEMO_PAGES.length,
        posts: DEMO_POSTS.length,
        comments,
        plans: 1,
        products: 1,
        coupons: 1,
        events: 2,
      },
    };
  });
}

async function refuseUnlessEmpty(trx: Executor, emails: string[]) {
  const found: string[] = [];
  for (const table of ['courses', 'lecturers', 'pages', 'posts'] as const) {
    const row = await trx
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(row.n) > 0) found.push(`${row.n} ${table}`);
  }
  if (found.length) {
    throw new DemoRefused(
      `This school already has ${found.join(', ')}; the demo fills only an empty school and changed nothing. ` +
        'Point DATABASE_URL at a new database to try it, e.g. DATABASE_URL=./data/demo.sqlite npm run demo',
    );
  }
  const users = usersStore();
  for (const email of emails) {
    if (await users.emailTaken(trx, email)) {
      throw new DemoRefused(`An account ${email} already exists; the demo changed nothing. Use a new database.`);
    }
  }
}

/**
 * The owner made at first-run setup is kept, with their school; without one the demo goes through first-run setup
 * itself, 160 days ago: the school and its owner are made, and every setup link ends.
 */
async function ensureSchoolAndOwner(
  trx: Executor,
  { s, clock, now }: Seeding,
  account: DemoAccount & { password: string },
): Promise<{ id: string; created: boolean; existing?: { name: string; email: string } }> {
  const existing = await trx
    .selectFrom('users')
    .select(['id', 'name', 'email'])
    .where('role', '=', 'owner')
    .orderBy('created_at')
    .executeTakeFirst();
  if (existing) return { id: existing.id, created: false, existing: { name: existing.name, email: existing.email } };
  clock.set(now - 160 * DAY_MS);
  const token = await s.setup.issueToken();
  if (!token) throw new Error('demo: first-run setup was not needed, yet no owner exists');
  const { ownerId } = await s.setup.complete({
    // The setup page checks its form's CSRF token; the service never reads it.
    _csrf: '',
    token,
    school_name: DEMO_SCHOOL.name,
    default_currency: DEMO_SCHOOL.currency,
    timezone: DEMO_SCHOOL.timezone,
    owner_name: account.name,
    owner_email: account.email,
    owner_password: account.password,
  });
  await s.school.update(valid(SchoolUpdate, { description: DEMO_SCHOOL.description }));
  return { id: ownerId, created: true };
}

/** A person signs up on the school's sign-up page, `daysAgo` days ago. */
async function signUp({ s, clock, now }: Seeding, daysAgo: number, account: DemoAccount & { password: string }) {
  clock.set(now - daysAgo * DAY_MS);
  const user = await s.signin.signUp({
    name: account.name,
    email: account.email,
    password: account.password,
    ip: '127.0.0.1',
  });
  return user.id;
}

async function createLecturers(seeding: Seeding, staffId: string) {
  const { s, clock, now } = seeding;
  const ids: string[] = [];
  for (const [index, lecturer] of DEMO_LECTURERS.entries()) {
    clock.set(now - (150 - index) * DAY_MS + 2 * HOUR_MS);
    const isStaff = 'isStaff' in lecturer && lecturer.isStaff;
    const portrait = await upload(seeding, staffId, 'image', DEMO_MEDIA.portraitFile(lecturer.name), 'image/jpeg');
    const created = await s.lecturers.create(
      valid(LecturerCreate, {
        avatar_asset_id: portrait,
        name: lecturer.name,
        title: lecturer.title,
        bio: lecturer.bio,
        email: isStaff
          ? `${DEMO_PEOPLE.staff.local}@${DEMO_SCHOOL.emailDomain}`
          : `${slugify(lecturer.name.replace(/^Dr\. /, '')).split('-')[0]}@${DEMO_SCHOOL.emailDomain}`,
        user_id: isStaff ? staffId : null,
      }),
    );
    ids.push(created.id);
  }
  return ids;
}

/** `seconds`: the length of the lesson's own file, when the demo ships one (the listed minutes are for the rest). */
function lessonBody(course: DemoCourse, [title, type, minutes]: DemoLesson, seconds?: number): string {
  const length =
    seconds === undefined
      ? `${minutes}-minute`
      : seconds < 60
        ? `${seconds}-second`
        : `${Math.round(seconds / 60)}-minute`;
  switch (type) {
    case 'video':
    case 'audio':
      return (
        `${title}: a ${length} ${type === 'video' ? 'video' : 'recording'} from ${course.title}. ` +
        'Pause whenever you like and try each step yourself before moving on.'
      );
    case 'pdf':
    case 'download':
      return `${title}: print it or keep it open beside you while you work through ${course.title}.`;
    case 'quiz':
      return `${title}: three quick questions on this section. You need two right to pass; try as often as you like.`;
    case 'embed':
      return `${title}: an interactive exercise. Follow its instructions, then compare with the next lesson.`;
    default:
      return [
        title,
        `This lesson of ${course.title} sums up the key ideas in writing, so you can come back to them later.`,
        'Read it once, then try the short exercise at the end before you continue.',
      ].join('\n\n');
  }
}

/** Three questions any section can ask: about the course itself and about how to learn it. */
function demoQuiz(course: DemoCourse): QuizInput {
  return {
    pass_percent: 66,
    max_attempts: null,
    questions: [
      {
        prompt: `Which course is this quiz part of?`,
        choices: [course.title, 'A course on something else', 'None of them'],
        answers: [0],
      },
      {
        prompt: 'What helps most when a step does not work the first time?',
        choices: ['Skipping it', 'Trying it again slowly', 'Asking what went wrong', 'Giving up'],
        answers: [1, 2],
        explanation: 'Going slower and asking why both help; skipping leaves a gap.',
      },
      {
        prompt: 'How often should you practise?',
        choices: ['A little, every day', 'Once a year'],
        answers: [0],
      },
    ],
  };
}

/**
 * One of the demo's own files (src/demo/media, made by scripts/demo-media.ts) uploaded as staff would: announced,
 * then its bytes checked and stored by the storage area. Its id.
 */
async function upload(
  { s }: Seeding,
  staffId: string,
  purpose: 'image' | 'video' | 'audio' | 'pdf' | 'captions',
  file: string,
  contentType: string,
): Promise<string> {
  const bytes = demoMediaFile(file);
  const staff = signedIn(staffId, 'staff');
  const asset = await s.storage.create(staff, {
    purpose,
    filename: file,
    content_type: contentType,
    byte_size: bytes.length,
  });
  await s.storage.upload(
    asset.id,
    (async function* () {
      yield bytes;
    })(),
    bytes.length,
  );
  return asset.id;
}

/**
 * The demo's own media for a lesson of Watercolour for Beginners: the welcome video (with its captions and poster),
 * the spoken introduction and the materials checklist; nothing for any other lesson.
 */
async function lessonMedia(seeding: Seeding, staffId: string, [title]: DemoLesson) {
  const facts = demoMediaFacts();
  const { video, audio, pdf } = DEMO_MEDIA;
  if (title === video.lesson) {
    return {
      asset_id: await upload(seeding, staffId, 'video', video.file, 'video/mp4'),
      duration_s: facts.video_s,
      poster_asset_id: await upload(seeding, staffId, 'image', video.poster, 'image/jpeg'),
      captions: [
        {
          asset_id: await upload(seeding, staffId, 'captions', video.captions, 'text/vtt'),
          language: 'en',
          label: 'English',
        },
      ],
    };
  }
  if (title === audio.lesson) {
    return {
      asset_id: await upload(seeding, staffId, 'audio', audio.file, 'audio/mpeg'),
      duration_s: facts.audio_s,
      captions: [
        {
          asset_id: await upload(seeding, staffId, 'captions', audio.captions, 'text/vtt'),
          language: 'en',
          label: 'English',
        },
      ],
    };
  }
  if (title === pdf.lesson) return { asset_id: await upload(seeding, staffId, 'pdf', pdf.file, 'application/pdf') };
  return undefined;
}

/** Where a lesson's file would be: the demo uploads none, and a published video, audio, PDF or download needs one. */
function assetUrl(course: DemoCourse, [title, type]: DemoLesson): string | undefined {
  const extension = { video: 'mp4', audio: 'mp3', pdf: 'pdf', download: 'zip' } as const;
  if (!(type in extension)) return undefined;
  return `https://media.${DEMO_SCHOOL.emailDomain}/${slugify(course.title)}/${slugify(title)}.${extension[type as keyof typeof extension]}`;
}

type DemoCourseIds = { id: string; lessons: { id: string; type: DemoLesson[1]; dripDays: number }[] };

async function createCourse(
  seeding: Seeding,
  staffId: string,
  index: number,
  course: DemoCourse,
  lecturerIds: string[],
  currency: string,
): Promise<DemoCourseIds> {
  const { s, clock, now } = seeding;
  // Spread over the last four months, so the catalog has a history; published a day after being created.
  const createdMs = now - (130 - index * 10) * DAY_MS;
  clock.set(createdMs);
  const cover = await upload(seeding, staffId, 'image', DEMO_MEDIA.coverFile(course.title), 'image/jpeg');
  const { id } = await s.courses.create(
    valid(CourseCreate, {
      cover_asset_id: cover,
      title: course.title,
      subtitle: course.subtitle,
      description: course.description,
      lecturer_ids: course.lecturers.map((i) => lecturerIds[i] as string),
      price: course.price === null ? null : { amount: course.price * minorUnits(currency), currency },
    }),
  );
  const sectionIds: string[] = [];
  const lessons: DemoCourseIds['lessons'] = [];
  for (const section of course.sections) {
    const made = await s.curriculum.createSection(
      id,
      valid(SectionCreate, {
        title: section.title,
        drip: section.dripDays ? { type: 'days_after_enrollment', days: section.dripDays } : { type: 'none' },
      }),
    );
    sectionIds.push(made.id);
    for (const lesson of section.lessons) {
      const [title, type, minutes, preview] = lesson;
      const own = course.title === DEMO_MEDIA.course ? await lessonMedia(seeding, staffId, lesson) : undefined;
      const url = own ? undefined : assetUrl(course, lesson);
      const created = await s.curriculum.createLesson(
        made.id,
        valid(LessonCreate, {
          title,
          type,
          body: lessonBody(course, lesson, own?.duration_s),
          ...(url ? { asset_url: url } : {}),
          ...(minutes === undefined ? {} : { duration_s: minutes * 60 }),
          ...own,
          is_preview: Boolean(preview),
          ...(type === 'quiz' ? { quiz: demoQuiz(course) } : {}),
        }),
      );
      lessons.push({ id: created.id, type, dripDays: section.dripDays ?? 0 });
    }
  }
  if (!course.draft) {
    clock.set(createdMs + DAY_MS);
    await s.courses.publishWithContents(id);
  }
  return { id, lessons };
}

/** The answers that pass demoQuiz. */
const QUIZ_ANSWERS = [[0], [1, 2], [0]];

/**
 * Enrolls the demo student, weeks ago, and has them work through the first lessons of each course (as many as the
 * demo's share), an hour apart and never before a lesson's section has opened: the students area counts the progress
 * and completes the enrollment (and issues its certificate) as it would for a real student.
 */
async function enrollStudent({ s, clock, now }: Seeding, studentId: string, courses: Map<string, DemoCourseIds>) {
  const student = signedIn(studentId, 'student');
  for (const [index, [title, share]] of DEMO_ENROLLMENTS.entries()) {
    const course = courses.get(title);
    if (!course) throw new Error(`demo content: no course "${title}" to enroll in`);
    const enrolledMs = now - (35 - index * 10) * DAY_MS;
    clock.set(enrolledMs);
    await s.students.enroll(studentId, valid(EnrollmentCreate, { course_id: course.id, source: 'manual' }));
    const done = Math.round((share * course.lessons.length) / 100);
    let at = enrolledMs;
    for (const lesson of course.lessons.slice(0, done)) {
      at = Math.max(at, enrolledMs + lesson.dripDays * DAY_MS) + HOUR_MS;
      if (at > now) throw new Error(`demo content: "${title}" cannot be this far along yet`);
      clock.set(at);
      if (lesson.type === 'quiz')
        await s.students.submitMyQuiz(student, lesson.id, valid(QuizSubmission, { answers: QUIZ_ANSWERS }));
      else await s.students.completeLesson(studentId, lesson.id);
    }
  }
}

/**
 * Something to sell beyond single courses: an all-access membership of every published course (monthly with a
 * 14-day trial, or yearly), and a welcome coupon. Try them with PAYMENTS_PROVIDER=test.
 */
async function createPlanAndCoupon({ s, clock, now }: Seeding, currency: string) {
  clock.set(now);
  const plan = await s.membershipPlans.create(
    valid(PlanCreate, {
      name: 'All-access membership',
      slug: 'all-access',
      description: 'Every published course of the school, for as long as you stay a member.',
      benefits: ['Every published course', 'New courses as they come out', 'Cancel at any time'],
      visibility: 'public',
      // Its promise is a rule, not a list: a course published later is in it too.
      includes_all_courses: true,
    }),
  );
  for (const price of [
    { amount: 1900, currency, interval: 'month' as const, trial_days: 14 },
    { amount: 19000, currency, interval: 'year' as const, trial_days: 0 },
  ])
    await s.membershipPlans.createPrice(plan.id, valid(PriceCreate, price));
  await s.coupons.create(valid(CouponCreate, { code: 'WELCOME10', percent_off: 10 }));
}

/**
 * Two upcoming events in the school's zone: an online question time next week (the join link is a placeholder to
 * change) and an in-person studio afternoon with a dozen seats, each led by a lecturer.
 */
async function createEvents({ s, clock, now }: Seeding, lecturerIds: string[], timeZone: string) {
  // 18:00 and 14:00 in the school's zone, 7 and 14 days on (the zone's offset then, so DST is honoured).
  const localHour = (days: number, hour: number) => {
    const day = new Date(now + days * DAY_MS);
    const ymd = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(day);
    const guess = Date.parse(`${ymd}T${String(hour).padStart(2, '0')}:00:00Z`);
    const shown = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(guess);
    // The zone's offset in whole hours, between -12 and +12 (the shown hour wraps around midnight).
    const offset = ((((Number(shown) - hour) % 24) + 36) % 24) - 12;
    return guess - offset * HOUR_MS;
  };
  const events = [
    {
      title: 'Live Q&A: your questions on learning a language',
      slug: 'live-q-and-a',
      description: 'An hour of questions and answers with our lecturers. Register to get the link to join.',
      starts: localHour(7, 18),
      minutes: 60,
      where: { join_url: 'https://meet.example.com/lyceum-demo-q-and-a' },
    },
    {
      title: 'Open studio afternoon',
      slug: 'open-studio-afternoon',
      description: 'Bring a sketchbook: a relaxed afternoon of drawing together, with feedback as you go.',
      starts: localHour(14, 14),
      minutes: 180,
      where: { address: 'The school studio, 1 Example Street', capacity: 12 },
    },
  ];
  clock.set(now);
  for (const [index, event] of events.entries()) {
    await s.events.create(
      valid(EventCreate, {
        title: event.title,
        slug: event.slug,
        description: event.description,
        starts_at: new Date(event.starts).toISOString(),
        ends_at: new Date(event.starts + event.minutes * 60_000).toISOString(),
        timezone: timeZone,
        ...event.where,
        join_opens_minutes: 15,
        lecturer_ids: [lecturerIds[index % lecturerIds.length] as string],
        visibility: 'public',
      }),
    );
  }
}

/** The school's pages, published the day they were written, and a question form under the FAQ. */
async function createPages({ s, clock, now }: Seeding) {
  for (const [index, page] of DEMO_PAGES.entries()) {
    clock.set(now - (140 - index) * DAY_MS);
    const created = await s.pages.create(
      valid(PageCreate, {
        title: page.title,
        slug: page.slug,
        draft_body: page.body,
        seo_title: `${page.title} · ${DEMO_SCHOOL.name}`,
        seo_description: page.seo,
      }),
    );
    await s.pages.publish(created.id);
    // A question form under the FAQ: what a school puts on its pages first. Notices go to the school's support e-mail.
    if (page.slug === 'faq') {
      clock.set(now);
      await s.forms.create(
        valid(FormCreate, {
          title: 'Ask us a question',
          page_id: created.id,
          fields: FAQ_FIELDS,
          success_message: 'Thank you! We answer within two working days.',
          notify_emails: [],
          status: 'active',
        }),
      );
    }
  }
}

const FAQ_FIELDS: FormField[] = [
  { name: 'name', label: 'Your name', type: 'text', required: true, help: null, max_length: 200 },
  { name: 'email', label: 'Your e-mail', type: 'email', required: true, help: null, max_length: 254 },
  {
    name: 'topic',
    label: 'What is it about?',
    type: 'choice',
    required: true,
    help: null,
    max_length: null,
    options: ['A course', 'Membership and payments', 'Something else'],
  },
  { name: 'question', label: 'Your question', type: 'long_text', required: true, help: null, max_length: 5000 },
  {
    name: 'consent',
    label: 'I agree that the school keeps my question and e-mail address to answer me.',
    type: 'consent',
    required: true,
    help: null,
    max_length: null,
  },
];

/**
 * The posts (published `days` ago, one scheduled `-days` days on, one draft from yesterday) and the conversations
 * under them, each comment an hour after the one before; and one question on a lesson of a course the student is
 * enrolled in, answered the next day by the staff member.
 */
async function createPostsAndComments(
  { s, clock, now }: Seeding,
  authors: Record<'staff' | 'student', Principal>,
  courses: Map<string, DemoCourseIds>,
) {
  const published = new Map<string, { id: string; publishedMs: number }>();
  for (const post of DEMO_POSTS) {
    const publishedMs = post.days === null ? null : now - post.days * DAY_MS;
    clock.set(Math.min(publishedMs ?? now, now) - DAY_MS);
    const created = await s.posts.create(
      valid(PostCreate, {
        title: post.title,
        slug: post.slug,
        body: post.body,
        excerpt: post.excerpt,
        tags: [...post.tags],
        visibility: 'public',
      }),
    );
    if (publishedMs === null) continue;
    if (publishedMs > now) {
      await s.posts.schedule(created.id, valid(PostSchedule, { publish_at: new Date(publishedMs).toISOString() }));
      continue;
    }
    clock.set(publishedMs);
    await s.posts.publish(created.id);
    published.set(post.slug, { id: created.id, publishedMs });
  }

  const made: string[] = [];
  for (const [index, c] of DEMO_COMMENTS.entries()) {
    const post = published.get(c.post);
    if (!post) throw new Error(`demo content: no published post "${c.post}" to comment on`);
    clock.set(post.publishedMs + (index + 1) * HOUR_MS);
    const comment = await s.comments.create(authors[c.author], {
      target_type: 'post',
      target_id: post.id,
      body: c.body,
      parent_id: c.replyTo === undefined ? null : made[c.replyTo],
    });
    made.push(comment.id);
  }

  // "Flat and graded washes".
  const lesson = courses.get('Watercolour for Beginners')?.lessons[3];
  if (!lesson) throw new Error('demo content: no lesson to comment on');
  clock.set(now - 2 * DAY_MS);
  const question = await s.comments.create(authors.student, {
    target_type: 'lesson',
    target_id: lesson.id,
    body: 'My graded washes keep drying with stripes. Is my paper too dry?',
  });
  clock.set(now - DAY_MS);
  await s.comments.create(authors.staff, {
    target_type: 'lesson',
    target_id: lesson.id,
    body: 'Probably: tilt the board a little more and load the brush fully for every stroke.',
    parent_id: question.id,
  });
  return made.length + 2;
}

/** A look of its own (teal, serif headings) unless staff already chose one. */
async function ensureAppearance(trx: Executor, { s, clock, now }: Seeding) {
  if (await trx.selectFrom('appearance').select('id').executeTakeFirst()) return;
  clock.set(now);
  await s.appearance.update(
    valid(AppearanceUpdate, {
      colors: { primary: '#0f766e', accent: '#b45309', background: '#ffffff', text: '#1f2937' },
      fonts: { heading: 'Georgia', body: 'system-ui' },
      navigation: [],
      custom_css: '',
    }),
  );
}
