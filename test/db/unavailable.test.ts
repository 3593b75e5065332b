import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { UnavailableError, unavailableDependency } from '../../src/db/unavailable.ts';
import { toApiError } from '../../src/http/error-handler.ts';
import { freePort } from '../support/server.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

test('a database or Redis that cannot be reached is told from every other failure', () => {
  const unreachable: [Error, string][] = [
    [withCode('terminating connection due to administrator command', '57P01'), 'database'],
    [withCode('the database system is shutting down', '57P03'), 'database'],
    [withCode('the database system is starting up', '57P03'), 'database'],
    [withCode('connection failure', '08006'), 'database'],
    [withCode('sorry, too many clients already', '53300'), 'database'],
    [new Error('Connection terminated unexpectedly'), 'database'],
    [new Error('Connection terminated'), 'database'],
    [new Error('Client has encountered a connection error and is not queryable'), 'database'],
    [new Error('timeout exceeded when trying to connect'), 'database'],
    [new UnavailableError('redis', { cause: new Error("Stream isn't writeable") }), 'redis'],
    [withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'), 'network'],
    [new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], ''), 'network'],
    [new Error('wrapped', { cause: withCode('x', '57P01') }), 'database'],
  ];
  for (const [error, dependency] of unreachable) {
    assert.equal(unavailableDependency(error), dependency, error.message);
    const answer = toApiError(error);
    assert.equal(answer.status, 503, error.message);
    assert.deepEqual(answer.toBody(), {
      error: 'service_unavailable',
      error_description: 'The school is temporarily unavailable; try again in a few seconds.',
    });
    assert.equal(answer.headers['retry-after'], '5');
  }
  for (const error of [
    withCode('duplicate key value violates unique constraint', '23505'),
    withCode('syntax error at or near "selec"', '42601'),
    withCode('invalid byte sequence for encoding "UTF8": 0x00', '22021'),
    new Error('driver has already been destroyed'),
    new TypeError("Cannot read properties of undefined (reading 'id')"),
  ]) {
    assert.equal(unavailableDependency(error), undefined, error.message);
    assert.equal(toApiError(error).status, 500, error.message);
  }
});

test('what node-postgres really throws when nothing listens is recognised', async () => {
  const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/x` });
  const error = await client.connect().then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(error);
  assert.equal(toApiError(error as Error).status, 503);
});
