import assert from 'node:assert/strict';
import { test } from 'node:test';
import { internalCalls } from '../../src/http/internal-calls.ts';
import { ANONYMOUS, type Principal } from '../../src/http/principal.ts';

test('an in-process call ticket is random, names its principal once, and can be dropped unused', () => {
  const calls = internalCalls();
  const principal: Principal = { kind: 'user', userId: 'usr_x', role: 'staff', clientId: 'c', scopes: new Set() };
  const first = calls.issue(principal);
  const second = calls.issue(ANONYMOUS);
  assert.match(first, /^[\w-]{22}$/);
  assert.notEqual(first, second);
  assert.equal(calls.take(first)?.principal, principal);
  assert.equal(calls.take(first), undefined, 'a replayed ticket names nobody');
  calls.drop(second);
  assert.equal(calls.take(second), undefined, 'a dropped ticket names nobody');
  assert.equal(calls.take('AAAAAAAAAAAAAAAAAAAAAA'), undefined);
});
