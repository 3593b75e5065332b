import { newId } from '../../db/ids.ts';
import type { WriteContext } from '../../db/request-writes.ts';
import type { Db, Executor, LessonsTable } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { Clock } from '../../time/clock.ts';
import type { StorageService } from '../storage/service.ts';
import type { CurriculumAccess } from './access.ts';
import { PLAYED_TYPES, parsedCaptions, playerExtrasToStore } from './captions.ts';
import { ASSET_PURPOSES, contentProblem, parsedQuiz, quizToStore, trimmedTitle } from './content-rules.ts';
import { type CurriculumOrdering, wholeList as list } from './ordering.ts';
import type { CaptionInput, QuizInput } from './schema.ts';
import {
  type Lesson,
  type LessonCreate,
  type LessonListQuery,
  type LessonMove,
  type LessonUpdate,
  MAX_LESSONS_PER_SECTION,
} from './schema.ts';
import type { CurriculumStore } from './store.ts';

/** A section's lessons: read as the caller may see them (locked until open), written by staff under the course's lock. */
export function lessonRules(deps: {
  db: Db;
  clock: Clock;
  /** The comments area: a deleted lesson's comments go with it, in its transaction. */
  comments: { removeFor(trx: Executor, targetType: 'lesson', targetId: string): Promise<void> };
  writes: WriteContext;
  store: CurriculumStore;
  storage: Pick<StorageService, 'requireReady'>;
  access: CurriculumAccess;
  ordering: CurriculumOrdering;
}) {
  const { db, clock, store, storage } = deps;
  const { lessonView, staffLesson, visibleSection, visibleLesson } = deps.access;
  const { placeAt, inCourse, reorder, courseOf } = deps.ordering;
  const now = () => clock.now().toISOString();

  /** Checks that the asset a lesson of `type` is to carry is a ready upload it may carry. */
  async function checkAsset(assetId: string | null | undefined, type: LessonsTable['type']) {
    if (assetId) await storage.requireReady('asset_id', assetId, ASSET_PURPOSES[type]);
  }

  /** Checks that caption files are ready WebVTT uploads and a poster a ready image. */
  async function checkPlayerAssets(captions: CaptionInput[] | null | undefined, poster: string | null | undefined) {
    for (const [i, caption] of (captions ?? []).entries())
      await storage.requireReady(`captions.${i}.asset_id`, caption.asset_id, ['captions']);
    if (poster) await storage.requireReady('poster_asset_id', poster, ['image']);
  }

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

    async createLesson(sectionId: string, input: LessonCreate) {
      const section = await sectionForWrite(db, sectionId);
      const title = trimmedTitle(input.title);
      await checkAsset(input.asset_id, input.type ?? 'text');
      await checkPlayerAssets(input.captions, input.poster_asset_id);
      const extras = playerExtrasToStore(input.type ?? 'text', input.captions ?? null, input.poster_asset_id ?? null);
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
          ...extras,
          created_at: at,
          updated_at: at,
        };
        await store.insertLesson(trx, row);
        const created = staffLesson(row);
        await deps.writes.made(trx, created);
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
      await checkPlayerAssets(input.captions, input.poster_asset_id);
      return withLesson(id, async (trx, row) => {
        const type = changes.type ?? row.type;
        // A lesson that stops playing (video or audio) drops its captions and poster; given ones are checked.
        if (input.captions !== undefined || input.poster_asset_id !== undefined || type !== row.type) {
          const keep = PLAYED_TYPES.includes(type);
          Object.assign(
            changes,
            playerExtrasToStore(
              type,
              input.captions !== undefined ? input.captions : keep ? parsedCaptions(row) : null,
              input.poster_asset_id !== undefined ? input.poster_asset_id : keep ? (row.poster_asset_id ?? null) : null,
            ),
          );
        }
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
        await deps.comments.removeFor(trx, 'lesson', id);
        await store.deleteLesson(trx, id);
        await store.shiftLessons(trx, row.section_id, Number(row.position) + 1, -1);
      }),

    async moveLesson(id: string, input: LessonMove) {
      const lesson = await lessonForWrite(db, id);
      const unknownSection = () =>
        errors.invalidRequest(
          `The lesson's course has no such section (GET /api/v1/courses/${lesson.course_id}/sections lists them).`,
          [{ field: 'section_id', code: 'not_found', message: 'No such section in this course.' }],
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
