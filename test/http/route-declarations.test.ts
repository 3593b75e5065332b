import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { requireRouteDeclarations } from '../../src/http/guard.ts';

const app = () => {
  const instance = Fastify();
  requireRouteDeclarations(instance);
  return instance;
};
const handler = async () => ({});

test('a route that declares no scope, public or page cannot be registered', () => {
  assert.throws(() => app().get('/things', handler), /declares no scope/);
});

test('API routes need a scope (not public) and an operationId; writes cannot serve anonymous callers', async () => {
  assert.throws(
    () => app().get('/api/v1/things', { config: { public: true }, schema: { operationId: 'listThings' } }, handler),
    /must declare a scope/,
  );
  assert.throws(() => app().get('/api/v1/things', { config: { scope: 'courses:read' } }, handler), /no operationId/);
  assert.throws(
    () =>
      app().post(
        '/api/v1/things',
        { config: { scope: 'courses:write', anonymous: true }, schema: { operationId: 'createThing' } },
        handler,
      ),
    /cannot serve anonymous/,
  );
  const fine = app();
  fine.get(
    '/api/v1/things',
    { config: { scope: 'courses:read', anonymous: true }, schema: { operationId: 'listThings' } },
    handler,
  );
  fine.get('/healthz', { config: { public: true } }, handler);
  await fine.ready();
  await fine.close();
});
