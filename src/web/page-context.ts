import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SchoolStore } from '../areas/school/store.ts';
import type { Db } from '../db/tables.ts';
import type { SafeHtml } from './html.ts';
import { layout } from './layout.ts';

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
