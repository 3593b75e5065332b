import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { madeOrFound } from '../../http/made-or-found.ts';
import { noContent } from '../../http/no-content.ts';
import { errorResponses } from '../../http/schemas.ts';
import {
  AttendanceInput,
  AttendanceResult,
  Event,
  EventCreate,
  EventIdParams,
  EventKeyParams,
  EventListQuery,
  EventPage,
  EventUpdate,
  Registration,
  RegistrationCreate,
  RegistrationListQuery,
  RegistrationPage,
  RegistrationParams,
} from './schema.ts';
import type { EventsService } from './service.ts';

const tags = ['events'];
const read = { scope: 'events:read', anonymous: true } as const;
// Registrations are personal: a token is needed, and the principal decides which rows (staff all, others their own).
const personal = { scope: 'events:read' } as const;
const write = { scope: 'events:write' } as const;
// People register themselves with account:write, which students may grant (events:write is staff-only).
const self = { scope: 'account:write' } as const;
const writeErrors = errorResponses(400, 401, 403, 404, 409);

export function eventsRoutes(fastify: FastifyInstance, service: EventsService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/api/v1/events', {
    config: read,
    schema: {
      operationId: 'listEvents',
      tags,
      summary: 'List events (public ones, unless the caller is staff)',
      description:
        'when=upcoming: not ended and not canceled, soonest first; when=past: ended, latest first (sort does not ' +
        'apply then). Without when, newest created first like every list.',
      querystring: EventListQuery,
      response: { 200: EventPage, ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => service.list(request.principal, request.query),
  });

  app.get('/api/v1/events/:id', {
    config: read,
    schema: {
      operationId: 'getEvent',
      tags,
      summary: 'Get an event by id or slug (public and unlisted events alike)',
      params: EventKeyParams,
      response: { 200: Event, ...errorResponses(401, 403, 404) },
    },
    handler: async (request) => service.get(request.principal, request.params.id),
  });

  app.post('/api/v1/events', {
    config: { ...write, idempotent: true },
    schema: {
      operationId: 'createEvent',
      tags,
      summary: 'Create an event',
      body: EventCreate,
      response: { 201: Event, ...writeErrors },
    },
    handler: async (request, reply) => reply.code(201).send(await service.create(request.body)),
  });

  app.patch('/api/v1/events/:id', {
    config: write,
    schema: {
      operationId: 'updateEvent',
      tags,
      summary: 'Change an event (a new time is e-mailed to everyone registered or waitlisted)',
      params: EventIdParams,
      body: EventUpdate,
      response: { 200: Event, ...writeErrors },
    },
    handler: async (request) => service.update(request.principal, request.params.id, request.body),
  });

  app.delete('/api/v1/events/:id', {
    config: write,
    schema: {
      operationId: 'deleteEvent',
      tags,
      summary: 'Delete an event nobody ever registered for (cancel any other)',
      params: EventIdParams,
      response: { 204: Type.Null(), ...writeErrors },
    },
    handler: async (request, reply) => noContent(reply, service.delete(request.params.id)),
  });

  app.post('/api/v1/events/:id/cancel', {
    config: write,
    schema: {
      operationId: 'cancelEvent',
      tags,
      summary: 'Cancel a scheduled event: its registrations end and everyone registered or waitlisted is told',
      params: EventIdParams,
      response: { 200: Event, ...writeErrors },
    },
    handler: async (request) => service.cancel(request.principal, request.params.id),
  });

  app.post('/api/v1/events/:id/register', {
    config: self,
    schema: {
      operationId: 'registerForEvent',
      tags,
      summary: 'Register yourself: a seat while there is one, else a place on the waitlist',
      description:
        'Before the start only. An event for a course or a plan takes its students or members only (409 for ' +
        'anyone else). Registering again while registered changes nothing. Answers the event as you now see it.',
      params: EventKeyParams,
      response: { 200: Event, ...writeErrors },
    },
    handler: async (request) => service.register(request.principal, request.params.id),
  });

  app.post('/api/v1/events/:id/unregister', {
    config: self,
    schema: {
      operationId: 'unregisterFromEvent',
      tags,
      summary: 'Give up your seat or waitlist place (before the start); a freed seat goes to the first in line',
      params: EventKeyParams,
      response: { 200: Event, ...writeErrors },
    },
    handler: async (request) => service.unregister(request.principal, request.params.id),
  });

  app.get('/api/v1/events/:id/registrations', {
    config: personal,
    schema: {
      operationId: 'listEventRegistrations',
      tags,
      summary: "List an event's registrations (staff: all; anyone else: their own); sort=created_at for arrival order",
      params: EventKeyParams,
      querystring: RegistrationListQuery,
      response: { 200: RegistrationPage, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => service.listRegistrations(request.principal, request.params.id, request.query),
  });

  app.post('/api/v1/events/:id/registrations', {
    config: { ...write, idempotent: true },
    schema: {
      operationId: 'createEventRegistration',
      tags,
      summary: 'Register a person for an event (staff); a full event waitlists them',
      description: '201 with a new registration, 200 with the one the person already had.',
      params: EventIdParams,
      body: RegistrationCreate,
      response: { 201: Registration, 200: Registration, ...writeErrors },
    },
    handler: async (request, reply) => madeOrFound(reply, service.addRegistration(request.params.id, request.body)),
  });

  app.delete('/api/v1/events/:id/registrations/:registration_id', {
    config: write,
    schema: {
      operationId: 'cancelEventRegistration',
      tags,
      summary: "End a person's registration (kept as canceled); a freed seat goes to the first in line",
      params: RegistrationParams,
      response: { 200: Registration, ...writeErrors },
    },
    handler: async (request) => service.removeRegistration(request.params.id, request.params.registration_id),
  });

  app.post('/api/v1/events/:id/attendance', {
    config: write,
    schema: {
      operationId: 'recordEventAttendance',
      tags,
      summary: 'Record who attended (up to 1,000 registrations at once, once the event has started)',
      params: EventIdParams,
      body: AttendanceInput,
      response: { 200: AttendanceResult, ...writeErrors },
    },
    handler: async (request) => service.recordAttendance(request.params.id, request.body),
  });
}
