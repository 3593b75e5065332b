import type { Event } from '../areas/events/schema.ts';
import { eventWhen } from '../areas/events/when.ts';
import { formatMoney } from '../text/money.ts';
import type { CatalogCourse, CatalogPlan, CatalogProduct, CourseSize } from './catalog-store.ts';
import { formatDuration, lessonFacts } from './catalog-text.ts';
import type { LegalLinks } from './legal-links.ts';

/** How many courses and posts /llms.txt and /llms-full.txt list; the rest is paged through the API. */
export const LLMS_TXT_LIMIT = 50;

export type OutlineSection = {
  id: string;
  title: string;
  lessons: { title: string; type: string; duration_s: number | null; is_preview: boolean }[];
};

export type LlmsTxtData = {
  baseUrl: string;
  school: { name: string; description: string; locale: string } | undefined;
  legal: LegalLinks;
  courses: { items: CatalogCourse[]; total: number };
  posts: { items: { id: string; title: string; slug: string; excerpt: string }[]; total: number };
  pages: { id: string; title: string; slug: string; seo_description: string | null }[];
  plans: CatalogPlan[];
  products: CatalogProduct[];
  /** The upcoming public events, soonest first (at most LLMS_TXT_LIMIT). */
  events: Event[];
  sizes: Map<string, CourseSize>;
  /** With /llms-full.txt: each course's outline. */
  outlines?: Map<string, OutlineSection[]>;
};

/** A Markdown link line of the llmstxt.org shape; brackets in titles would end the link text early. */
const link = (title: string, url: string, note?: string) =>
  `- [${title.replace(/[[\]]/g, '')}](${url})${note ? `: ${note.replace(/\s+/g, ' ').trim()}` : ''}`;

const price = (course: CatalogCourse, locale: string) => (course.price ? formatMoney(course.price, locale) : 'free');

/**
 * /llms.txt (llmstxt.org): the school's name, a summary, and sections of links an agent can follow, bounded for any
 * size of catalog (the newest LLMS_TXT_LIMIT courses and posts, and how to page through the rest). With `outlines`
 * it is /llms-full.txt: each listed course's description and curriculum outline too.
 */
