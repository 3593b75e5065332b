import { formatDuration, lessonFacts } from '../discovery/catalog-text.ts';
import { formatMoney } from '../text/money.ts';

type OutlineLesson = { title: string; type: string; duration_s: number | null; is_preview: boolean };
type CourseOutline = {
  course: {
    id: string;
    slug: string;
    title: string;
    subtitle: string;
    description: string;
    price: { amount: number; currency: string } | null;
  };
  sections: { title: string; lessons: OutlineLesson[] }[];
  lesson_count: number;
  total_duration_s: number;
};

/** One public course as a Markdown resource: what it is, what it costs and its outline. */
export function courseMarkdown(outline: Record<string, unknown>, baseUrl: string): string {
  const { course, sections, lesson_count, total_duration_s } = outline as unknown as CourseOutline;
  const price = course.price ? formatMoney(course.price) : 'free';
  const lines = [
    `# ${course.title}`,
    '',
    ...(course.subtitle ? [`> ${course.subtitle}`, ''] : []),
    `- Price: ${price}`,
    `- Lessons: ${lesson_count}${total_duration_s ? `, ${formatDuration(total_duration_s)} in all` : ''}`,
    `- Web page: ${baseUrl}/courses/${course.slug}`,
    `- API: ${baseUrl}/api/v1/courses/${course.id}`,
    '',
    course.description,
    '',
    '## Outline',
    '',
  ];
  for (const section of sections) {
    lines.push(`### ${section.title}`, '');
    for (const lesson of section.lessons) {
      lines.push(`- ${lesson.title} (${lessonFacts(lesson)})`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
