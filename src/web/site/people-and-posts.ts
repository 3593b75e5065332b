import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../http/errors.ts';
import { markdownText } from '../shared/markdown.ts';
import { metaTags } from '../shared/meta.ts';
import { IdParams, ListQuery } from '../shared/page-schemas.ts';
import { browse, type SiteDeps, schoolFacts, withQuery } from '../shared/site-deps.ts';
import { summary } from '../shared/text.ts';
import { viewerPrincipal } from '../shared/viewer.ts';
import { lecturerPath } from './course-view.ts';
import { lecturerListView, lecturerView } from './lecturers-view.ts';
import { postListView } from './posts-view.ts';

const LECTURER_ID = /^lec_[0-9a-z]{26}$/;

/**
 * The lecturers (/lecturers, /lecturers/<id>) and the posts list (/posts; each post's own page is post-page.ts; the
 * school's pages are school-pages.ts). Each reads through its area's service with the viewer's principal: archived
 * lecturers and posts the viewer may not read are 404.
 */
export function registerPeopleAndPostPages(fastify: FastifyInstance, deps: SiteDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { lecturers, courses, posts } = deps.areas;
  const config = { page: true, sharedPage: true };

  app.get('/lecturers', { schema: { querystring: ListQuery({}) }, config }, async (request, reply) => {
    const principal = viewerPrincipal(request.viewer);
    const [school, page] = await Promise.all([
      schoolFacts(deps.areas.school),
      browse(
        request.query,
        24,
        (cursor) => lecturers.list(principal, { ...cursor, status: 'active' }),
        (cursor) => withQuery('/lecturers', cursor),
      ),
    ]);
    const head = metaTags({
      title: 'Lecturers',
      description: `Who teaches at ${school.name}.`,
      url: `${deps.baseUrl}/lecturers`,
      siteName: school.name,
      noindex: Boolean(request.query.after || request.query.before),
    });
    const pictures = await deps.pictures(page.data.map((l) => l.avatar_url));
    const body = lecturerListView({ lecturers: page.data, pictures, ...page });
    return deps.pages.send(request, reply, 'Lecturers', body, { head });
  });

  app.get('/lecturers/:id', { schema: { params: IdParams }, config }, async (request, reply) => {
    if (!LECTURER_ID.test(request.params.id)) throw errors.notFound('lecturer');
    const principal = viewerPrincipal(request.viewer);
    const lecturer = await lecturers.get(principal, request.params.id);
    const [school, taught] = await Promise.all([
      schoolFacts(deps.areas.school),
      courses.list(principal, { lecturer_id: lecturer.id, status: 'published', visibility: 'public', limit: 12 }),
    ]);
    const head = metaTags({
      title: lecturer.name,
      description: summary(
        lecturer.title || markdownText(lecturer.bio) || `${lecturer.name} teaches at ${school.name}.`,
      ),
      url: `${deps.baseUrl}${lecturerPath(lecturer.id)}`,
      siteName: school.name,
      type: 'profile',
      image: lecturer.avatar_url,
      noindex: lecturer.status !== 'active',
    });
    const pictures = await deps.pictures([lecturer.avatar_url, ...taught.data.map((c) => c.cover_url)]);
    const body = lecturerView({
      lecturer,
      pictures,
      courses: taught.data,
      locale: school.locale,
      moreHref: taught.has_more ? withQuery('/courses', { lecturer: lecturer.id }) : null,
    });
    return deps.pages.send(request, reply, lecturer.name, body, { head });
  });

  app.get('/posts', { schema: { querystring: ListQuery({}) }, config }, async (request, reply) => {
    const principal = viewerPrincipal(request.viewer);
    const [school, page] = await Promise.all([
      schoolFacts(deps.areas.school),
      browse(
        request.query,
        10,
        (cursor) => posts.list(principal, { ...cursor, status: 'published' }),
        (cursor) => withQuery('/posts', cursor),
      ),
    ]);
    const head = metaTags({
      title: 'Posts',
      description: `News and articles from ${school.name}.`,
      url: `${deps.baseUrl}/posts`,
      siteName: school.name,
      noindex: Boolean(request.query.after || request.query.before),
    });
    const pictures = await deps.pictures(page.data.map((p) => p.cover_url));
    const body = postListView({ posts: page.data, dates: school.dates, pictures, ...page });
    return deps.pages.send(request, reply, 'Posts', body, { head });
  });
}
