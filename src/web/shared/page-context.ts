import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionService } from '../../identity/sessions.ts';
import type { SafeHtml } from '../../text/html.ts';
import { type LayoutOptions, layout, type PageContext, type SiteLook } from './layout.ts';
import type { SessionCookie } from './viewer.ts';

export type PageRenderer = (
  request: FastifyRequest,
  reply: FastifyReply,
  title: string,
  body: SafeHtml,
  status?: number,
) => Promise<FastifyReply>;

/** A whole page as HTML text, in the school's look, for the request's viewer. */
export type PageWriter = (
  request: FastifyRequest,
  title: string,
  body: SafeHtml,
  options?: LayoutOptions,
) => Promise<string>;

/** The school's name, or undefined before setup; the composition root says where it is read from. */
export type SchoolName = () => Promise<string | undefined>;

/** The school's logo, menu and theme version; the composition root says where it is read from. */
export type LookSource = () => Promise<SiteLook | undefined>;

export function pageWriter(deps: { schoolName: SchoolName; look: LookSource }): PageWriter {
  return async (request, title, body, options) => {
    const [schoolName, look] = await Promise.all([deps.schoolName(), deps.look()]);
    return layout({ schoolName, viewer: request.viewer, look }, title, body, options);
  };
}

/** Renders a personal page (forms, account) inside the layout; such pages are never stored by caches. */
export function pageRenderer(deps: { write: PageWriter }): PageRenderer {
  return async (request, reply, title, body, status = 200) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(await deps.write(request, title, body));
}

/**
 * The layout's context for a request that reached no page route (the HTML 404 page), where the page routes' viewer
 * hook did not run: the school's name and whoever the session cookie names.
 */
export function requestPageContext(deps: {
  schoolName: SchoolName;
  look: LookSource;
  sessions: SessionService;
  cookie: SessionCookie;
}): (request: FastifyRequest) => Promise<PageContext> {
  return async (request) => {
    const token = deps.cookie.read(request);
    const [schoolName, look, session] = await Promise.all([
      deps.schoolName(),
      deps.look(),
      token ? deps.sessions.resolve(token) : undefined,
    ]);
    return { schoolName, viewer: session?.user, look };
  };
}
