import type { FastifyInstance } from 'fastify';
import type { SchoolStore } from '../areas/school/store.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/tables.ts';
import { authMarkdown } from './auth-md.ts';
import { sendDocument } from './conditional.ts';
import type { DiscoveryDocuments } from './documents.ts';

export function registerDiscoveryRoutes(
  app: FastifyInstance,
  deps: { config: Config; db: Db; school: SchoolStore; documents: DiscoveryDocuments },
) {
  const text = 'text/plain; charset=utf-8';
  const config = { public: true };
  app.get('/llms.txt', { config }, async (request, reply) =>
    sendDocument(request, reply, await deps.documents.llmsTxt(), text),
  );
  app.get('/llms-full.txt', { config }, async (request, reply) =>
    sendDocument(request, reply, await deps.documents.llmsFullTxt(), text),
  );
  app.get('/pricing.md', { config }, async (request, reply) =>
    sendDocument(request, reply, await deps.documents.pricingMd(), 'text/markdown; charset=utf-8'),
  );
  app.get('/auth.md', { config: { public: true } }, async (_request, reply) => {
    const school = await deps.school.get(deps.db);
    return reply
      .type('text/markdown; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .send(authMarkdown(deps.config, { name: school?.name }));
  });
}
