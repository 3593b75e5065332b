import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newId } from '../../src/db/ids.ts';

test('ids are prefixed, 26 characters, and sort in creation order even within one millisecond', () => {
  const ids = Array.from({ length: 5000 }, () => newId('crs'));
  for (const id of ids) assert.match(id, /^crs_[0-9a-z]{26}$/);
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(new Set(ids).size, ids.length);
  const sameMillisecond = [newId('x', 1_700_000_000_000), newId('x', 1_700_000_000_000), newId('x', 1_700_000_000_000)];
  assert.deepEqual([...sameMillisecond].sort(), sameMillisecond);
  assert.ok(newId('x', 1_700_000_000_001) > sameMillisecond[2]!);
});