export function llmsTxt(data: LlmsTxtData): string {
  const base = data.baseUrl;
  const locale = data.school?.locale ?? 'en';
  const name = data.school?.name ?? 'A Lyceum school';
  const summary = (data.school?.description || 'An online school.').replace(/\s+/g, ' ').trim();
  const lines = [`# ${name}`, '', `> ${summary}`, ''];
  lines.push(
    `This is an online school: courses with lessons, taught by its lecturers. Anyone may read the public catalog without signing in, through the HTTP API or the MCP server; enrolling, and everything staff do, needs a person's consent through OAuth (see auth.md).`,
    '',
    '## Start here',
    '',
    link(
      'Authentication',
      `${base}/auth.md`,
      'how an app or agent registers itself and gets a token (OAuth 2.1, PKCE)',
    ),
    link('OpenAPI', `${base}/openapi.json`, 'every API operation, its parameters and the scope it needs'),
    link(
      'MCP server',
      `${base}/mcp`,
      'Streamable HTTP; the catalog tools work without a token, every API operation is a tool',
    ),
    link('Pricing', `${base}/pricing.md`, 'what the school sells: courses, membership plans and digital products'),
    link(
      'Operations',
      `${base}/operations.txt`,
      'every API operation in one line: operationId, method, path, scope, summary',
    ),
    ...(data.legal.terms ? [link('Terms, including refunds', data.legal.terms)] : []),
    ...(data.legal.privacy ? [link('Privacy', data.legal.privacy)] : []),
    '',
    '## Courses',
    '',
    link(
      'Course catalog',
      `${base}/courses`,
      "the school's website: every public course, searchable by title, lecturer and price",
    ),
  );
  if (data.courses.items.length === 0) lines.push('No courses are published yet.');
  for (const course of data.courses.items) {
    const size = data.sizes.get(course.id);
    const facts = [
      course.subtitle,
      price(course, locale),
      size
        ? `${size.lessons} lesson${size.lessons === 1 ? '' : 's'}${size.duration_s ? `, ${formatDuration(size.duration_s)}` : ''}`
        : '',
      `API ${base}/api/v1/courses/${course.id}`,
    ].filter(Boolean);
    lines.push(link(course.title, `${base}/courses/${course.slug}`, facts.join(' · ')));
    const outline = data.outlines?.get(course.id);
    if (data.outlines) {
      if (course.description.trim())
        lines.push(
          '',
          ...course.description
            .trim()
            .split('\n')
            .map((l) => `  ${l}`),
        );
      for (const section of outline ?? []) {
        lines.push('', `  ${section.title}:`);
        for (const lesson of section.lessons) {
          lines.push(`  - ${lesson.title} (${lessonFacts(lesson)})`);
        }
      }
      lines.push('');
    }
  }
  if (data.courses.total > data.courses.items.length) {
    lines.push(
      '',
      `The newest ${data.courses.items.length} of ${data.courses.total} courses are listed. Page through all of them with GET ${base}/api/v1/courses?limit=100, then ?limit=100&starting_after=<next_cursor> (the MCP tool listCourses takes the same arguments).`,
    );
  }
  const every = { month: ' a month', year: ' a year', one_time: ' once' } as const;
  lines.push('', '## Membership plans', '');
  if (data.plans.length === 0) lines.push('The school offers no membership plans.');
  for (const plan of data.plans) {
    const prices = plan.prices
      .map(
        (p) =>
          `${p.amount === 0 ? 'free' : formatMoney(p, locale)}${every[p.interval]}${p.trial_days ? ` (${p.trial_days}-day trial)` : ''}`,
      )
      .join(' or ');
    const includes = [...plan.courses, ...plan.products];
    const facts = [
      prices || 'no price on sale',
      includes.length ? `includes ${includes.join(', ')}` : '',
      `API ${base}/api/v1/membership-plans/${plan.id}`,
    ].filter(Boolean);
    lines.push(link(plan.name, `${base}/plans/${plan.slug}`, facts.join(' · ')));
  }
  lines.push('', '## Digital products', '');
  if (data.products.length === 0) lines.push('The school offers no digital products.');
  for (const product of data.products) {
    const facts = [
      product.price ? formatMoney(product.price, locale) : 'free',
      `${product.files} file${product.files === 1 ? '' : 's'}`,
      `API ${base}/api/v1/digital-products/${product.id}`,
    ];
    lines.push(link(product.title, `${base}/products/${product.slug}`, facts.join(' · ')));
  }
  lines.push('', '## Upcoming events', '');
  lines.push(
    link('Events', `${base}/events`, 'live sessions people register for; each has an .ics file for calendars'),
  );
  if (data.events.length === 0) lines.push('No events are planned at the moment.');
  for (const event of data.events) {
    const facts = [
      eventWhen(event, event.timezone, locale),
      event.address ? (event.online ? `online and at ${event.address}` : event.address) : 'online',
      event.status === 'live' ? 'live now' : '',
      event.seats_left === 0 ? 'full (waitlist open)' : '',
      `calendar ${base}/events/${event.slug}.ics`,
      `API ${base}/api/v1/events/${event.id}`,
    ].filter(Boolean);
    lines.push(link(event.title, `${base}/events/${event.slug}`, facts.join(' · ')));
  }
  if (data.events.length)
    lines.push(
      '',
      `A person registers with the operation registerForEvent (their own token with account:write); GET ${base}/api/v1/events?when=upcoming lists every upcoming event (the MCP tool listEvents takes the same arguments).`,
    );
  lines.push('', '## Posts', '');
  if (data.posts.items.length === 0) lines.push('No posts are published yet.');
  for (const post of data.posts.items) lines.push(link(post.title, `${base}/posts/${post.slug}`, post.excerpt));
  if (data.posts.total > data.posts.items.length)
    lines.push(
      '',
      `The newest ${data.posts.items.length} of ${data.posts.total} posts are listed; page through them with GET ${base}/api/v1/posts?limit=100.`,
    );
  lines.push('', '## Pages', '');
  if (data.pages.length === 0) lines.push('No pages are published yet.');
  for (const page of data.pages)
    lines.push(link(page.title, `${base}/p/${page.slug}`, page.seo_description ?? undefined));
  lines.push(
    '',
    '## Optional',
    '',
    ...(data.outlines
      ? []
      : [link('Everything above in full', `${base}/llms-full.txt`, 'with course descriptions and outlines')]),
    link(
      'Authorization server metadata (RFC 8414)',
      `${base}/.well-known/oauth-authorization-server`,
      'the source of truth for endpoints and scopes',
    ),
    link('OpenID Connect discovery', `${base}/.well-known/openid-configuration`),
    link('Protected resource metadata, API (RFC 9728)', `${base}/.well-known/oauth-protected-resource`),
    link('Protected resource metadata, MCP server', `${base}/.well-known/oauth-protected-resource/mcp`),
    '',
  );
  return lines.join('\n');
}
