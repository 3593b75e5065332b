import { formatMoney } from '../text/money.ts';
import type { CatalogCourse, CatalogPlan, CatalogProduct, CourseSize } from './catalog-store.ts';
import { formatDuration } from './catalog-text.ts';
import type { LegalLinks } from './legal-links.ts';

export type PricingSchool = { name: string; locale: string };

export type PricingData = {
  baseUrl: string;
  school: PricingSchool | undefined;
  /** The Courses table's rows, from courseRow: the newest public courses, at most LLMS_TXT_LIMIT. */
  courseRows: string[][];
  /** How many public courses there are in all. */
  courseTotal: number;
  legal: LegalLinks;
  plans: CatalogPlan[];
  products: CatalogProduct[];
  /** Whether a payment provider is configured (paid items can be bought online). */
  takesPayments: boolean;
};

const INTERVAL = { month: 'monthly', year: 'yearly', one_time: 'once (lifetime)' } as const;

/** One row per active price of each public plan. */
function planRows(plans: CatalogPlan[], baseUrl: string, locale: string) {
  return plans.flatMap((plan) =>
    plan.prices.map((price) => [
      plan.name,
      price.amount === 0 ? 'free' : formatMoney(price, locale),
      INTERVAL[price.interval],
      price.trial_days > 0 ? `${price.trial_days} days` : '—',
      [...plan.courses, ...plan.products].join(', ') || '—',
      `${baseUrl}/checkout/plan/${price.id}`,
    ]),
  );
}

const productRow = (product: CatalogProduct, baseUrl: string, locale: string) => [
  product.title,
  product.price ? formatMoney(product.price, locale) : 'free',
  String(product.files),
  `${baseUrl}/products/${product.slug}`,
];

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
 * /pricing.md: what the school sells, one table per kind with the same columns every time. Bounded like /llms.txt
 * for any size of catalog: the newest courses, how many there are, and how to page through the rest (priced) in the
 * API.
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
    columns: ['Plan', 'Price', 'Billed', 'Trial', 'Includes', 'Buy'],
    rows: planRows(data.plans, base, data.school?.locale ?? 'en'),
    none: 'The school offers no membership plans.',
  };
  const products: Kind = {
    title: 'Digital products',
    columns: ['Product', 'Price', 'Files', 'Details'],
    rows: data.products.map((p) => productRow(p, base, data.school?.locale ?? 'en')),
    none: 'The school offers no digital products.',
  };
  const legal = [
    data.legal.terms ? `- [Terms, including refunds](${data.legal.terms})` : '',
    data.legal.privacy ? `- [Privacy](${data.legal.privacy})` : '',
  ].filter(Boolean);
  const more =
    data.courseTotal > data.courseRows.length
      ? [
          `The newest ${data.courseRows.length} of ${data.courseTotal} courses are listed. Every course with its price: GET ${base}/api/v1/courses?limit=100, then ?limit=100&starting_after=<next_cursor> (the MCP tool listCourses takes the same arguments).`,
          '',
        ]
      : [];
  return [
    `# Pricing — ${data.school?.name ?? 'this Lyceum school'}`,
    '',
    'What this school sells. Prices are as charged, in the currency shown; "free" costs nothing. Access to a course is for life unless stated otherwise.',
    '',
    ...table(courses),
    ...more,
    ...table(plans),
    ...table(products),
    '## How to buy',
    '',
    '- Free courses: sign in (or create an account) and enroll from the course.',
    data.takesPayments
      ? `- Paid courses, plans and products: sign in, open the item's page and press Buy (or go to ${base}/checkout/<course|plan|product>/<slug or price id>); apply a coupon code on the review step, pay on the payment page, and the receipt is e-mailed. Plans renew at their interval until canceled.`
      : '- Paid courses, plans and products: this school does not take payments online yet; ask the school.',
    `- Apps and agents acting for a signed-in person: GET ${base}/api/v1/account/checkout?type=course&key=<slug> prices an item (with coupon_code), POST ${base}/api/v1/account/orders starts the checkout and returns the payment_url to send the person to (scopes account:read, account:write).`,
    `- Apps and agents: read the catalog without a token (${base}/openapi.json, ${base}/mcp); acting for a person needs their consent (${base}/auth.md).`,
    '',
    '## Terms',
    '',
    ...(legal.length ? legal : ['The school has not published its terms yet; ask the school about refunds.']),
    '',
  ].join('\n');
}
