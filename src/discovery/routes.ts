import type { FastifyInstance } from 'fastify';
import type { SchoolStore } from '../areas/school/store.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/tables.ts';
import { authMarkdown } from './auth-md.ts';

export function registerDiscoveryRoutes(app: FastifyInstance, deps: { config: Config; db: Db; school: SchoolStore }) {
  app.get('/auth.md', { config: { public: true } }, async (_request, reply) => {
    const school = await deps.school.get(deps.db);
    return reply
      .type('text/markdown; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .send(authMarkdown(deps.config, { name: school?.name, supportEmail: school?.support_email }));
  });
}
