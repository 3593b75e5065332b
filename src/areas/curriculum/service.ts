import { newId } from '../../db/ids.ts';
import type { CoursesTable, Executor, LessonsTable, SectionsTable } from '../../db/tables.ts';
import type { AlsoWrite } from '../../db/write-hook.ts';
import { errors } from '../../http/errors.ts';
import { isStaff, type Principal } from '../../http/principal.ts';
import type { CoursesService } from '../courses/service.ts';
import type { AreaDeps } from '../deps.ts';
import type { Purpose } from '../storage/schema.ts';
import type { StorageService } from '../storage/service.ts';
import { type QuizInput, quizProblem, quizView } from './quiz.ts';
import {
  type DripInput,
  type Lesson,
  type LessonCreate,
  type LessonListQuery,
  type LessonMove,
  type LessonUpdate,
  MAX_LESSONS_PER_SECTION,
  MAX_SECTIONS_PER_COURSE,
  type Section,
  type SectionCreate,
  type SectionListQuery,
  type SectionUpdate,
} from './schema.ts';
import type { CurriculumStore } from './store.ts';

/**
 * What a caller may see of one course's curriculum. `staff` sees everything; otherwise only published sections and
 * lessons, with bodies of previews, and — for an enrolled student (`enrolledAt` set) — of every lesson drip has opened.
 */
type Access = { staff: boolean; enrolledAt: Date | null };

type DripColumns = Pick<SectionsTable, 'drip_type' | 'drip_days' | 'drip_date'>;

const DAY_MS = 86_400_000;
const STAFF_ACCESS: Access = { staff: true, enrolledAt: null };
/** Staff views ignore drip, so they need no section to compute it from. */
const NO_DRIP: DripColumns = { drip_type: 'none', drip_days: null, drip_date: null };

/** When drip opens a section to a student enrolled at `enrolledAt`; null when it never holds it back. */
function opensAt(section: DripColumns, enrolledAt: Date | null): Date | null {
  if (section.drip_type === 'on_date' && section.drip_date) return new Date(section.drip_date);
  if (section.drip_type === 'days_after_enrollment' && enrolledAt && section.drip_days !== null) {
    return new Date(enrolledAt.getTime() + Number(section.drip_days) * DAY_MS);
  }
  return null;
}

const list = <T>(data: T[]) => ({ data, has_more: false, next_cursor: null });

const ANY_PURPOSE: readonly Purpose[] = ['image', 'video', 'audio', 'pdf', 'download'];
/** The uploads a lesson of each type may carry. */
const ASSET_PURPOSES: Record<LessonsTable['type'], readonly Purpose[]> = {
  video: ['video'],
  audio: ['audio'],
  pdf: ['pdf'],
  download: ANY_PURPOSE,
  text: ANY_PURPOSE,
  quiz: ANY_PURPOSE,
  embed: ANY_PURPOSE,
};

/**
 * Sections and lessons of a course. Positions are dense (0..n-1) per course and per section; every change of them
 * runs in one transaction holding the course's lock. Non-staff callers see published sections and lessons of courses
 * visible to them (courses.visibleTo), anything else is 404; a lesson's body and asset are open to staff, for
 * previews, and to enrolled students once the section's drip has opened — otherwise the lesson comes `locked`.
 */
