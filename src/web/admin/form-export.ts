import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { IdParams } from '../shared/page-schemas.ts';
import { ADMIN_ROUTE, adminGate } from './admin-context.ts';
import type { AdminRouteCall } from './form-kit/calls.ts';

/** A form's submissions as the CSV file the API's exportFormSubmissions writes, downloaded from the admin. */
export function registerFormExport(fastify: FastifyInstance, deps: { route: AdminRouteCall }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/admin/forms/:id/submissions.csv',
    { schema: { params: IdParams }, ...ADMIN_ROUTE, preHandler: adminGate() },
    async (request, reply) => {
      const answer = await deps.route(request, {
        method: 'GET',
        url: `/api/v1/forms/${encodeURIComponent(request.params.id)}/submissions/export`,
      });
      if (answer.statusCode !== 200) return reply.callNotFound();
      return reply
        .type(String(answer.headers['content-type']))
        .header('content-disposition', String(answer.headers['content-disposition']))
        .header('cache-control', 'no-store')
        .send(answer.rawPayload);
    },
  );
}
