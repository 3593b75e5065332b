import Type from 'typebox';
import { Course } from '../areas/courses/schema.ts';
import { Lesson, Section } from '../areas/curriculum/schema.ts';
import type { Areas } from '../areas/index.ts';
import { ANONYMOUS, type Principal } from '../http/principal.ts';
import { standaloneSchema as json, type ToolDescription } from '../operations/tool-description.ts';

/** A tool with no single API route: it puts several public reads together for a model. Always anonymous. */
export type CatalogTool = ToolDescription & {
  run(args: Record<string, unknown>, principal: Principal): Promise<Record<string, unknown>>;
};

/** A markdown document the agent surface serves (auth.md, llms.txt, pricing.md…), loaded fresh when asked for. */
export type AgentDocument = { name: string; url: string; title: string; mimeType: string; load(): Promise<string> };

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

const OutlineLesson = Type.Pick(Lesson, ['id', 'title', 'type', 'duration_s', 'is_preview', 'locked', 'body']);
const Outline = Type.Object({
  course: Course,
  sections: Type.Array(
    Type.Object({
      ...Type.Pick(Section, ['id', 'title', 'position', 'available_at']).properties,
      lessons: Type.Array(OutlineLesson),
    }),
  ),
  lesson_count: Type.Integer(),
  total_duration_s: Type.Integer(),
});

export function catalogTools(deps: { areas: Areas; documents: readonly AgentDocument[] }): CatalogTool[] {
  const { courses, curriculum } = deps.areas;
  const pricing = deps.documents.find((d) => d.name === 'pricing.md');
  const tools: CatalogTool[] = [
    {
      name: 'getCourseOutline',
      title: 'Get a course with its curriculum outline',
      description:
        'One course by id (crs_…) or slug, with its sections and lessons in order: titles, types, durations, which ' +
        'lessons are free previews (their text is included) and which are locked. No sign-in needed for ' +
        'published courses; find them with listCourses.',
      inputSchema: {
        type: 'object',
        properties: { id: { type: 'string', minLength: 1, maxLength: 120, description: 'A crs_… id or a slug' } },
        required: ['id'],
        additionalProperties: false,
      },
      outputSchema: json(Outline),
      annotations: READ,
      _meta: { 'lyceum/scope': 'courses:read', 'lyceum/anonymous': true, 'lyceum/area': 'catalog' },
      scope: 'courses:read',
      anonymous: true,
      async run(args, principal) {
        const course = await courses.get(principal, String(args.id));
        // The outline is curriculum: a token without curriculum:read gets its public view, as the REST API would.
        const reader = principal.kind === 'user' && !principal.scopes.has('curriculum:read') ? ANONYMOUS : principal;
        const { data: sections } = await curriculum.listSections(reader, course.id, {});
        let lessonCount = 0;
        let totalDuration = 0;
        const outline = [];
        for (const section of sections) {
          const { data: lessons } = await curriculum.listLessons(reader, section.id, {});
          lessonCount += lessons.length;
          for (const lesson of lessons) totalDuration += lesson.duration_s ?? 0;
          outline.push({
            id: section.id,
            title: section.title,
            position: section.position,
            available_at: section.available_at,
            lessons: lessons.map((l) => ({
              id: l.id,
              title: l.title,
              type: l.type,
              duration_s: l.duration_s,
              is_preview: l.is_preview,
              locked: l.locked,
              body: l.is_preview || !l.locked ? l.body : null,
            })),
          });
        }
        return { course, sections: outline, lesson_count: lessonCount, total_duration_s: totalDuration };
      },
    },
  ];
  if (pricing) {
    tools.push({
      name: 'getPricing',
      title: 'What the school sells, with prices',
      description:
        'Every published course, membership plan (prices, trial, what it includes) and digital product, with ' +
        'prices, and how to buy: /pricing.md as Markdown. No sign-in needed.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      outputSchema: {
        type: 'object',
        properties: { url: { type: 'string' }, markdown: { type: 'string' } },
        required: ['url', 'markdown'],
        additionalProperties: false,
      },
      annotations: READ,
      _meta: { 'lyceum/scope': 'courses:read', 'lyceum/anonymous': true, 'lyceum/area': 'catalog' },
      scope: 'courses:read',
      anonymous: true,
      run: async () => ({ url: pricing.url, markdown: await pricing.load() }),
    });
  }
  return tools;
}
