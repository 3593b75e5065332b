import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { markdownHtml } from '../shared/markdown.ts';
import { DerivedFormBody } from '../shared/page-schemas.ts';
import { ADMIN_ROUTE, adminPostGate, one } from './admin-context.ts';

/** The largest text the preview renders (a lesson body's limit). */
const MOST = 100_000;

/**
 * A text as the site will show it, for the admin's Markdown preview (admin.js): the same renderer as the pages, so
 * the preview cannot differ from the result. Staff only, with the form's CSRF token; writes nothing.
 */
export function registerMarkdownPreview(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/admin/preview',
    { schema: { body: DerivedFormBody }, ...ADMIN_ROUTE, preHandler: adminPostGate(app) },
    async (request, reply) => {
      const text = one(request.body.text).slice(0, MOST);
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(markdownHtml(text).value);
    },
  );
}
