import type { Executor } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import { contentProblem } from './content-rules.ts';
import type { CurriculumStore } from './store.ts';

/**
 * What the courses area asks of a course's curriculum when the course is published (its ContentsPort): whether a
 * student would find a lesson in it, and publishing its drafts with it. Both run in the course's publishing
 * transaction, after the course's lock, so no curriculum write of that course interleaves.
 */
export function curriculumPublishing(store: CurriculumStore) {
  return {
    publishedLessonCount: async (ex: Executor, courseId: string) => (await store.countedLessons(ex, courseId)).length,

    /**
     * Publishes every draft section and lesson of the course, or none: a draft lesson without its content (by the
     * rule of publishLesson) refuses the whole, with one field error per such lesson.
     */
    async publishDrafts(trx: Executor, courseId: string, at: string) {
      const lessons = await store.listCourseLessons(trx, courseId, 'draft');
      const missing = lessons.flatMap((lesson) => {
        const problem = contentProblem(lesson);
        return problem
          ? [{ field: `lessons.${lesson.id}`, code: 'no_content', message: `“${lesson.title}”: ${problem}` }]
          : [];
      });
      if (missing.length)
        throw errors.invalidRequest(
          `${missing.length === 1 ? 'One lesson has' : `${missing.length} lessons have`} no content yet, so nothing was ` +
            'published: give each its content, or delete it, then publish again.',
          missing,
        );
      await store.publishCourseDrafts(trx, courseId, at);
    },
  };
}
