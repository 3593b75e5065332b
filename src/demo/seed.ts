import { randomBytes } from 'node:crypto';
import type { Appearance } from '../areas/appearance/schema.ts';
import { appearanceStore } from '../areas/appearance/store.ts';
import { coursesStore } from '../areas/courses/store.ts';
import type { QuizInput } from '../areas/curriculum/schema.ts';
import type { FormField } from '../areas/forms/schema.ts';
import { schoolStore } from '../areas/school/store.ts';
import { slugify } from '../areas/slugs.ts';
import { newId } from '../db/ids.ts';
import type {
  CommentsTable,
  Db,
  EnrollmentsTable,
  EventsTable,
  Executor,
  LecturersTable,
  LessonProgressTable,
  LessonsTable,
  PagesTable,
  PostsTable,
  SectionsTable,
} from '../db/tables.ts';
import { usersStore } from '../identity/users-store.ts';
import { hashPassword } from '../security/passwords.ts';
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

/** Every write below runs inside the one transaction of seedDemoSchool. */
type Trx = Executor;
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
    coupons: number;
    events: number;
  };
};

const DAY_MS = 86_400_000;

/** A password to print once: 20 URL-safe characters (120 random bits), no spaces, easy to copy. */
const generatePassword = () => randomBytes(15).toString('base64url');

/** Whole-unit prices scaled to minor units of the currency (cents for EUR, none for JPY). */
function minorUnits(currency: string): number {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits;
  return 10 ** (digits ?? 2);
}

/**
 * Fills an empty school with a believable one: courses with sections and lessons, lecturers, pages, posts with
 * comments, an appearance, and a staff and a student account (and the school and its owner when first-run setup was
 * not done). Everything is written in one transaction, so a failure leaves the school as it was and the demo can
 * simply be run again; it refuses (DemoRefused) when the school already has content, and then writes nothing.
 */
export async function seedDemoSchool(db: Db, options: { clock?: Clock } = {}): Promise<DemoResult> {
  const clock = options.clock ?? systemClock;
  const people = Object.fromEntries(
    await Promise.all(
      (Object.keys(DEMO_PEOPLE) as Role[]).map(async (role) => {
        const password = generatePassword();
        const person = DEMO_PEOPLE[role];
        const email = `${person.local}@${DEMO_SCHOOL.emailDomain}`;
        return [role, { role, name: person.name, email, password, hash: await hashPassword(password) }] as const;
      }),
    ),
  ) as Record<Role, DemoAccount & { password: string; hash: string }>;

  return db.transaction().execute(async (trx) => {
    await refuseUnlessEmpty(
      trx,
      Object.values(people).map((p) => p.email),
    );
    const now = clock.now().getTime();
    const school = await ensureSchool(trx, now, people.owner.email);
    const owner = await ensureOwner(trx, now, people.owner);
    const staffId = await insertUser(trx, now, 'staff', people.staff);
    const studentId = await insertUser(trx, now, 'student', people.student);
    const lecturerIds = await insertLecturers(trx, now, staffId);
    const courseIds = new Map<string, { id: string; lessonIds: string[] }>();
    for (const [index, course] of DEMO_COURSES.entries()) {
      courseIds.set(course.title, await insertCourse(trx, now, index, course, lecturerIds, school.currency));
    }
    await enrollStudent(trx, now, studentId, courseIds);
    await insertPlanAndCoupon(trx, now, school.currency);
    await insertEvents(trx, now, lecturerIds, school.timezone);
    await insertPages(trx, now);
    const comments = await insertPostsAndComments(trx, now, { staff: staffId, student: studentId }, courseIds);
    await ensureAppearance(trx, now);
    return {
      schoolName: school.name,
      accounts: [
        owner.created ? owner.account : { ...owner.account, password: null },
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
        coupons: 1,
        events: 2,
      },
    };
  });
}

/**
 * Something to sell beyond single courses: an all-access membership of every published course (monthly with a
 * 14-day trial, or yearly), and a welcome coupon. Try them with PAYMENTS_PROVIDER=test.
 */