export function curriculumService(
  deps: AreaDeps & { store: CurriculumStore; courses: CoursesService; storage: StorageService },
) {
  const { db, clock, store, courses, storage } = deps;
  const now = () => clock.now().toISOString();

  async function accessTo(principal: Principal, course: CoursesTable): Promise<Access | undefined> {
    if (isStaff(principal)) return STAFF_ACCESS;
    if (!(await courses.visibleTo(principal, course, false))) return undefined;
    if (principal.kind !== 'user') return { staff: false, enrolledAt: null };
    const enrollment = await store.accessEnrollment(db, course.id, principal.userId);
    const current = enrollment && (!enrollment.expires_at || enrollment.expires_at > now());
    return { staff: false, enrolledAt: current ? new Date(enrollment.enrolled_at) : null };
  }

  async function accessToCourseId(principal: Principal, courseId: string) {
    const course = await store.findCourse(db, courseId);
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

  /** Checks that the asset a lesson of `type` is to carry is a ready upload it may carry. */
  async function checkAsset(assetId: string | null | undefined, type: LessonsTable['type']) {
    if (assetId) await storage.requireReady('asset_id', assetId, ASSET_PURPOSES[type]);
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

  function dripColumns(drip: DripInput): DripColumns {
    const field = (name: string, message: string) =>
      errors.invalidRequest(`drip.${name}: ${message}`, [{ field: `drip.${name}`, code: 'drip', message }]);
    if (drip.type !== 'days_after_enrollment' && drip.days !== undefined)
      throw field('days', 'days goes only with type days_after_enrollment; remove it.');
    if (drip.type !== 'on_date' && drip.date !== undefined)
      throw field('date', 'date goes only with type on_date; remove it.');
    if (drip.type === 'days_after_enrollment' && drip.days === undefined)
      throw field('days', 'days_after_enrollment needs days (1–3650).');
    if (drip.type === 'on_date' && drip.date === undefined)
      throw field('date', 'on_date needs a date (RFC 3339, e.g. 2030-01-31T09:00:00Z).');
    return {
      drip_type: drip.type,
      drip_days: drip.days ?? null,
      drip_date: drip.date === undefined ? null : new Date(drip.date).toISOString(),
    };
  }

  function trimmedTitle(title: string) {
    const trimmed = title.trim();
    if (!trimmed) {
      throw errors.invalidRequest('title: must not be blank.', [
        { field: 'title', code: 'blank', message: 'Give it a title that is not only spaces.' },
      ]);
    }
    return trimmed;
  }

  /** The place to insert at among `count` items: the end when absent, else 0..count. */
  function placeAt(position: number | undefined, count: number) {
    if (position === undefined) return count;
    if (position > count) {
      throw errors.invalidRequest(`position: must be between 0 and ${count} here; omit it to add at the end.`, [
        { field: 'position', code: 'maximum', message: `At most ${count}.` },
      ]);
    }
    return position;
  }

  const parsedQuiz = (row: Pick<LessonsTable, 'quiz'> | undefined) =>
    row?.quiz ? (JSON.parse(row.quiz) as QuizInput) : null;

  /** A lesson's quiz as stored, after the checks its schema cannot make. */
  function quizToStore(type: LessonsTable['type'], quiz: QuizInput | null): string | null {
    if (quiz === null) return null;
    if (type !== 'quiz') {
      throw errors.invalidRequest(`Only quiz lessons have questions; this lesson's type is ${type}.`, [
        { field: 'quiz', code: 'not_a_quiz', message: 'Set type to "quiz", or leave quiz out.' },
      ]);
    }
    const problem = quizProblem(quiz);
    if (problem) throw errors.invalidRequest(problem.message, [{ ...problem, code: 'out_of_range' }]);
    return JSON.stringify(quiz);
  }

  /** Why a lesson cannot be published as it is, if it cannot. */
  function contentProblem(
    row: Pick<LessonsTable, 'type' | 'body' | 'asset_url' | 'asset_id' | 'quiz'>,
  ): string | undefined {
    const hasBody = row.body.trim() !== '';
    const hasFile = Boolean(row.asset_url || row.asset_id);
    switch (row.type) {
      case 'text':
        return hasBody ? undefined : 'A text lesson needs a body before it can be published; set body.';
      case 'quiz':
        return row.quiz ? undefined : 'A quiz lesson needs its questions before it can be published; set quiz.';
      case 'embed':
        return hasBody || hasFile
          ? undefined
          : 'An embed lesson needs a body (embed code) or an asset_url (or an uploaded asset_id).';
      default:
        return hasFile
          ? undefined
          : `A ${row.type} lesson needs an asset_url (or an uploaded asset_id) before it can be published.`;
    }
  }

  /** Runs `fn` in a transaction that holds the course's curriculum lock. */
  const inCourse = <T>(courseId: string, fn: (trx: Executor) => Promise<T>) =>
    db.transaction().execute(async (trx) => {
      await store.lockCourse(trx, courseId);
      return fn(trx);
    });

  async function sectionForWrite(ex: Executor, id: string) {
    const row = await store.findSection(ex, id);
    if (!row) throw errors.notFound('section');
    return row;
  }

  async function lessonForWrite(ex: Executor, id: string) {
    const row = await store.findLesson(ex, id);
    if (!row) throw errors.notFound('lesson');
    return row;
  }

  /** Checks that `ids` names every item of `current` exactly once. */
  function checkPermutation(field: string, what: string, ids: string[], current: string[]) {
    const known = new Set(current);
    const given = new Set(ids);
    const missing = current.filter((id) => !given.has(id));
    const unknown = ids.filter((id) => !known.has(id));
    if (missing.length || unknown.length) {
      const parts = [
        missing.length ? `missing ${missing.join(', ')}` : '',
        unknown.length ? `not in this ${what} ${unknown.join(', ')}` : '',
      ].filter(Boolean);
      const message =
        `${field} must list every one of the ${current.length} items of this ${what} exactly once ` +
        `(${parts.join('; ')}).`;
      throw errors.invalidRequest(`${field}: ${message}`, [{ field, code: 'permutation', message }]);
    }
  }

  /**
   * Puts `rows` (every item of one course or section) in the order of `ids`, which must name each exactly once, and
   * writes only the positions that change.
   */
  async function reorder<R extends { id: string; position: number; updated_at: string }>(
    trx: Executor,
    field: string,
    what: string,
    rows: R[],
    ids: string[],
    setPosition: (ex: Executor, id: string, position: number, at: string) => Promise<void>,
  ): Promise<R[]> {
    checkPermutation(
      field,
      what,
      ids,
      rows.map((r) => r.id),
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    const at = now();
    const ordered: R[] = [];
    for (const [position, id] of ids.entries()) {
      const row = byId.get(id) as R;
      if (Number(row.position) === position) {
        ordered.push(row);
      } else {
        await setPosition(trx, id, position, at);
        ordered.push({ ...row, position, updated_at: at });
      }
    }
    return ordered;
  }

  /** A course's id from one of its rows, read before taking the course lock (a row never changes course). */
  async function courseOf(find: (ex: Executor, id: string) => Promise<{ course_id: string } | undefined>, id: string) {
    return (await find(db, id))?.course_id;
  }

  async function sectionTransition(id: string, to: SectionsTable['status']) {
    const courseId = await courseOf(store.findSection, id);
    if (!courseId) throw errors.notFound('section');
    return inCourse(courseId, async (trx) => {
      const row = await sectionForWrite(trx, id);
      if (row.status === to) return toSection(row, STAFF_ACCESS);
      const changes = { status: to, updated_at: now() };
      await store.updateSection(trx, id, changes);
      return toSection({ ...row, ...changes }, STAFF_ACCESS);
    });
  }

  /**
   * Runs `fn` on the lesson as it is once the course lock is held, so a rule checked on it (published lessons keep
   * their content, are not deleted) cannot be undone by a concurrent write before `fn` writes.
   */
  async function withLesson<T>(id: string, fn: (trx: Executor, row: LessonsTable) => Promise<T>) {
    const courseId = await courseOf(store.findLesson, id);
    if (!courseId) throw errors.notFound('lesson');
    return inCourse(courseId, async (trx) => fn(trx, await lessonForWrite(trx, id)));
  }

  const lessonTransition = (id: string, to: LessonsTable['status']) =>
    withLesson(id, async (trx, row) => {
      if (row.status === to) return staffLesson(row);
      const problem = to === 'published' ? contentProblem(row) : undefined;
      if (problem) throw errors.conflict(`${problem} (PATCH /api/v1/lessons/${id})`);
      const changes = { status: to, updated_at: now() };
      await store.updateLesson(trx, id, changes);
      return staffLesson({ ...row, ...changes });
    });

  return {
    async listSections(principal: Principal, courseKey: string, query: SectionListQuery) {
      const course = await store.findCourseByIdOrSlug(db, courseKey);
      const access = course && (await accessTo(principal, course));
      if (!course || !access) throw errors.notFound('course');
      if (!access.staff && query.status === 'draft') return list<Section>([]);
      const rows = await store.listSections(db, course.id, { status: access.staff ? query.status : 'published' });
      return list(rows.map((row) => toSection(row, access)));
    },

    /**
     * A course's sections with their lessons, as listSections and listLessons would give them to the caller (staff
     * may ask for drafts too), in two queries rather than one per section: what the course page and player show.
     */
    async outline(principal: Principal, courseKey: string, status?: SectionsTable['status']) {
      const course = await store.findCourseByIdOrSlug(db, courseKey);
      const access = course && (await accessTo(principal, course));
      if (!course || !access) throw errors.notFound('course');
      const only = access.staff ? status : 'published';
      const [sections, lessons] = await Promise.all([
        store.listSections(db, course.id, { status: only }),
        store.listCourseLessons(db, course.id, only),
      ]);
      return sections.map((row) => ({
        section: toSection(row, access),
        lessons: lessons.filter((lesson) => lesson.section_id === row.id).map(lessonView(row, access)),
      }));
    },

    async getSection(principal: Principal, id: string) {
      const found = await visibleSection(principal, id);
      if (!found) throw errors.notFound('section');
      return toSection(found.section, found.access);
    },

    async createSection(courseId: string, input: SectionCreate, also?: AlsoWrite) {
      if (!(await store.findCourse(db, courseId))) throw errors.notFound('course');
      const title = trimmedTitle(input.title);
      const drip = dripColumns(input.drip ?? { type: 'none' });
      return inCourse(courseId, async (trx) => {
        const count = await store.countSections(trx, courseId);
        if (count >= MAX_SECTIONS_PER_COURSE) {
          throw errors.conflict(
            `A course holds at most ${MAX_SECTIONS_PER_COURSE} sections; ` +
              'delete one, or put these lessons in an existing section.',
          );
        }
        const position = placeAt(input.position, count);
        await store.shiftSections(trx, courseId, position, 1);
        const at = now();
        const row: SectionsTable = {
          id: newId('sec'),
          course_id: courseId,
          title,
          position,
          ...drip,
          status: 'draft',
          created_at: at,
          updated_at: at,
        };
        await store.insertSection(trx, row);
        const created = toSection(row, STAFF_ACCESS);
        await also?.(trx, created);
        return created;
      });
    },

    async updateSection(id: string, input: SectionUpdate) {
      const changes: Partial<SectionsTable> = { updated_at: now() };
      if (input.title !== undefined) changes.title = trimmedTitle(input.title);
      if (input.drip !== undefined) Object.assign(changes, dripColumns(input.drip));
      const courseId = await courseOf(store.findSection, id);
      if (!courseId) throw errors.notFound('section');
      return inCourse(courseId, async (trx) => {
        const row = await sectionForWrite(trx, id);
        await store.updateSection(trx, id, changes);
        return toSection({ ...row, ...changes }, STAFF_ACCESS);
      });
    },

    async deleteSection(id: string) {
      const { course_id } = await sectionForWrite(db, id);
      await inCourse(course_id, async (trx) => {
        const row = await sectionForWrite(trx, id);
        const lessons = await store.countLessons(trx, id);
        if (lessons > 0) {
          throw errors.conflict(
            `This section still has ${lessons} lesson(s); move them to another section ` +
              '(POST /api/v1/lessons/{id}/move) or delete them first.',
          );
        }
        await store.deleteSection(trx, id);
        await store.shiftSections(trx, course_id, Number(row.position) + 1, -1);
      });
    },

    async reorderSections(courseId: string, sectionIds: string[]) {
      if (!(await store.findCourse(db, courseId))) throw errors.notFound('course');
      return inCourse(courseId, async (trx) => {
        const rows = await store.listSections(trx, courseId, {});
        const ordered = await reorder(trx, 'section_ids', 'course', rows, sectionIds, store.setSectionPosition);
        return list(ordered.map((row) => toSection(row, STAFF_ACCESS)));
      });
    },

    publishSection: (id: string) => sectionTransition(id, 'published'),
    unpublishSection: (id: string) => sectionTransition(id, 'draft'),

    async listLessons(principal: Principal, sectionId: string, query: LessonListQuery) {
      const found = await visibleSection(principal, sectionId);
      if (!found) throw errors.notFound('section');
      const { section, access } = found;
      if (!access.staff && query.status === 'draft') return list<Lesson>([]);
      const rows = await store.listLessons(db, section.id, {
        status: access.staff ? query.status : 'published',
        type: query.type,
      });
      return list(rows.map(lessonView(section, access)));
    },

    async getLesson(principal: Principal, id: string) {
      const found = await visibleLesson(principal, id);
      if (!found) throw errors.notFound('lesson');
      return lessonView(found.lesson, found.access)(found.lesson);
    },

    /**
     * Whether the caller may see this lesson's body (and so what is said about it): staff always; anyone else when
     * the lesson and its section are published, its course is visible to them, and it is a preview or they are
     * enrolled and drip has opened it. Used by the comments area.
     */
    async lessonVisibleTo(principal: Principal, lessonId: string): Promise<boolean> {
      const found = await visibleLesson(principal, lessonId);
      return found !== undefined && !lessonView(found.lesson, found.access)(found.lesson).locked;
    },

    /** A quiz lesson's questions with their answers, for marking; null for other lessons. */
    async storedQuiz(lessonId: string): Promise<QuizInput | null> {
      return parsedQuiz(await store.findLesson(db, lessonId));
    },

    /**
     * The lesson as the caller sees it, and whether they hold an enrollment that opens its course (active or
     * completed, not past its expiry); undefined when the lesson is 404 to them. The students area lets a person
     * complete a lesson by this rule (enrolled, and the lesson not locked), so it is not written a second time.
     * `quiz` is the stored quiz with its answers, for marking.
     */
    async lessonAccess(principal: Principal, lessonId: string) {
      const found = await visibleLesson(principal, lessonId);
      if (!found) return undefined;
      const lesson = lessonView(found.lesson, found.access)(found.lesson);
      return { lesson, enrolled: found.access.enrolledAt !== null, quiz: parsedQuiz(found.lesson) };
    },

    async createLesson(sectionId: string, input: LessonCreate, also?: AlsoWrite) {
      const section = await sectionForWrite(db, sectionId);
      const title = trimmedTitle(input.title);
      await checkAsset(input.asset_id, input.type ?? 'text');
      return inCourse(section.course_id, async (trx) => {
        const current = await sectionForWrite(trx, sectionId);
        const count = await store.countLessons(trx, sectionId);
        if (count >= MAX_LESSONS_PER_SECTION) {
          throw errors.conflict(
            `A section holds at most ${MAX_LESSONS_PER_SECTION} lessons; add this lesson to another section ` +
              `(POST /api/v1/courses/${current.course_id}/sections makes one).`,
          );
        }
        const position = placeAt(input.position, count);
        await store.shiftLessons(trx, sectionId, position, 1);
        const at = now();
        const row: LessonsTable = {
          id: newId('les'),
          course_id: current.course_id,
          section_id: sectionId,
          title,
          type: input.type ?? 'text',
          body: input.body ?? '',
          asset_url: input.asset_url ?? null,
          asset_id: input.asset_id ?? null,
          duration_s: input.duration_s ?? null,
          is_preview: input.is_preview ? 1 : 0,
          position,
          status: 'draft',
          quiz: quizToStore(input.type ?? 'text', input.quiz ?? null),
          created_at: at,
          updated_at: at,
        };
        await store.insertLesson(trx, row);
        const created = staffLesson(row);
        await also?.(trx, created);
        return created;
      });
    },

    async updateLesson(id: string, input: LessonUpdate) {
      const changes: Partial<LessonsTable> = { updated_at: now() };
      if (input.title !== undefined) changes.title = trimmedTitle(input.title);
      if (input.type !== undefined) changes.type = input.type;
      if (input.body !== undefined) changes.body = input.body;
      if (input.asset_url !== undefined) changes.asset_url = input.asset_url;
      if (input.asset_id !== undefined) changes.asset_id = input.asset_id;
      if (input.duration_s !== undefined) changes.duration_s = input.duration_s;
      if (input.is_preview !== undefined) changes.is_preview = input.is_preview ? 1 : 0;
      if (input.asset_id !== undefined || input.type !== undefined) {
        // Checked before the course lock is taken: an asset never leaves ready, nor changes purpose.
        const before = await lessonForWrite(db, id);
        await checkAsset(
          changes.asset_id === undefined ? before.asset_id : changes.asset_id,
          changes.type ?? before.type,
        );
      }
      return withLesson(id, async (trx, row) => {
        const type = changes.type ?? row.type;
        // Changing a quiz lesson's type drops its questions; a quiz given to another type is refused.
        if (input.quiz !== undefined || type !== row.type) {
          changes.quiz = input.quiz !== undefined ? quizToStore(type, input.quiz) : type === 'quiz' ? row.quiz : null;
        }
        const next = { ...row, ...changes };
        const problem = row.status === 'published' ? contentProblem(next) : undefined;
        if (problem) {
          throw errors.conflict(
            `${problem} This lesson is published: keep its content, ` +
              `or unpublish it first (POST /api/v1/lessons/${id}/unpublish).`,
          );
        }
        await store.updateLesson(trx, id, changes);
        return staffLesson(next);
      });
    },

    /** Deletes a draft lesson and the comments on it, closing the gap in its section's positions. */
    deleteLesson: (id: string) =>
      withLesson(id, async (trx, row) => {
        if (row.status === 'published') {
          throw errors.conflict(
            `This lesson is published; unpublish it first (POST /api/v1/lessons/${id}/unpublish), then delete it.`,
          );
        }
        await store.deleteLesson(trx, id);
        await store.shiftLessons(trx, row.section_id, Number(row.position) + 1, -1);
      }),

    async moveLesson(id: string, input: LessonMove) {
      const lesson = await lessonForWrite(db, id);
      const unknownSection = () =>
        errors.invalidRequest(
          'section_id: no such section; list the course sections with ' +
            `GET /api/v1/courses/${lesson.course_id}/sections.`,
          [{ field: 'section_id', code: 'not_found', message: `Unknown section ${input.section_id}` }],
        );
      const target = await store.findSection(db, input.section_id);
      if (!target) throw unknownSection();
      if (target.course_id !== lesson.course_id) {
        throw errors.conflict(
          `Lesson ${id} belongs to course ${lesson.course_id}, ` +
            `and section ${target.id} to course ${target.course_id}; ` +
            `a lesson moves only between sections of its own course. To have it there, create a lesson in that ` +
            `section (POST /api/v1/sections/${target.id}/lessons) and delete this one.`,
        );
      }
      return inCourse(lesson.course_id, async (trx) => {
        const row = await lessonForWrite(trx, id);
        const section = await store.findSection(trx, input.section_id);
        if (!section) throw unknownSection();
        const sameSection = section.id === row.section_id;
        const count = (await store.countLessons(trx, section.id)) - (sameSection ? 1 : 0);
        if (!sameSection && count >= MAX_LESSONS_PER_SECTION) {
          throw errors.conflict(
            `Section ${section.id} already holds ${MAX_LESSONS_PER_SECTION} lessons; ` +
              'move one out first, or choose another section.',
          );
        }
        const position = placeAt(input.position, count);
        await store.shiftLessons(trx, row.section_id, Number(row.position) + 1, -1);
        await store.shiftLessons(trx, section.id, position, 1);
        const changes = { section_id: section.id, position, updated_at: now() };
        await store.updateLesson(trx, id, changes);
        return staffLesson({ ...row, ...changes });
      });
    },

    async reorderLessons(sectionId: string, lessonIds: string[]) {
      const section = await sectionForWrite(db, sectionId);
      return inCourse(section.course_id, async (trx) => {
        const rows = await store.listLessons(trx, sectionId, {});
        const ordered = await reorder(trx, 'lesson_ids', 'section', rows, lessonIds, store.setLessonPosition);
        return list(ordered.map(staffLesson));
      });
    },

    publishLesson: (id: string) => lessonTransition(id, 'published'),
    unpublishLesson: (id: string) => lessonTransition(id, 'draft'),
  };
}

export type CurriculumService = ReturnType<typeof curriculumService>;
