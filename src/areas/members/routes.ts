import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { madeOrFound } from '../../http/made-or-found.ts';
import { noContent } from '../../http/no-content.ts';
import { errorResponses } from '../../http/schemas.ts';
import {
  Member,
  MemberComp,
  MemberCreate,
  MemberIdParams,
  MemberListQuery,
  MemberPage,
  MemberUpdate,
} from './schema.ts';
import type { MembersService } from './service.ts';

const tags = ['members'];
// Members are staff's list of people: both scopes are staff-only, anonymous callers and students get 403.
const read = { scope: 'members:read' } as const;
const write = { scope: 'members:write' } as const;
const writeErrors = errorResponses(400, 401, 403, 404, 409);

export function membersRoutes(fastify: FastifyInstance, service: MembersService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/api/v1/members', {
    config: read,
    schema: {
      operationId: 'listMembers',
      tags,
      summary: 'List members (filters: derived status, label, plan held, text in name or e-mail)',
      querystring: MemberListQuery,
      response: { 200: MemberPage, ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => service.list(request.query),
  });

  app.get('/api/v1/members/:id', {
    config: read,
    schema: {
      operationId: 'getMember',
      tags,
      summary: 'Get a member by their user id',
      params: MemberIdParams,
      response: { 200: Member, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => service.get(request.params.id),
  });

  app.post('/api/v1/members', {
    config: { ...write, idempotent: true },
    schema: {
      operationId: 'createMember',
      tags,
      summary:
        'Add a free member by e-mail (a new person is invited to choose a password), or update the one who has it',
      description:
        '201 when the member profile is new, 200 when the person was a member already; 409 for a staff e-mail.',
      body: MemberCreate,
      response: { 201: Member, 200: Member, ...writeErrors },
    },
    handler: async (request, reply) => madeOrFound(reply, service.create(request.body)),
  });

  app.patch('/api/v1/members/:id', {
    config: write,
    schema: {
      operationId: 'updateMember',
      tags,
      summary: 'Change a member’s name, labels, newsletter opt-in or note',
      params: MemberIdParams,
      body: MemberUpdate,
      response: { 200: Member, ...writeErrors },
    },
    handler: async (request) => service.update(request.params.id, request.body),
  });

  app.delete('/api/v1/members/:id', {
    config: write,
    schema: {
      operationId: 'deleteMember',
      tags,
      summary: 'Remove a member profile (409 while a subscription is under way); the person’s account stays',
      params: MemberIdParams,
      response: { 204: Type.Null(), ...writeErrors },
    },
    handler: async (request, reply) => noContent(reply, service.delete(request.params.id)),
  });

  app.post('/api/v1/members/:id/comp', {
    config: write,
    schema: {
      operationId: 'compMember',
      tags,
      summary: 'Give a member a plan without payment until a date (or until taken back); its courses open',
      params: MemberIdParams,
      body: MemberComp,
      response: { 200: Member, ...writeErrors },
    },
    handler: async (request) => service.comp(request.params.id, request.body),
  });

  app.delete('/api/v1/members/:id/comp', {
    config: write,
    schema: {
      operationId: 'removeMemberComp',
      tags,
      summary: 'Take back a member’s comp: its plan’s courses close unless a subscription holds the plan',
      params: MemberIdParams,
      response: { 200: Member, ...writeErrors },
    },
    handler: async (request) => service.removeComp(request.params.id),
  });
}
