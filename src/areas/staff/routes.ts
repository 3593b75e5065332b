import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { noContent } from '../../http/no-content.ts';
import { errorResponses } from '../../http/schemas.ts';
import { StaffIdParams, StaffInvite, StaffListQuery, StaffMember, StaffPage, StaffRoleChange } from './schema.ts';
import type { StaffService } from './service.ts';

const tags = ['staff'];
// The interface's scopes are an exact set: the staff are the school's own settings. Rows are staff-only, and only the
// owner changes them (see the service).
const read = { scope: 'school:read' } as const;
const write = { scope: 'school:write' } as const;

export function staffRoutes(fastify: FastifyInstance, service: StaffService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/api/v1/staff', {
    config: read,
    schema: {
      operationId: 'listStaff',
      tags,
      summary: 'List the staff and the owner (staff see it; others get an empty list)',
      querystring: StaffListQuery,
      response: { 200: StaffPage, ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => service.list(request.principal, request.query),
  });

  app.get('/api/v1/staff/:id', {
    config: read,
    schema: {
      operationId: 'getStaffMember',
      tags,
      summary: 'Get a staff member',
      params: StaffIdParams,
      response: { 200: StaffMember, ...errorResponses(401, 403, 404) },
    },
    handler: async (request) => service.get(request.principal, request.params.id),
  });

  app.post('/api/v1/staff', {
    config: { ...write, idempotent: true },
    schema: {
      operationId: 'inviteStaff',
      tags,
      summary: 'Invite someone to the staff (the owner only)',
      body: StaffInvite,
      response: { 201: StaffMember, ...errorResponses(400, 401, 403, 409) },
    },
    handler: async (request, reply) => reply.code(201).send(await service.invite(request.principal, request.body)),
  });

  app.patch('/api/v1/staff/:id', {
    config: write,
    schema: {
      operationId: 'updateStaffRole',
      tags,
      summary: "Change a staff member's role: make them owner (the owner only)",
      params: StaffIdParams,
      body: StaffRoleChange,
      response: { 200: StaffMember, ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: async (request) => service.changeRole(request.principal, request.params.id, request.body),
  });

  app.delete('/api/v1/staff/:id', {
    config: write,
    schema: {
      operationId: 'removeStaff',
      tags,
      summary: 'Remove someone from the staff: they become a student (the owner only)',
      params: StaffIdParams,
      response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 409) },
    },
    handler: async (request, reply) => noContent(reply, service.remove(request.principal, request.params.id)),
  });
}
