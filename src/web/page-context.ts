import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SchoolStore } from '../areas/school/store.ts';
import type { Db } from '../db/tables.ts';
import type { SessionService } from '../identity/sessions.ts';
import type { SafeHtml } from './html.ts';
import { layout, type PageContext } from './layout.ts';
import type { SessionCookie } from './viewer.ts';

export type PageRenderer = (
  request: FastifyRequest,
  reply: FastifyReply,
  title: string,
  body: SafeHtml,
  status?: number,
) => Promise<FastifyReply>;

/** Renders a page inside the layout with the school's name and the signed-in user. */
export function pageRenderer(deps: { db: Db; school: SchoolStore }): PageRenderer {
  return async (request, reply, title, body, status = 200) => {
    const school = await deps.school.get(deps.db);
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(layout({ schoolName: school?.name, viewer: request.viewer }, title, body));
  };
}

/**
 * The layout's context for a request that reached no page route (the HTML 404 page), where the page routes' viewer
 * hook did not run: the school's name and whoever the session cookie names.
 */
export function requestPageContext(deps: {
  db: Db;
  school: SchoolStore;
  sessions: SessionService;
  cookie: SessionCookie;
}): (request: FastifyRequest) => Promise<PageContext> {
  return async (request) => {
    const token = deps.cookie.read(request);
    const [school, session] = await Promise.all([
      deps.school.get(deps.db),
      token ? deps.sessions.resolve(token) : undefined,
    ]);
    return { schoolName: school?.name, viewer: session?.user };
  };
}
