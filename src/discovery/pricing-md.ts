import type { CatalogCourse, CourseSize } from './catalog-store.ts';
import { formatDuration, formatMoney } from './catalog-text.ts';

export type PricingSchool = { name: string; locale: string; terms_url: string | null; privacy_url: string | null };

export type PricingData = {
  baseUrl: string;
  school: PricingSchool | undefined;
  /** The Courses table's rows, from courseRow (built in batches for a large catalog). */
  courseRows: string[][];
};

/** One course's row: the same columns for every course. */
export function courseRow(course: CatalogCourse, size: CourseSize | undefined, baseUrl: string, locale: string) {
  return [
    course.title,
    course.price ? formatMoney(course.price, locale) : 'free',
    String(size?.lessons ?? 0),
    size?.duration_s ? formatDuration(size.duration_s) : '—',
    'lifetime',
    `${baseUrl}/api/v1/courses/${course.id}`,
  ];
}

/** A table cell: one line, no pipe that would split the row. */
const cell = (text: string) => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

/** One kind of thing the school sells: a table with the same columns every time, or a line saying there is none. */
type Kind = { title: string; columns: string[]; rows: string[][]; none: string };

function table(kind: Kind): string[] {
  const lines = [`## ${kind.title}`, ''];
  if (kind.rows.length === 0) return [...lines, kind.none, ''];
  lines.push(`| ${kind.columns.join(' | ')} |`, `|${kind.columns.map(() => '---').join('|')}|`);
  for (const row of kind.rows) lines.push(`| ${row.map(cell).join(' | ')} |`);
  return [...lines, ''];
}

/**
 * /pricing.md: everything the school sells, one table per kind with the same columns every time. Every published
 * public course is listed (none is left out, however many there are), with its price or "free".
 */
export function pricingMd(data: PricingData): string {
  const base = data.baseUrl;
  const courses: Kind = {
    title: 'Courses',
    columns: ['Course', 'Price', 'Lessons', 'Duration', 'Access', 'Details'],
    rows: data.courseRows,
    none: 'No courses are published yet.',
  };
  const plans: Kind = {
    title: 'Membership plans',
    columns: ['Plan', 'Price', 'Interval', 'Trial', 'Includes'],
    rows: [],
    none: 'The school offers no membership plans.',
  };
  const products: Kind = {
    title: 'Digital products',
    columns: ['Product', 'Price', 'Files', 'Details'],
    rows: [],
    none: 'The school offers no digital products.',
  };
  const legal = [
    data.school?.terms_url ? `- [Terms, including refunds](${data.school.terms_url})` : '',
    data.school?.privacy_url ? `- [Privacy](${data.school.privacy_url})` : '',
  ].filter(Boolean);
  return [
    `# Pricing — ${data.school?.name ?? 'this Lyceum school'}`,
    '',
    'What this school sells. Prices are as charged, in the currency shown; "free" costs nothing. Access to a course is for life unless stated otherwise.',
    '',
    ...table(courses),
    ...table(plans),
    ...table(products),
    '## How to buy',
    '',
    '- Free courses: sign in (or create an account) and enroll from the course.',
    '- Paid courses: online checkout is not open yet; ask the school to enroll you.',
    `- Apps and agents: read the catalog without a token (${base}/openapi.json, ${base}/mcp); acting for a person needs their consent (${base}/auth.md).`,
    '',
    '## Terms',
    '',
    ...(legal.length ? legal : ['The school has not published its terms yet; ask the school about refunds.']),
    '',
  ].join('\n');
}
