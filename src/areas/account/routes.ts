import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { noContent } from '../../http/no-content.ts';
import { errorResponses } from '../../http/schemas.ts';
import { AccountExport } from './export-schema.ts';
import {
  Account,
  AccountDeletion,
  AccountSessionPage,
  AccountUpdate,
  ClientIdParams,
  ConnectedAppListQuery,
  ConnectedAppPage,
  PasswordChange,
  SessionIdParams,
} from './schema.ts';
import type { AccountService } from './service.ts';

const tags = ['account'];
// The account is always someone's: anonymous callers get 403 insufficient_scope, so no route is anonymous.
const read = { scope: 'account:read' } as const;
const write = { scope: 'account:write' } as const;

export function accountRoutes(fastify: FastifyInstance, service: AccountService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/api/v1/account', {
    config: read,
    schema: {
      operationId: 'getAccount',
      tags,
      summary: 'Get your account',
      response: { 200: Account, ...errorResponses(401, 403) },
    },
    handler: async (request) => service.get(request.principal),
  });

  app.patch('/api/v1/account', {
    config: write,
    schema: {
      operationId: 'updateAccount',
      tags,
      summary: 'Change your name, email address or locale',
      body: AccountUpdate,
      response: { 200: Account, ...errorResponses(400, 401, 403, 409) },
    },
    handler: async (request) => service.update(request.principal, request.body),
  });

  app.post('/api/v1/account/password', {
    config: write,
    schema: {
      operationId: 'changePassword',
      tags,
      summary: 'Change your password (signs your browsers out)',
      body: PasswordChange,
      response: { 204: Type.Null(), ...errorResponses(400, 401, 403) },
    },
    handler: async (request, reply) => noContent(reply, service.changePassword(request.principal, request.body)),
  });

  app.post('/api/v1/account/verification-email', {
    config: write,
    schema: {
      operationId: 'sendVerificationEmail',
      tags,
      summary: 'Mail a new link to confirm your e-mail address (one a minute)',
      response: { 204: Type.Null(), ...errorResponses(401, 403, 409, 429) },
    },
    handler: async (request, reply) => noContent(reply, service.sendVerificationEmail(request.principal)),
  });

  app.get('/api/v1/account/apps', {
    config: read,
    schema: {
      operationId: 'listConnectedApps',
      tags,
      summary: 'List the apps connected to your account',
      querystring: ConnectedAppListQuery,
      response: { 200: ConnectedAppPage, ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => service.listConnectedApps(request.principal),
  });

  app.delete('/api/v1/account/apps/:client_id', {
    config: write,
    schema: {
      operationId: 'revokeConnectedApp',
      tags,
      summary: 'Disconnect an app: its grants and tokens end at once',
      params: ClientIdParams,
      response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) =>
      noContent(reply, service.revokeConnectedApp(request.principal, request.params.client_id)),
  });

  app.get('/api/v1/account/sessions', {
    config: read,
    schema: {
      operationId: 'listAccountSessions',
      tags,
      summary: 'List your signed-in browsers',
      response: { 200: AccountSessionPage, ...errorResponses(401, 403) },
    },
    handler: async (request) => service.listSessions(request.principal),
  });

  app.delete('/api/v1/account/sessions/:id', {
    config: write,
    schema: {
      operationId: 'endAccountSession',
      tags,
      summary: 'Sign one browser out',
      params: SessionIdParams,
      response: { 204: Type.Null(), ...errorResponses(401, 403, 404) },
    },
    handler: async (request, reply) => noContent(reply, service.endSession(request.principal, request.params.id)),
  });

  app.get('/api/v1/account/export', {
    config: read,
    schema: {
      operationId: 'exportAccountData',
      tags,
      summary: 'Download everything the school keeps about you',
      response: { 200: AccountExport, ...errorResponses(401, 403) },
    },
    handler: async (request) => service.exportData(request.principal),
  });

  app.post('/api/v1/account/deletion', {
    config: write,
    schema: {
      operationId: 'deleteAccount',
      tags,
      summary: 'Delete your account (orders are kept, anonymised)',
      body: AccountDeletion,
      response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 409) },
    },
    handler: async (request, reply) => noContent(reply, service.deleteAccount(request.principal, request.body)),
  });
}
