import { newId } from '../../db/ids.ts';
import type { WriteContext } from '../../db/request-writes.ts';
import type { Db, Executor, SectionsTable } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { Clock } from '../../time/clock.ts';
import { type CurriculumAccess, STAFF_ACCESS } from './access.ts';
import { dripColumns, trimmedTitle } from './content-rules.ts';
import { type CurriculumOrdering, wholeList as list } from './ordering.ts';
import type { CourseRowsPort } from './ports.ts';
import {
  MAX_SECTIONS_PER_COURSE,
  type Section,
  type SectionCreate,
  type SectionListQuery,
  type SectionUpdate,
} from './schema.ts';
import type { CurriculumStore } from './store.ts';

/** A course's sections: listed and read as the caller may see them, written by staff under the course's lock. */
export function sectionRules(deps: {
  db: Db;
  clock: Clock;
  writes: WriteContext;
  store: CurriculumStore;
  courseRows: CourseRowsPort;
  access: CurriculumAccess;
  ordering: CurriculumOrdering;
}) {
  const { db, clock, store, courseRows } = deps;
  const { accessTo, toSection, lessonView, visibleSection } = deps.access;
  const { placeAt, inCourse, reorder, courseOf } = deps.ordering;
  const now = () => clock.now().toISOString();

  async function sectionForWrite(ex: Executor, id: string) {
    const row = await store.findSection(ex, id);
    if (!row) throw errors.notFound('section');
    return row;
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

  return {
    async listSections(principal: Principal, courseKey: string, query: SectionListQuery) {
      const course = await courseRows.findByIdOrSlug(db, courseKey);
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
      const course = await courseRows.findByIdOrSlug(db, courseKey);
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

    async createSection(courseId: string, input: SectionCreate) {
      if (!(await courseRows.findById(db, courseId))) throw errors.notFound('course');
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
        await deps.writes.made(trx, created);
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
      if (!(await courseRows.findById(db, courseId))) throw errors.notFound('course');
      return inCourse(courseId, async (trx) => {
        const rows = await store.listSections(trx, courseId, {});
        const ordered = await reorder(trx, 'section_ids', 'course', rows, sectionIds, store.setSectionPosition);
        return list(ordered.map((row) => toSection(row, STAFF_ACCESS)));
      });
    },

    publishSection: (id: string) => sectionTransition(id, 'published'),
    unpublishSection: (id: string) => sectionTransition(id, 'draft'),
  };
}
