import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { tableProblems } from '../../scripts/lint-tables.ts';

/** A tree with db/tables.ts declaring `tables` and one file per area path. */
function tree(tables: string[], files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'lint-tables-'));
  mkdirSync(join(root, 'src/db'), { recursive: true });
  writeFileSync(
    join(root, 'src/db/tables.ts'),
    `export type Tables = {\n${tables.map((t) => `  ${t}: X;`).join('\n')}\n};\n`,
  );
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(join(root, 'src/areas', path, '..'), { recursive: true });
    writeFileSync(join(root, 'src/areas', path), source);
  }
  return root;
}

test('the school as it is passes', () => {
  assert.deepEqual(tableProblems(process.cwd()), []);
});

test("a write to another area, a read of another area's table, raw SQL, a chosen table and an ownerless table each fail", () => {
  const root = tree(['courses', 'orders', 'coupons', 'mystery'], {
    'events/store.ts': [
      "export const a = (ex) => ex.deleteFrom('orders').execute();",
      "export const b = (ex) => ex.selectFrom('coupons').selectAll().execute();",
      'export const c = (ex) => sql`select 1 from courses`.execute(ex);',
      "export const d = (ex, table: 'courses' | 'coupons') => ex.selectFrom(table);",
    ].join('\n'),
    'courses/store.ts': "export const own = (ex) => ex.selectFrom('courses').selectAll().execute();",
  });
  const problems = tableProblems(root);
  assert.ok(
    problems.some((p) => /mystery has no owner/.test(p)),
    problems.join('\n'),
  );
  assert.ok(problems.some((p) => /events\/store\.ts: writes orders \(deleteFrom\), which belongs to orders/.test(p)));
  assert.ok(problems.some((p) => /events\/store\.ts: reads coupons, which belongs to coupons/.test(p)));
  assert.ok(problems.some((p) => /events\/store\.ts: reads courses, which belongs to courses/.test(p)));
  assert.ok(!problems.some((p) => /src\/areas\/courses\/store\.ts/.test(p)), 'an area reads its own tables freely');
});

test('the people areas may write the people they manage; other areas may not', () => {
  const root = tree(['users'], {
    'students/store.ts': "export const a = (ex) => ex.updateTable('users').set({}).execute();",
    'events/store.ts': "export const b = (ex) => ex.updateTable('users').set({}).execute();",
  });
  const problems = tableProblems(root);
  assert.ok(!problems.some((p) => /src\/areas\/students\/store\.ts/.test(p)), problems.join('\n'));
  assert.ok(problems.some((p) => /events\/store\.ts: writes users/.test(p)));
});
