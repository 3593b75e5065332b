import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { noContent } from '../../http/no-content.ts';
import { errorResponses } from '../../http/schemas.ts';
import { CourseIdParams, CourseKeyParams } from '../courses/schema.ts';
import {
  Lesson,
  LessonCreate,
  LessonIdParams,
  LessonListQuery,
  LessonMove,
  LessonPage,
  LessonReorder,
  LessonUpdate,
  Section,
  SectionCreate,
  SectionIdParams,
  SectionListQuery,
  SectionPage,
  SectionReorder,
  SectionUpdate,
} from './schema.ts';
import type { CurriculumService } from './service.ts';

const tags = ['curriculum'];
const read = { scope: 'curriculum:read', anonymous: true } as const;
const write = { scope: 'curriculum:write' } as const;
const readErrors = errorResponses(400, 401, 403, 404);
const writeErrors = errorResponses(400, 401, 403, 404, 409);

export function curriculumRoutes(fastify: FastifyInstance, service: CurriculumService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/api/v1/courses/:id/sections', {
    config: read,
    schema: {
      operationId: 'listSections',
      tags,
      summary: "A course's sections, in order",
      params: CourseKeyParams,
      querystring: SectionListQuery,
      response: { 200: SectionPage, ...readErrors },
    },
    handler: async (request) => service.listSections(request.principal, request.params.id, request.query),
  });

  app.post('/api/v1/courses/:id/sections', {
    config: { ...write, idempotent: true },
    schema: {
      operationId: 'createSection',
      tags,
      summary: 'Add a draft section to a course',
      params: CourseIdParams,
      body: SectionCreate,
      response: { 201: Section, ...writeErrors },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await service.createSection(request.params.id, request.body)),
  });

  app.post('/api/v1/courses/:id/sections/reorder', {
    config: write,
    schema: {
      operationId: 'reorderSections',
      tags,
      summary: "Reorder a course's sections",
      params: CourseIdParams,
      body: SectionReorder,
      response: { 200: SectionPage, ...writeErrors },
    },
    handler: async (request) => service.reorderSections(request.params.id, request.body.section_ids),
  });

  app.get('/api/v1/sections/:id', {
    config: read,
    schema: {
      operationId: 'getSection',
      tags,
      summary: 'Get a section',
      params: SectionIdParams,
      response: { 200: Section, ...readErrors },
    },
    handler: async (request) => service.getSection(request.principal, request.params.id),
  });

  app.patch('/api/v1/sections/:id', {
    config: write,
    schema: {
      operationId: 'updateSection',
      tags,
      summary: 'Change a section title or drip',
      params: SectionIdParams,
      body: SectionUpdate,
      response: { 200: Section, ...writeErrors },
    },
    handler: async (request) => service.updateSection(request.params.id, request.body),
  });

  app.delete('/api/v1/sections/:id', {
    config: write,
    schema: {
      operationId: 'deleteSection',
      tags,
      summary: 'Delete an empty section',
      params: SectionIdParams,
      response: { 204: Type.Null(), ...writeErrors },
    },
    handler: async (request, reply) => noContent(reply, service.deleteSection(request.params.id)),
  });

  app.get('/api/v1/sections/:id/lessons', {
    config: read,
    schema: {
      operationId: 'listLessons',
      tags,
      summary: "A section's lessons, in order (bodies where the caller may see them)",
      params: SectionIdParams,
      querystring: LessonListQuery,
      response: { 200: LessonPage, ...readErrors },
    },
    handler: async (request) => service.listLessons(request.principal, request.params.id, request.query),
  });

  app.post('/api/v1/sections/:id/lessons', {
    config: { ...write, idempotent: true },
    schema: {
      operationId: 'createLesson',
      tags,
      summary: 'Add a draft lesson to a section',
      params: SectionIdParams,
      body: LessonCreate,
      response: { 201: Lesson, ...writeErrors },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await service.createLesson(request.params.id, request.body)),
  });

  app.post('/api/v1/sections/:id/lessons/reorder', {
    config: write,
    schema: {
      operationId: 'reorderLessons',
      tags,
      summary: "Reorder a section's lessons",
      params: SectionIdParams,
      body: LessonReorder,
      response: { 200: LessonPage, ...writeErrors },
    },
    handler: async (request) => service.reorderLessons(request.params.id, request.body.lesson_ids),
  });

  app.get('/api/v1/lessons/:id', {
    config: read,
    schema: {
      operationId: 'getLesson',
      tags,
      summary: 'Get a lesson (locked unless the caller may see it)',
      params: LessonIdParams,
      response: { 200: Lesson, ...readErrors },
    },
    handler: async (request) => service.getLesson(request.principal, request.params.id),
  });

  app.patch('/api/v1/lessons/:id', {
    config: write,
    schema: {
      operationId: 'updateLesson',
      tags,
      summary: 'Change a lesson',
      params: LessonIdParams,
      body: LessonUpdate,
      response: { 200: Lesson, ...writeErrors },
    },
    handler: async (request) => service.updateLesson(request.params.id, request.body),
  });

  app.delete('/api/v1/lessons/:id', {
    config: write,
    schema: {
      operationId: 'deleteLesson',
      tags,
      summary: 'Delete a draft lesson',
      params: LessonIdParams,
      response: { 204: Type.Null(), ...writeErrors },
    },
    handler: async (request, reply) => noContent(reply, service.deleteLesson(request.params.id)),
  });

  app.post('/api/v1/lessons/:id/move', {
    config: write,
    schema: {
      operationId: 'moveLesson',
      tags,
      summary: 'Move a lesson within its course',
      params: LessonIdParams,
      body: LessonMove,
      response: { 200: Lesson, ...writeErrors },
    },
    handler: async (request) => service.moveLesson(request.params.id, request.body),
  });

  for (const [action, operationId, summary] of [
    ['publish', 'publishSection', 'Publish a section (its published lessons become visible)'],
    ['unpublish', 'unpublishSection', 'Return a section to draft (hides all its lessons)'],
  ] as const) {
    app.post(`/api/v1/sections/:id/${action}`, {
      config: write,
      schema: { operationId, tags, summary, params: SectionIdParams, response: { 200: Section, ...writeErrors } },
      handler: async (request) => service[operationId](request.params.id),
    });
  }

  for (const [action, operationId, summary] of [
    ['publish', 'publishLesson', 'Publish a lesson (it needs its body or file, by type)'],
    ['unpublish', 'unpublishLesson', 'Return a lesson to draft'],
  ] as const) {
    app.post(`/api/v1/lessons/:id/${action}`, {
      config: write,
      schema: { operationId, tags, summary, params: LessonIdParams, response: { 200: Lesson, ...writeErrors } },
      handler: async (request) => service[operationId](request.params.id),
    });
  }
}
