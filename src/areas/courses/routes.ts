import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { noContent } from '../../http/no-content.ts';
import { errorResponses } from '../../http/schemas.ts';
import {
  Course,
  CourseCreate,
  CourseIdParams,
  CourseKeyParams,
  CourseListQuery,
  CoursePage,
  CourseUpdate,
} from './schema.ts';
import type { CoursesService } from './service.ts';

const tags = ['courses'];
const read = { scope: 'courses:read', anonymous: true } as const;
const write = { scope: 'courses:write' } as const;
const writeErrors = errorResponses(400, 401, 403, 404, 409);
/** The service method behind each state action of a course. */
const ACTIONS = {
  publish: 'publish',
  'publish-with-contents': 'publishWithContents',
  unpublish: 'unpublish',
  archive: 'archive',
} as const;

export function courseRoutes(fastify: FastifyInstance, service: CoursesService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/api/v1/courses', {
    config: { ...read, microcache: 'courses' },
    schema: {
      operationId: 'listCourses',
      tags,
      summary: 'List courses',
      querystring: CourseListQuery,
      response: { 200: CoursePage, ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => service.list(request.principal, request.query),
  });

  app.get('/api/v1/courses/:id', {
    config: read,
    schema: {
      operationId: 'getCourse',
      tags,
      summary: 'Get a course by id or slug',
      params: CourseKeyParams,
      response: { 200: Course, ...errorResponses(401, 403, 404) },
    },
    handler: async (request) => service.get(request.principal, request.params.id),
  });

  app.post('/api/v1/courses', {
    config: { ...write, idempotent: true },
    schema: {
      operationId: 'createCourse',
      tags,
      summary: 'Create a draft course',
      body: CourseCreate,
      response: { 201: Course, ...writeErrors },
    },
    handler: async (request, reply) => reply.code(201).send(await service.create(request.body)),
  });

  app.patch('/api/v1/courses/:id', {
    config: write,
    schema: {
      operationId: 'updateCourse',
      tags,
      summary: 'Update a course',
      params: CourseIdParams,
      body: CourseUpdate,
      response: { 200: Course, ...writeErrors },
    },
    handler: async (request) => service.update(request.params.id, request.body),
  });

  app.delete('/api/v1/courses/:id', {
    config: write,
    schema: {
      operationId: 'deleteCourse',
      tags,
      summary: 'Delete a draft course',
      params: CourseIdParams,
      response: { 204: Type.Null(), ...writeErrors },
    },
    handler: async (request, reply) => noContent(reply, service.delete(request.params.id)),
  });

  for (const [action, operationId, summary] of [
    ['publish', 'publishCourse', 'Publish a course (it needs a title and a published lesson)'],
    ['publish-with-contents', 'publishCourseWithContents', 'Publish a course with its draft sections and lessons'],
    ['unpublish', 'unpublishCourse', 'Return a published course to draft'],
    ['archive', 'archiveCourse', 'Archive a course (hidden; enrolled students keep access)'],
  ] as const) {
    app.post(`/api/v1/courses/:id/${action}`, {
      config: write,
      schema: { operationId, tags, summary, params: CourseIdParams, response: { 200: Course, ...writeErrors } },
      handler: async (request) => service[ACTIONS[action]](request.params.id),
    });
  }
}
