import type { FastifyReply, FastifyRequest } from 'fastify';
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

/** The school's name, or undefined before setup; the composition root says where it is read from. */
export type SchoolName = () => Promise<string | undefined>;

/** Renders a page inside the layout with the school's name and the signed-in user. */
export function pageRenderer(deps: { schoolName: SchoolName }): PageRenderer {
  return async (request, reply, title, body, status = 200) => {
    const schoolName = await deps.schoolName();
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(layout({ schoolName, viewer: request.viewer }, title, body));
  };
}

/**
 * The layout's context for a request that reached no page route (the HTML 404 page), where the page routes' viewer
 * hook did not run: the school's name and whoever the session cookie names.
 */
export function requestPageContext(deps: {
  schoolName: SchoolName;
  sessions: SessionService;
  cookie: SessionCookie;
}): (request: FastifyRequest) => Promise<PageContext> {
  return async (request) => {
    const token = deps.cookie.read(request);
    const [schoolName, session] = await Promise.all([
      deps.schoolName(),
      token ? deps.sessions.resolve(token) : undefined,
    ]);
    return { schoolName, viewer: session?.user };
  };
}
