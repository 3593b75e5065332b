import type { FastifyRequest } from 'fastify';
import type { AdminDeps } from './admin-context.ts';

/** A course's sections in order, each with its lessons in order, as the API lists them to the signed-in person. */
export type OutlineSection<Lesson> = { id: string; title: string; status: string; lessons: Lesson[] };

/**
 * The outline the course builder and the drafts screen show: one listSections, then every section's listLessons side
 * by side. Undefined when the course is not one the person may see.
 */
export async function courseOutline<Lesson>(
  deps: Pick<AdminDeps, 'call'>,
  request: FastifyRequest,
  courseId: string,
): Promise<OutlineSection<Lesson>[] | undefined> {
  const sections = await deps.call(request, 'listSections', { id: courseId });
  if (sections.status !== 200) return undefined;
  return Promise.all(
    (sections.body.data as OutlineSection<Lesson>[]).map(async (s) => {
      const lessons = await deps.call(request, 'listLessons', { id: s.id });
      return {
        id: s.id,
        title: s.title,
        status: s.status,
        lessons: lessons.status === 200 ? (lessons.body.data as Lesson[]) : [],
      };
    }),
  );
}
