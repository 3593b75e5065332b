import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { madeOrFound } from '../../http/made-or-found.ts';
import { errorResponses } from '../../http/schemas.ts';
import { QuizSubmission } from '../curriculum/schema.ts';
import {
  BulkEnrollment,
  BulkEnrollmentCreate,
  Enrollment,
  EnrollmentCreate,
  EnrollmentListQuery,
  EnrollmentPage,
  JobIdParams,
  LessonParams,
  Progress,
  QuizAttemptList,
  QuizAttemptResult,
  SelfEnrollment,
  Student,
  StudentCourseParams,
  StudentCreate,
  StudentEnrollmentParams,
  StudentIdParams,
  StudentLessonParams,
  StudentListQuery,
  StudentPage,
  StudentParams,
  StudentUpdate,
} from './schema.ts';
import type { StudentsService } from './service.ts';

const tags = ['students'];
// There is no public student data: anonymous callers get 403 insufficient_scope everywhere. A student's
// students:read token reads their own record (`me` or their id); students:write is staff-only.
const read = { scope: 'students:read' } as const;
const write = { scope: 'students:write' } as const;
const writeErrors = errorResponses(400, 401, 403, 404, 409);

/** 202 with the accepted job, and where to follow it. */
async function accepted(reply: FastifyReply, work: Promise<{ id: string }>) {
  const job = await work;
  return reply.code(202).header('location', `/api/v1/students/bulk-enrollments/${job.id}`).send(job);
}

