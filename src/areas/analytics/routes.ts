import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../http/schemas.ts';
import {
  CourseIdParams,
  CourseStats,
  CourseStatsListQuery,
  CourseStatsPage,
  EventAttendanceListQuery,
  EventAttendancePage,
  Series,
  SeriesQuery,
} from './schema.ts';
import type { AnalyticsService } from './service.ts';

const tags = ['analytics'];
// Staff only: students cannot be granted analytics:read, and there is no public view.
const read = { scope: 'analytics:read' } as const;

export function analyticsRoutes(fastify: FastifyInstance, service: AnalyticsService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/api/v1/analytics/series', {
    config: read,
    schema: {
      operationId: 'getAnalyticsSeries',
      tags,
      summary: "A figure of the school over time, by day, week or month in the school's time zone",
      description:
        'Every bucket of the range is present (zeros included). Counts answer `value`; revenue and mrr answer ' +
        '`values`, one net amount per currency. At most 400 days by day, 260 weeks by week, 120 months by month.',
      querystring: SeriesQuery,
      response: { 200: Series, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => service.series(request.principal, request.query),
  });

  app.get('/api/v1/analytics/courses', {
    config: read,
    schema: {
      operationId: 'listCourseStats',
      tags,
      summary: "Each course's enrollments, completions, active students and revenue, newest course first",
      querystring: CourseStatsListQuery,
      response: { 200: CourseStatsPage, ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => service.listCourseStats(request.principal, request.query),
  });

  app.get('/api/v1/analytics/courses/:id', {
    config: read,
    schema: {
      operationId: 'getCourseStats',
      tags,
      summary: "A course's enrollments, completions, completion rate, active students (30 days) and revenue",
      params: CourseIdParams,
      response: { 200: CourseStats, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => service.courseStats(request.principal, request.params.id),
  });

  app.get('/api/v1/analytics/events', {
    config: read,
    schema: {
      operationId: 'listEventAttendance',
      tags,
      summary: 'Attendance per event that has started: seat holders, attended, no-shows and the rate',
      querystring: EventAttendanceListQuery,
      response: { 200: EventAttendancePage, ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => service.listEventAttendance(request.principal, request.query),
  });
}
