import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { Course } from '../../areas/courses/schema.ts';
import type { SearchQuery } from '../../areas/courses/search.ts';
import { errors } from '../../http/errors.ts';
import { isStaff } from '../../http/principal.ts';
import { learnPath } from '../account/player-view.ts';
import { coursePath } from '../shared/course-cards.ts';
import { markdownText } from '../shared/markdown.ts';
import { metaTags } from '../shared/meta.ts';
import { Key, PageQuery, SlugParams, Text } from '../shared/page-schemas.ts';
import { browse, one, type SiteDeps, schoolFacts, visibleLecturers, withQuery } from '../shared/site-deps.ts';
import { summary } from '../shared/text.ts';
import { viewerPrincipal } from '../shared/viewer.ts';
import { type CatalogFilters, catalogView } from './catalog-view.ts';
import { checkoutPath } from './checkout-view.ts';
import { type CourseAction, courseBanner, courseJsonLd, courseView, type OutlineSection } from './course-view.ts';
import { lessonView } from './lesson-view.ts';

export const CATALOG_PAGE_SIZE = 12;
const LECTURER_ID = /^lec_[0-9a-z]{26}$/;
const LECTURER_CHOICES = 100;
/** The catalog's cursors: a course id in the catalog's order, or a cursor of its search (areas/courses/ranked-cursor.ts). */
const CatalogCursor = Type.String({ pattern: '^(crs_[0-9a-z]{26}|rank_[A-Za-z0-9_-]{19,59})$', maxLength: 64 });

/** A page of the catalog: its courses, its links, and for a search how many it found in all. */
type CatalogPage = { data: Course[]; previousHref: string | null; nextHref: string | null; found?: number };

/** Whatever a filter of the catalog's form says that means something; the rest is ignored, as a search box should. */
function filtersOf(query: Record<string, unknown>): CatalogFilters {
  const price = one(query.price);
  const lecturer = one(query.lecturer);
  return {
    q: one(query.q).trim().slice(0, 100),
    lecturer: LECTURER_ID.test(lecturer) ? lecturer : '',
    price: price === 'free' || price === 'paid' ? price : '',
  };
}

/**
 * The catalog (/courses), a course's page (/courses/<slug>) and its lessons (/courses/<slug>/lessons/<id>). Who may
 * see what is the courses and curriculum services' rule for the viewer: anyone sees published public and unlisted
 * courses and preview lessons, enrolled students their private courses, staff everything (drafts are marked); the
 * catalog lists the published public courses only. Anything else is 404.
 */