async function insertPlanAndCoupon(trx: Trx, now: number, currency: string) {
  const at = new Date(now).toISOString();
  const planId = newId('pln', now);
  await trx
    .insertInto('membership_plans')
    .values({
      id: planId,
      name: 'All-access membership',
      slug: 'all-access',
      description: 'Every published course of the school, for as long as you stay a member.',
      benefits: JSON.stringify(['Every published course', 'New courses as they come out', 'Cancel at any time']),
      visibility: 'public',
      status: 'active',
      // Its promise is a rule, not a list: a course published later is in it too.
      includes_all_courses: 1,
      archived_at: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await trx
    .insertInto('plan_prices')
    .values(
      [
        { interval: 'month' as const, amount: 1900, trial_days: 14 },
        { interval: 'year' as const, amount: 19000, trial_days: 0 },
      ].map((price) => ({
        id: newId('pri', now),
        plan_id: planId,
        currency,
        status: 'active' as const,
        provider_price_id: null,
        archived_at: null,
        created_at: at,
        ...price,
      })),
    )
    .execute();
  await trx
    .insertInto('coupons')
    .values({
      id: newId('cpn', now),
      code: 'WELCOME10',
      percent_off: 10,
      amount_off: null,
      currency: null,
      applies_to: JSON.stringify({ all: true }),
      starts_at: null,
      expires_at: null,
      max_redemptions: null,
      disabled_at: null,
      batch: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

async function refuseUnlessEmpty(trx: Trx, emails: string[]) {
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

async function ensureSchool(trx: Trx, now: number, supportEmail: string) {
  const store = schoolStore();
  const existing = await store.get(trx);
  if (existing) return { name: existing.name, currency: existing.default_currency, timezone: existing.timezone };
  const at = new Date(now - 160 * DAY_MS).toISOString();
  await store.insert(trx, {
    name: DEMO_SCHOOL.name,
    description: DEMO_SCHOOL.description,
    default_currency: DEMO_SCHOOL.currency,
    timezone: DEMO_SCHOOL.timezone,
    locale: 'en',
    support_email: supportEmail,
    terms_url: null,
    privacy_url: null,
    signup_enabled: 1,
    created_at: at,
    updated_at: at,
  });
  return { name: DEMO_SCHOOL.name, currency: DEMO_SCHOOL.currency, timezone: DEMO_SCHOOL.timezone };
}

/**
 * Two upcoming events in the school's zone: an online question time next week (the join link is a placeholder to
 * change) and an in-person studio afternoon with a dozen seats, each led by a lecturer.
 */
async function insertEvents(trx: Trx, now: number, lecturerIds: string[], timeZone: string) {
  const at = new Date(now).toISOString();
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
    return guess - offset * 3_600_000;
  };
  const rows: EventsTable[] = [
    {
      title: 'Live Q&A: your questions on learning a language',
      slug: 'live-q-and-a',
      description: 'An hour of questions and answers with our lecturers. Register to get the link to join.',
      starts: localHour(7, 18),
      minutes: 60,
      address: null,
      join_url: 'https://meet.example.com/lyceum-demo-q-and-a',
      capacity: null,
    },
    {
      title: 'Open studio afternoon',
      slug: 'open-studio-afternoon',
      description: 'Bring a sketchbook: a relaxed afternoon of drawing together, with feedback as you go.',
      starts: localHour(14, 14),
      minutes: 180,
      address: 'The school studio, 1 Example Street',
      join_url: null,
      capacity: 12,
    },
  ].map((e, index) => ({
    id: newId('evt', now + index),
    title: e.title,
    slug: e.slug,
    description: e.description,
    starts_at: new Date(e.starts).toISOString(),
    ends_at: new Date(e.starts + e.minutes * 60_000).toISOString(),
    timezone: timeZone,
    address: e.address,
    join_url: e.join_url,
    join_opens_minutes: 15,
    capacity: e.capacity,
    course_id: null,
    plan_id: null,
    visibility: 'public',
    sequence: 0,
    canceled_at: null,
    created_at: at,
    updated_at: at,
  }));
  await trx.insertInto('events').values(rows).execute();
  await trx
    .insertInto('event_lecturers')
    .values(
      rows.map((row, index) => ({
        event_id: row.id,
        lecturer_id: lecturerIds[index % lecturerIds.length] as string,
        position: 0,
      })),
    )
    .execute();
}

/** The owner made at first-run setup is kept; without one the demo makes it, which also ends any setup link. */
async function ensureOwner(trx: Trx, now: number, account: DemoAccount & { password: string; hash: string }) {
  const existing = await trx
    .selectFrom('users')
    .select(['name', 'email'])
    .where('role', '=', 'owner')
    .orderBy('created_at')
    .executeTakeFirst();
  if (existing) return { created: false, account: { ...account, ...existing } };
  await insertUser(trx, now, 'owner', account);
  await trx
    .updateTable('setup_tokens')
    .set({ used_at: new Date(now).toISOString() })
    .where('used_at', 'is', null)
    .execute();
  return { created: true, account };
}

async function insertUser(trx: Trx, now: number, role: Role, account: { name: string; email: string; hash: string }) {
  const createdMs = now - (role === 'owner' ? 160 : role === 'staff' ? 150 : 40) * DAY_MS;
  const at = new Date(createdMs).toISOString();
  const id = newId('usr', createdMs);
  await usersStore().insert(trx, {
    id,
    email: account.email,
    name: account.name,
    role,
    status: 'active',
    password_hash: account.hash,
    locale: null,
    created_at: at,
    updated_at: at,
  });
  return id;
}

async function insertLecturers(trx: Trx, now: number, staffId: string) {
  const rows: LecturersTable[] = DEMO_LECTURERS.map((lecturer, index) => {
    const createdMs = now - (150 - index) * DAY_MS;
    const at = new Date(createdMs).toISOString();
    const isStaff = 'isStaff' in lecturer && lecturer.isStaff;
    return {
      id: newId('lec', createdMs),
      name: lecturer.name,
      title: lecturer.title,
      bio: lecturer.bio,
      avatar_url: null,
      email: isStaff
        ? `${DEMO_PEOPLE.staff.local}@${DEMO_SCHOOL.emailDomain}`
        : `${slugify(lecturer.name.replace(/^Dr\. /, '')).split('-')[0]}@${DEMO_SCHOOL.emailDomain}`,
      user_id: isStaff ? staffId : null,
      status: 'active',
      created_at: at,
      updated_at: at,
    };
  });
  await trx.insertInto('lecturers').values(rows).execute();
  return rows.map((row) => row.id);
}

function lessonBody(course: DemoCourse, [title, type, minutes]: DemoLesson): string {
  switch (type) {
    case 'video':
    case 'audio':
      return (
        `${title}: a ${minutes}-minute ${type === 'video' ? 'video' : 'recording'} from ${course.title}. ` +
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

async function insertCourse(
  trx: Trx,
  now: number,
  index: number,
  course: DemoCourse,
  lecturerIds: string[],
  currency: string,
) {
  // Spread over the last four months, so the catalog has a history; published a day after being created.
  const createdMs = now - (130 - index * 10) * DAY_MS;
  const created = new Date(createdMs).toISOString();
  const status = course.draft ? 'draft' : 'published';
  const id = newId('crs', createdMs);
  await coursesStore().insert(trx, {
    id,
    title: course.title,
    slug: slugify(course.title),
    subtitle: course.subtitle,
    description: course.description,
    cover_url: null,
    lecturer_ids: JSON.stringify(course.lecturers.map((i) => lecturerIds[i])),
    price_amount: course.price === null ? null : course.price * minorUnits(currency),
    price_currency: course.price === null ? null : currency,
    status,
    visibility: 'public',
    enrollment_open: 1,
    published_at: course.draft ? null : new Date(createdMs + DAY_MS).toISOString(),
    created_at: created,
    updated_at: created,
  });
  const sections: SectionsTable[] = [];
  const lessons: LessonsTable[] = [];
  for (const [sectionPosition, section] of course.sections.entries()) {
    const sectionId = newId('sec', createdMs);
    sections.push({
      id: sectionId,
      course_id: id,
      title: section.title,
      position: sectionPosition,
      drip_type: section.dripDays ? 'days_after_enrollment' : 'none',
      drip_days: section.dripDays ?? null,
      drip_date: null,
      status,
      created_at: created,
      updated_at: created,
    });
    for (const [position, lesson] of section.lessons.entries()) {
      lessons.push({
        id: newId('les', createdMs),
        course_id: id,
        section_id: sectionId,
        title: lesson[0],
        type: lesson[1],
        body: lessonBody(course, lesson),
        asset_url: null,
        duration_s: lesson[2] === undefined ? null : lesson[2] * 60,
        is_preview: lesson[3] ? 1 : 0,
        position,
        status,
        quiz: lesson[1] === 'quiz' ? JSON.stringify(demoQuiz(course)) : null,
        created_at: created,
        updated_at: created,
      });
    }
  }
  await trx.insertInto('sections').values(sections).execute();
  await trx.insertInto('lessons').values(lessons).execute();
  return { id, lessonIds: lessons.map((l) => l.id) };
}

/**
 * Enrolls the demo student with some progress: the first lessons of each course completed (as many as the demo's
 * share), so the progress the students area derives from lesson_progress agrees with the enrollment's percent.
 */
async function enrollStudent(
  trx: Trx,
  now: number,
  studentId: string,
  courses: Map<string, { id: string; lessonIds: string[] }>,
) {
  const completions: LessonProgressTable[] = [];
  const rows: EnrollmentsTable[] = DEMO_ENROLLMENTS.map(([title, share], index) => {
    const course = courses.get(title);
    if (!course) throw new Error(`demo content: no course "${title}" to enroll in`);
    const enrolledMs = now - (35 - index * 10) * DAY_MS;
    const total = course.lessonIds.length;
    const done = Math.round((share * total) / 100);
    for (const [i, lessonId] of course.lessonIds.slice(0, done).entries()) {
      completions.push({
        user_id: studentId,
        lesson_id: lessonId,
        course_id: course.id,
        completed_at: new Date(enrolledMs + (i + 1) * 3_600_000).toISOString(),
      });
    }
    const complete = total > 0 && done === total;
    return {
      id: newId('enr', enrolledMs),
      course_id: course.id,
      user_id: studentId,
      source: 'manual',
      status: complete ? 'completed' : 'active',
      enrolled_at: new Date(enrolledMs).toISOString(),
      expires_at: null,
      completed_at: complete ? new Date(enrolledMs + done * 3_600_000).toISOString() : null,
      progress_percent: total === 0 ? 0 : Math.floor((done * 100) / total),
    };
  });
  await trx.insertInto('enrollments').values(rows).execute();
  if (completions.length) await trx.insertInto('lesson_progress').values(completions).execute();
}

async function insertPages(trx: Trx, now: number) {
  const rows: PagesTable[] = DEMO_PAGES.map((page, index) => {
    const createdMs = now - (140 - index) * DAY_MS;
    const at = new Date(createdMs).toISOString();
    return {
      id: newId('pag', createdMs),
      title: page.title,
      slug: page.slug,
      draft_body: page.body,
      published_body: page.body,
      seo_title: `${page.title} · ${DEMO_SCHOOL.name}`,
      seo_description: page.seo,
      status: 'published',
      published_at: at,
      created_at: at,
      updated_at: at,
    };
  });
  await trx.insertInto('pages').values(rows).execute();
  // A question form under the FAQ: what a school puts on its pages first. Notices go to the school's support e-mail.
  const faq = rows.find((row) => row.slug === 'faq');
  if (faq) {
    const at = new Date(now).toISOString();
    const fields: FormField[] = [
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
    await trx
      .insertInto('forms')
      .values({
        id: newId('frm', now),
        page_id: faq.id,
        title: 'Ask us a question',
        fields: JSON.stringify(fields),
        success_message: 'Thank you! We answer within two working days.',
        notify_emails: '[]',
        status: 'active',
        created_at: at,
        updated_at: at,
      })
      .execute();
  }
}

async function insertPostsAndComments(
  trx: Trx,
  now: number,
  authors: Record<'staff' | 'student', string>,
  courses: Map<string, { lessonIds: string[] }>,
) {
  const posts = new Map<string, { id: string; publishedMs: number }>();
  const postRows: PostsTable[] = DEMO_POSTS.map((post) => {
    // Published posts are dated `days` ago; the scheduled one is due in `-days` days; the draft is from yesterday.
    const publishedMs = post.days === null ? null : now - post.days * DAY_MS;
    const createdMs = Math.min(publishedMs ?? now, now) - DAY_MS;
    const status = post.days === null ? 'draft' : post.days < 0 ? 'scheduled' : 'published';
    const id = newId('pst', createdMs);
    if (status === 'published') posts.set(post.slug, { id, publishedMs: publishedMs as number });
    return {
      id,
      title: post.title,
      slug: post.slug,
      body: post.body,
      excerpt: post.excerpt,
      cover_url: null,
      tags: JSON.stringify(post.tags),
      visibility: 'public',
      plan_ids: '[]',
      status,
      scheduled_at: status === 'scheduled' ? new Date(publishedMs as number).toISOString() : null,
      published_at: status === 'published' ? new Date(publishedMs as number).toISOString() : null,
      created_at: new Date(createdMs).toISOString(),
      updated_at: new Date(createdMs).toISOString(),
    };
  });
  await trx.insertInto('posts').values(postRows).execute();

  const comment = (
    target: Pick<CommentsTable, 'target_type' | 'target_id'>,
    fields: Pick<CommentsTable, 'id' | 'user_id' | 'parent_id' | 'body'>,
    createdMs: number,
  ): CommentsTable => {
    const at = new Date(createdMs).toISOString();
    return { ...target, ...fields, status: 'visible', created_at: at, updated_at: at };
  };
  const comments: CommentsTable[] = [];
  for (const [index, c] of DEMO_COMMENTS.entries()) {
    const post = posts.get(c.post);
    if (!post) throw new Error(`demo content: no published post "${c.post}" to comment on`);
    const createdMs = post.publishedMs + (index + 1) * 3_600_000;
    const fields = {
      id: newId('cmt', createdMs),
      user_id: authors[c.author],
      parent_id: c.replyTo === undefined ? null : comments[c.replyTo].id,
      body: c.body,
    };
    comments.push(comment({ target_type: 'post', target_id: post.id }, fields, createdMs));
  }

  // One question on a lesson of a course the student is enrolled in, answered by the staff member.
  const lessonId = courses.get('Watercolour for Beginners')?.lessonIds[2];
  if (!lessonId) throw new Error('demo content: no lesson to comment on');
  const onLesson = { target_type: 'lesson', target_id: lessonId } as const;
  const question = newId('cmt', now - 2 * DAY_MS);
  comments.push(
    comment(
      onLesson,
      {
        id: question,
        parent_id: null,
        user_id: authors.student,
        body: 'My graded washes keep drying with stripes. Is my paper too dry?',
      },
      now - 2 * DAY_MS,
    ),
    comment(
      onLesson,
      {
        id: newId('cmt', now - DAY_MS),
        parent_id: question,
        user_id: authors.staff,
        body: 'Probably: tilt the board a little more and load the brush fully for every stroke.',
      },
      now - DAY_MS,
    ),
  );
  await trx.insertInto('comments').values(comments).execute();
  return comments.length;
}

/** A look of its own (teal, serif headings) unless staff already chose one. */
async function ensureAppearance(trx: Trx, now: number) {
  const store = appearanceStore();
  if (await store.get(trx)) return;
  const colors: Appearance['colors'] = {
    primary: '#0f766e',
    accent: '#b45309',
    background: '#ffffff',
    text: '#1f2937',
  };
  const fonts: Appearance['fonts'] = { heading: 'Georgia', body: 'system-ui' };
  const navigation: Appearance['navigation'] = [];
  await store.upsert(trx, {
    logo_url: null,
    colors: JSON.stringify(colors),
    fonts: JSON.stringify(fonts),
    navigation: JSON.stringify(navigation),
    custom_css: '',
    updated_at: new Date(now).toISOString(),
  });
}
