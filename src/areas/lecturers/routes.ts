import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { noContent } from '../../http/no-content.ts';
import { errorResponses } from '../../http/schemas.ts';
import {
  Lecturer,
  LecturerCreate,
  LecturerIdParams,
  LecturerListQuery,
  LecturerPage,
  LecturerUpdate,
} from './schema.ts';
import type { LecturersService } from './service.ts';

const tags = ['lecturers'];
const read = { scope: 'lecturers:read', anonymous: true } as const;
const write = { scope: 'lecturers:write' } as const;
const writeErrors = errorResponses(400, 401, 403, 404, 409);

export function lecturersRoutes(fastify: FastifyInstance, service: LecturersService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/api/v1/lecturers', {
    config: read,
    schema: {
      operationId: 'listLecturers',
      tags,
      summary: 'List lecturers (anonymous callers and students: active ones, without email)',
      querystring: LecturerListQuery,
      response: { 200: LecturerPage, ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => service.list(request.principal, request.query),
  });

  app.get('/api/v1/lecturers/:id', {
    config: read,
    schema: {
      operationId: 'getLecturer',
      tags,
      summary: 'Get a lecturer',
      params: LecturerIdParams,
      response: { 200: Lecturer, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => service.get(request.principal, request.params.id),
  });

  app.post('/api/v1/lecturers', {
    config: { ...write, idempotent: true },
    schema: {
      operationId: 'createLecturer',
      tags,
      summary: 'Create a lecturer profile',
      body: LecturerCreate,
      response: { 201: Lecturer, ...writeErrors },
    },
    handler: async (request, reply) => reply.code(201).send(await service.create(request.body)),
  });

  app.patch('/api/v1/lecturers/:id', {
    config: write,
    schema: {
      operationId: 'updateLecturer',
      tags,
      summary: 'Update a lecturer profile',
      params: LecturerIdParams,
      body: LecturerUpdate,
      response: { 200: Lecturer, ...writeErrors },
    },
    handler: async (request) => service.update(request.params.id, request.body),
  });

  app.delete('/api/v1/lecturers/:id', {
    config: write,
    schema: {
      operationId: 'deleteLecturer',
      tags,
      summary: 'Delete a lecturer who is not listed on any course',
      params: LecturerIdParams,
      response: { 204: Type.Null(), ...writeErrors },
    },
    handler: async (request, reply) => noContent(reply, service.delete(request.params.id)),
  });

  for (const [action, operationId, summary] of [
    ['archive', 'archiveLecturer', 'Archive a lecturer (hidden from everyone but staff; courses keep listing them)'],
    ['restore', 'restoreLecturer', 'Make an archived lecturer active again'],
  ] as const) {
    app.post(`/api/v1/lecturers/:id/${action}`, {
      config: write,
      schema: { operationId, tags, summary, params: LecturerIdParams, response: { 200: Lecturer, ...writeErrors } },
      handler: async (request) => service[action](request.params.id),
    });
  }
}
