import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { sendCsv } from '../../http/csv.ts';
import { noContent } from '../../http/no-content.ts';
import { errorResponses } from '../../http/schemas.ts';
import {
  Form,
  FormCreate,
  FormIdParams,
  FormListQuery,
  FormPage,
  FormUpdate,
  SubmissionExportQuery,
  SubmissionListQuery,
  SubmissionPage,
} from './schema.ts';
import type { FormsService } from './service.ts';

const tags = ['forms'];
// Forms and what visitors send through them are staff business: forms:read is staff-only. The spec gives forms no
// write scope; forms belong to the school's pages, so the pages' editors (pages:write) define them.
const read = { scope: 'forms:read' } as const;
const write = { scope: 'pages:write' } as const;
const writeErrors = errorResponses(400, 401, 403, 404, 409);

export function formsRoutes(fastify: FastifyInstance, service: FormsService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/api/v1/forms', {
    config: read,
    schema: {
      operationId: 'listForms',
      tags,
      summary: 'List forms (filters status, page_id, q: text in the title)',
      querystring: FormListQuery,
      response: { 200: FormPage, ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => service.list(request.query),
  });

  app.get('/api/v1/forms/:id', {
    config: read,
    schema: {
      operationId: 'getForm',
      tags,
      summary: 'Get a form',
      params: FormIdParams,
      response: { 200: Form, ...errorResponses(401, 403, 404) },
    },
    handler: async (request) => service.get(request.params.id),
  });

  app.post('/api/v1/forms', {
    config: { ...write, idempotent: true },
    schema: {
      operationId: 'createForm',
      tags,
      summary: 'Create a form, optionally placed on a page (shown after its body while active)',
      body: FormCreate,
      response: { 201: Form, ...writeErrors },
    },
    handler: async (request, reply) => reply.code(201).send(await service.create(request.body)),
  });

  app.patch('/api/v1/forms/:id', {
    config: write,
    schema: {
      operationId: 'updateForm',
      tags,
      summary: 'Update a form: its fields, page, status (close it to take it off the page), messages and recipients',
      params: FormIdParams,
      body: FormUpdate,
      response: { 200: Form, ...writeErrors },
    },
    handler: async (request) => service.update(request.params.id, request.body),
  });

  app.delete('/api/v1/forms/:id', {
    config: write,
    schema: {
      operationId: 'deleteForm',
      tags,
      summary: 'Delete a form that has no submissions (close one that has)',
      params: FormIdParams,
      response: { 204: Type.Null(), ...writeErrors },
    },
    handler: async (request, reply) => noContent(reply, service.delete(request.params.id)),
  });

  app.get('/api/v1/forms/:id/submissions', {
    config: read,
    schema: {
      operationId: 'listFormSubmissions',
      tags,
      summary: "List a form's submissions (filters created_after, created_before, email, q: text in any value)",
      params: FormIdParams,
      querystring: SubmissionListQuery,
      response: { 200: SubmissionPage, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => service.listSubmissions(request.params.id, request.query),
  });

  app.get('/api/v1/forms/:id/submissions/export', {
    // A file, not JSON: the MCP tools leave it out (listFormSubmissions serves agents).
    config: { ...read, binary: true },
    schema: {
      operationId: 'exportFormSubmissions',
      tags,
      summary: "Export a form's submissions as CSV",
      description:
        'One header line of the field labels (after "Submission" and "Submitted at", before "Signed-in user"), then ' +
        'one line per submission the filters select, newest first (sort=created_at: oldest first); not paged. ' +
        'Text a spreadsheet would run as a formula (starting with = + - @) is written with a leading apostrophe.',
      params: FormIdParams,
      querystring: SubmissionExportQuery,
      response: {
        200: { description: 'CSV (RFC 4180), UTF-8', content: { 'text/csv': { schema: Type.String() } } },
        ...errorResponses(400, 401, 403, 404),
      },
    },
    handler: async (request, reply) =>
      sendCsv(reply, `form-${request.params.id}.csv`, await service.exportCsv(request.params.id, request.query)),
  });
}
