import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { heapBounded, MEMORY_FLAGS } from '../src/memory-budget.ts';

test('`npm start` runs the server with the memory bounds, which bound the heap a Node process gets', () => {
  const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start;
  assert.equal(start, `node ${MEMORY_FLAGS.join(' ')} src/main.ts`);
  const limit = Number(
    execFileSync(process.execPath, [...MEMORY_FLAGS, '-p', "require('node:v8').getHeapStatistics().heap_size_limit"], {
      encoding: 'utf8',
    }),
  );
  assert.ok(heapBounded(limit), `heap limit ${limit} with the flags`);
  const unbounded = Number(
    execFileSync(
      process.execPath,
      ['--max-old-space-size=4096', '-p', "require('node:v8').getHeapStatistics().heap_size_limit"],
      {
        encoding: 'utf8',
      },
    ),
  );
  assert.equal(heapBounded(unbounded), false, 'a 4 GB old generation is not the budget');
});