export function studentsRoutes(fastify: FastifyInstance, service: StudentsService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/api/v1/students', {
    config: read,
    schema: {
      operationId: 'listStudents',
      tags,
      summary: 'List students (a student sees only themselves)',
      querystring: StudentListQuery,
      response: { 200: StudentPage, ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => service.list(request.principal, request.query),
  });

  app.post('/api/v1/students', {
    config: { ...write, idempotent: true },
    schema: {
      operationId: 'createStudent',
      tags,
      summary: 'Add a student by e-mail (invited to set a password), or rename the student who has that e-mail',
      description: '201 when the student is new, 200 when one with this e-mail existed; 409 for a staff e-mail.',
      body: StudentCreate,
      response: { 201: Student, 200: Student, ...writeErrors },
    },
    handler: async (request, reply) => madeOrFound(reply, service.create(request.body)),
  });

  app.post('/api/v1/students/bulk-enrollments', {
    config: { ...write, idempotent: true },
    schema: {
      operationId: 'bulkEnrollStudents',
      tags,
      summary: 'Enroll up to 1,000 people (added as students when new) in courses, as a background job',
      description:
        'Answers 202 with the job (Location: where to follow it). Rows with a malformed e-mail or an unknown, ' +
        'draft or archived course come back invalid in the results; the other rows are enrolled.',
      body: BulkEnrollmentCreate,
      response: { 202: BulkEnrollment, ...writeErrors },
    },
    handler: async (request, reply) => accepted(reply, service.startBulkEnrollment(request.body)),
  });

  app.get('/api/v1/students/bulk-enrollments/:id', {
    config: read,
    schema: {
      operationId: 'getBulkEnrollment',
      tags,
      summary: 'Follow a bulk enrollment: its status, progress and the result of each row done (staff only)',
      params: JobIdParams,
      response: { 200: BulkEnrollment, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => service.getBulkEnrollment(request.principal, request.params.id),
  });

  app.get('/api/v1/students/:id', {
    config: read,
    schema: {
      operationId: 'getStudent',
      tags,
      summary: 'Get a student by id, or yourself with "me"',
      params: StudentParams,
      response: { 200: Student, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => service.get(request.principal, request.params.id),
  });

  app.patch('/api/v1/students/:id', {
    config: write,
    schema: {
      operationId: 'updateStudent',
      tags,
      summary: 'Change a student’s name or e-mail',
      params: StudentIdParams,
      body: StudentUpdate,
      response: { 200: Student, ...writeErrors },
    },
    handler: async (request) => service.update(request.params.id, request.body),
  });

  for (const [action, operationId, summary] of [
    ['suspend', 'suspendStudent', 'Suspend a student: their sessions end and their tokens are refused at once'],
    ['reactivate', 'reactivateStudent', 'Reactivate a suspended student: they can sign in again'],
  ] as const) {
    app.post(`/api/v1/students/:id/${action}`, {
      config: write,
      schema: { operationId, tags, summary, params: StudentIdParams, response: { 200: Student, ...writeErrors } },
      handler: async (request) => service[action](request.params.id),
    });
  }

  app.get('/api/v1/students/:id/enrollments', {
    config: read,
    schema: {
      operationId: 'listStudentEnrollments',
      tags,
      summary: 'List a student’s enrollments (yours with "me")',
      params: StudentParams,
      querystring: EnrollmentListQuery,
      response: { 200: EnrollmentPage, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => service.listEnrollments(request.principal, request.params.id, request.query),
  });

  app.post('/api/v1/students/:id/enrollments', {
    config: { ...write, idempotent: true },
    schema: {
      operationId: 'enrollStudent',
      tags,
      summary: 'Enroll a student in a published course (reopens a revoked or expired enrollment)',
      description: '201 when the enrollment is new, 200 when it existed (reopened, or left as it was).',
      params: StudentIdParams,
      body: EnrollmentCreate,
      response: { 201: Enrollment, 200: Enrollment, ...writeErrors },
    },
    handler: async (request, reply) => madeOrFound(reply, service.enroll(request.params.id, request.body)),
  });

  app.delete('/api/v1/students/:id/enrollments/:course_id', {
    config: write,
    schema: {
      operationId: 'unenrollStudent',
      tags,
      summary: 'Unenroll a student: the enrollment is revoked (kept as history, with its progress)',
      params: StudentEnrollmentParams,
      response: { 200: Enrollment, ...writeErrors },
    },
    handler: async (request) => service.unenroll(request.params.id, request.params.course_id),
  });

  app.get('/api/v1/students/:id/courses/:course_id/progress', {
    config: read,
    schema: {
      operationId: 'getStudentProgress',
      tags,
      summary: 'A student’s progress through a course: each lesson with when it was completed, percent, next lesson',
      params: StudentCourseParams,
      response: { 200: Progress, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => service.progress(request.principal, request.params.id, request.params.course_id),
  });

  app.post('/api/v1/students/:id/lessons/:lesson_id/complete', {
    config: write,
    schema: {
      operationId: 'completeStudentLesson',
      tags,
      summary: 'Mark a lesson complete for a student (who must have access to it)',
      params: StudentLessonParams,
      response: { 200: Progress, ...writeErrors },
    },
    handler: async (request) => service.completeLesson(request.params.id, request.params.lesson_id),
  });

  app.post('/api/v1/account/lessons/:lesson_id/complete', {
    config: { scope: 'account:write' },
    schema: {
      operationId: 'completeMyLesson',
      tags: ['account'],
      summary: 'Mark a lesson of a course you are enrolled in complete',
      description: 'Completing the last lesson completes the enrollment. Answers your progress through the course.',
      params: LessonParams,
      response: { 200: Progress, ...writeErrors },
    },
    handler: async (request) => service.completeMyLesson(request.principal, request.params.lesson_id),
  });

  app.post('/api/v1/account/lessons/:lesson_id/quiz-attempts', {
    config: { scope: 'account:write', idempotent: true },
    schema: {
      operationId: 'submitMyQuizAttempt',
      tags: ['account'],
      summary: 'Answer a quiz lesson of a course you are enrolled in',
      description:
        'Marks the answers (one list of picked choice indexes per question, in order) and keeps the attempt; a pass completes the lesson. Answers the attempt with what was right, the attempts left and your progress.',
      params: LessonParams,
      body: QuizSubmission,
      response: { 201: QuizAttemptResult, ...writeErrors },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await service.submitMyQuiz(request.principal, request.params.lesson_id, request.body)),
  });

  app.get('/api/v1/account/lessons/:lesson_id/quiz-attempts', {
    config: { scope: 'account:read' },
    schema: {
      operationId: 'listMyQuizAttempts',
      tags: ['account'],
      summary: 'Your attempts at a quiz lesson, newest first',
      params: LessonParams,
      response: { 200: QuizAttemptList, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => service.myQuizAttempts(request.principal, request.params.lesson_id),
  });

  app.get('/api/v1/students/:id/lessons/:lesson_id/quiz-attempts', {
    config: read,
    schema: {
      operationId: 'listStudentQuizAttempts',
      tags,
      summary: "A student's attempts at a quiz lesson, newest first",
      params: StudentLessonParams,
      response: { 200: QuizAttemptList, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => service.quizAttempts(request.principal, request.params.id, request.params.lesson_id),
  });

  app.post('/api/v1/account/enrollments', {
    config: { scope: 'account:write', idempotent: true },
    schema: {
      operationId: 'enrollMyself',
      tags: ['account'],
      summary: 'Enroll yourself in a free course that is open for enrollment',
      description:
        '201 when the enrollment is new, 200 when you were enrolled already (a revoked or expired enrollment is reopened). Paid courses are bought at checkout.',
      body: SelfEnrollment,
      response: { 201: Enrollment, 200: Enrollment, ...writeErrors },
    },
    handler: async (request, reply) =>
      madeOrFound(reply, service.enrollSelf(request.principal, request.body.course_id)),
  });
}