export function registerCoursePages(fastify: FastifyInstance, deps: SiteDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { courses, curriculum, lecturers } = deps.areas;
  const config = { page: true, sharedPage: true };

  app.get(
    '/courses',
    {
      schema: {
        querystring: PageQuery({
          q: Type.Optional(Text()),
          lecturer: Type.Optional(Text()),
          price: Type.Optional(Text()),
          after: Type.Optional(CatalogCursor),
          before: Type.Optional(CatalogCursor),
        }),
      },
      config,
    },
    async (request, reply) => {
      const principal = viewerPrincipal(request.viewer);
      const filters = filtersOf(request.query);
      const href = (cursor: { after?: string; before?: string }) => withQuery('/courses', { ...filters, ...cursor });
      const listed = {
        status: 'published',
        visibility: 'public',
        ...(filters.lecturer ? { lecturer_id: filters.lecturer } : {}),
        ...(filters.price ? { price: filters.price } : {}),
      } as const;
      const shown: Promise<CatalogPage> = filters.q
        ? searchPage(principal, { ...listed, q: filters.q }, request.query, href)
        : browse(request.query, CATALOG_PAGE_SIZE, (cursor) => courses.list(principal, { ...cursor, ...listed }), href);
      const [school, page, choices] = await Promise.all([
        schoolFacts(deps.areas.school),
        shown,
        lecturers.list(principal, { status: 'active', limit: LECTURER_CHOICES }),
      ]);
      const searched = filters.q || filters.lecturer || filters.price || request.query.after || request.query.before;
      const pictures = await deps.pictures(page.data.map((c) => c.cover_url));
      const body = catalogView({
        courses: page.data,
        pictures,
        filters,
        lecturers: choices.data,
        locale: school.locale,
        previousHref: page.previousHref,
        nextHref: page.nextHref,
        ...(page.found === undefined ? {} : { found: page.found }),
      });
      const head = metaTags({
        title: 'Courses',
        description: `Every course of ${school.name}.`,
        url: `${deps.baseUrl}/courses`,
        siteName: school.name,
        // One canonical catalog for search engines; its filtered and later pages are for people.
        noindex: Boolean(searched),
      });
      return deps.pages.send(request, reply, 'Courses', body, { head });
    },
  );

  /**
   * A page of the catalog's search, best first: after the `after` cursor, or before `before` (Previous), by the
   * search's own cursors; with how many courses it found in all.
   */
  async function searchPage(
    principal: ReturnType<typeof viewerPrincipal>,
    query: Omit<SearchQuery, 'limit'>,
    cursor: { after?: string; before?: string },
    href: (cursor: { after?: string; before?: string }) => string,
  ): Promise<CatalogPage> {
    const { after, before } = cursor;
    const page = await courses.search(principal, {
      ...query,
      limit: CATALOG_PAGE_SIZE,
      ...(after ? { starting_after: after } : before ? { ending_before: before } : {}),
    });
    return {
      data: page.data,
      found: page.total,
      previousHref: page.previous_cursor ? href({ before: page.previous_cursor }) : null,
      nextHref: page.has_more && page.next_cursor ? href({ after: page.next_cursor }) : null,
    };
  }

  /** For someone already in the course (enrolled, or staff): the way into its player; undefined for the rest. */
  async function learnerWay(
    principal: ReturnType<typeof viewerPrincipal>,
    courseId: string,
    slug: string,
  ): Promise<CourseAction | undefined> {
    if (principal.kind !== 'user') return undefined;
    if (isStaff(principal)) return { kind: 'continue', href: learnPath(slug), label: 'Open the course' };
    const { data } = await deps.areas.students.listEnrollments(principal, 'me', { course_id: courseId, limit: 1 });
    const status = data[0]?.status;
    if (status === 'active') return { kind: 'continue', href: learnPath(slug), label: 'Continue learning' };
    if (status === 'completed') return { kind: 'continue', href: learnPath(slug), label: 'Review the course' };
    return undefined;
  }

  const outlineOf = async (principal: ReturnType<typeof viewerPrincipal>, courseId: string) =>
    (await curriculum.outline(principal, courseId)).map(
      ({ section, lessons }): OutlineSection => ({ id: section.id, title: section.title, lessons }),
    );

  app.get('/courses/:slug', { schema: { params: SlugParams }, config }, async (request, reply) => {
    const principal = viewerPrincipal(request.viewer);
    const course = await courses.get(principal, request.params.slug);
    const [school, outline, people] = await Promise.all([
      schoolFacts(deps.areas.school),
      outlineOf(principal, course.id),
      visibleLecturers(lecturers, principal, course.lecturer_ids),
    ]);
    const path = coursePath(course.slug);
    const way = await learnerWay(principal, course.id, course.slug);
    const action: CourseAction = way
      ? way
      : !course.enrollment_open
        ? { kind: 'closed' }
        : course.price
          ? { kind: 'buy', href: deps.areas.orders.takesPayments ? checkoutPath('course', course.slug) : null }
          : request.viewer
            ? { kind: 'enroll', csrf: reply.generateCsrf() }
            : { kind: 'sign-in', href: `/signin?return_to=${encodeURIComponent(path)}` };
    const listed = course.status === 'published' && course.visibility === 'public';
    const [pictures, share] = await Promise.all([
      deps.pictures([course.cover_url, ...people.map((l) => l.avatar_url)]),
      // A course only some may see keeps its picture to itself: its share image would answer anyone.
      listed ? deps.share.course(course) : undefined,
    ]);
    const data = { course, lecturers: people, outline, locale: school.locale, action, pictures };
    const head = metaTags({
      title: course.title,
      description: summary(course.subtitle || markdownText(course.description) || course.title),
      url: `${deps.baseUrl}${path}`,
      siteName: school.name,
      ...(share ? { image: share.url, imageAlt: share.alt, ...(share.size ? { imageSize: share.size } : {}) } : {}),
      noindex: course.status !== 'published' || course.visibility !== 'public',
      jsonLd: courseJsonLd(data, { baseUrl: deps.baseUrl, schoolName: school.name }),
    });
    return deps.pages.send(request, reply, course.title, courseView(data), { head, banner: courseBanner(data) });
  });

  app.get(
    '/courses/:slug/lessons/:lesson',
    { schema: { params: Type.Object({ slug: Key, lesson: Key }) }, config },
    async (request, reply) => {
      const principal = viewerPrincipal(request.viewer);
      const course = await courses.get(principal, request.params.slug);
      const lesson = await curriculum.getLesson(principal, request.params.lesson);
      if (lesson.course_id !== course.id) throw errors.notFound('lesson');
      const school = await schoolFacts(deps.areas.school);
      const head = metaTags({
        title: lesson.title,
        description: `A lesson of ${course.title}.`,
        url: `${deps.baseUrl}${coursePath(course.slug)}/lessons/${lesson.id}`,
        siteName: school.name,
        noindex: lesson.locked || course.visibility !== 'public' || course.status !== 'published',
      });
      return deps.pages.send(request, reply, lesson.title, lessonView({ course, lesson }), { head });
    },
  );
}
