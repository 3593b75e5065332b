import type { CoursesTable, Db, LessonsTable, SectionsTable } from '../../db/tables.ts';
import { isStaff, type Principal } from '../../http/principal.ts';
import type { Clock } from '../../time/clock.ts';
import type { CoursesService } from '../courses/service.ts';
import type { StorageService } from '../storage/service.ts';
import { parsedCaptions } from './captions.ts';
import type { CourseRowsPort, EnrollmentPort } from './ports.ts';
import { quizView } from './quiz.ts';
import type { Lesson, QuizInput, Section } from './schema.ts';
import type { CurriculumStore } from './store.ts';

/**
 * What a caller may see of one course's curriculum. `staff` sees everything; otherwise only published sections and
 * lessons, with bodies of previews, and — for an enrolled student (`enrolledAt` set) — of every lesson drip has opened.
 */
export type Access = { staff: boolean; enrolledAt: Date | null };

export type DripColumns = Pick<SectionsTable, 'drip_type' | 'drip_days' | 'drip_date'>;

const DAY_MS = 86_400_000;
export const STAFF_ACCESS: Access = { staff: true, enrolledAt: null };
/** Staff views ignore drip, so they need no section to compute it from. */
export const NO_DRIP: DripColumns = { drip_type: 'none', drip_days: null, drip_date: null };

/** When drip opens a section to a student enrolled at `enrolledAt`; null when it never holds it back. */
function opensAt(section: DripColumns, enrolledAt: Date | null): Date | null {
  if (section.drip_type === 'on_date' && section.drip_date) return new Date(section.drip_date);
  if (section.drip_type === 'days_after_enrollment' && enrolledAt && section.drip_days !== null) {
    return new Date(enrolledAt.getTime() + Number(section.drip_days) * DAY_MS);
  }
  return null;
}

/**
 * The one rule of what a caller sees of a course's curriculum, for every read and for the writes' answers: who has
 * access to a course (staff, a visitor of a visible course, an enrolled student), what drip holds back and until when,
 * and a section or lesson as that caller sees it (a locked lesson has no body, file or quiz).
 */
export function curriculumAccess(deps: {
  db: Db;
  clock: Clock;
  store: CurriculumStore;
  courses: Pick<CoursesService, 'visibleTo'>;
  courseRows: CourseRowsPort;
  enrollments: EnrollmentPort;
  storage: Pick<StorageService, 'signedUrl' | 'publicUrl'>;
}) {
  const { db, clock, store, courses, storage } = deps;
  const now = () => clock.now().toISOString();

  async function accessTo(principal: Principal, course: CoursesTable): Promise<Access | undefined> {
    if (isStaff(principal)) return STAFF_ACCESS;
    if (!(await courses.visibleTo(principal, course, false))) return undefined;
    if (principal.kind !== 'user') return { staff: false, enrolledAt: null };
    const enrollment = await deps.enrollments.accessEnrollment(db, course.id, principal.userId);
    const current = enrollment && (!enrollment.expires_at || enrollment.expires_at > now());
    return { staff: false, enrolledAt: current ? new Date(enrollment.enrolled_at) : null };
  }

  async function accessToCourseId(principal: Principal, courseId: string) {
    const course = await deps.courseRows.findById(db, courseId);
    return course ? accessTo(principal, course) : undefined;
  }

  /** Whether drip still holds a section back from this caller, and until when. */
  function dripHold(section: DripColumns, access: Access): Date | null {
    if (access.staff || !access.enrolledAt) return null;
    const at = opensAt(section, access.enrolledAt);
    return at && at > clock.now() ? at : null;
  }

  function toSection(row: SectionsTable, access: Access): Section {
    return {
      id: row.id,
      course_id: row.course_id,
      title: row.title,
      position: Number(row.position),
      drip: {
        type: row.drip_type,
        days: row.drip_days === null ? null : Number(row.drip_days),
        date: row.drip_date,
      },
      status: row.status,
      available_at: dripHold(row, access)?.toISOString() ?? null,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  /**
   * The lesson's file as the caller sees it: nothing while locked; an uploaded file through a signed URL — handed out
   * only here, so only to callers the lesson is open to — else the URL given.
   */
  function lessonFile(row: LessonsTable, locked: boolean) {
    if (locked) return { asset_url: null, asset_id: null, asset_url_expires_at: null };
    if (!row.asset_id) return { asset_url: row.asset_url, asset_id: null, asset_url_expires_at: null };
    const signed = storage.signedUrl(row.asset_id);
    return { asset_url: signed.url, asset_id: row.asset_id, asset_url_expires_at: signed.expiresAt };
  }

  /** A video's or audio's captions (signed, like its file) and poster: none while locked. */
  function playerExtras(row: LessonsTable, locked: boolean) {
    if (locked) return { captions: [], poster_url: null };
    return {
      captions: parsedCaptions(row).map((c) => ({ ...c, url: storage.signedUrl(c.asset_id).url })),
      poster_url: row.poster_asset_id ? storage.publicUrl(row.poster_asset_id) : null,
    };
  }

  /** What the caller sees of lessons in `section`; its drip is worked out once for all of them. */
  function lessonView(section: DripColumns, access: Access) {
    const sectionHold = dripHold(section, access);
    return (row: LessonsTable): Lesson => {
      const preview = Number(row.is_preview) === 1;
      const hold = preview ? null : sectionHold;
      const locked = !access.staff && !preview && (!access.enrolledAt || hold !== null);
      return {
        id: row.id,
        course_id: row.course_id,
        section_id: row.section_id,
        title: row.title,
        type: row.type,
        body: locked ? null : row.body,
        ...lessonFile(row, locked),
        duration_s: row.duration_s === null ? null : Number(row.duration_s),
        is_preview: preview,
        position: Number(row.position),
        status: row.status,
        locked,
        available_at: hold?.toISOString() ?? null,
        quiz: locked || row.quiz === null ? null : quizView(JSON.parse(row.quiz) as QuizInput, access.staff),
        ...playerExtras(row, locked),
        created_at: row.created_at,
        updated_at: row.updated_at,
      };
    };
  }

  /** A lesson as staff see it (drip ignored, nothing locked). */
  const staffLesson = lessonView(NO_DRIP, STAFF_ACCESS);

  /** A section the caller may see, with their access to its course; undefined when it is 404 to them. */
  async function visibleSection(principal: Principal, id: string) {
    const section = await store.findSection(db, id);
    if (!section) return undefined;
    const access = await accessToCourseId(principal, section.course_id);
    if (!access || (!access.staff && section.status !== 'published')) return undefined;
    return { section, access };
  }

  async function visibleLesson(principal: Principal, id: string) {
    const lesson = await store.findLessonWithSection(db, id);
    if (!lesson) return undefined;
    const access = await accessToCourseId(principal, lesson.course_id);
    if (!access) return undefined;
    if (!access.staff && (lesson.status !== 'published' || lesson.section_status !== 'published')) return undefined;
    return { lesson, access };
  }

  return { accessTo, toSection, lessonView, staffLesson, visibleSection, visibleLesson };
}

export type CurriculumAccess = ReturnType<typeof curriculumAccess>;
