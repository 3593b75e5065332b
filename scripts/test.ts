// npm test: every test file under test/ (or the files named: npm test -- test/areas/courses.test.ts), four at a time
// (after the few that must run alone, see ALONE),
// each in its own process, with one Chromium and one prepared database per engine for the whole run
// (test/support/global-setup.ts). The files that take longest start first, so the run does not end on one of them
// alone; the rest follow in name order.
import { existsSync, globSync } from 'node:fs';
import { relative } from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { globalSetup, globalTeardown } from '../test/support/global-setup.ts';

/**
 * The longest files (wall time in a full run on 2026-11-26: the admin's screen walk, the browser journeys, the CLI in
 * a terminal, the demo). Each must name a file, or the run stops: a stale entry would silently order nothing.
 */
const LONGEST_FIRST = [
  'test/web/admin/admin-browser.test.ts',
  'test/web/site/public-site-browser.test.ts',
  'test/web/admin/admin-owner-day.test.ts',
  'test/web/site/product-pages.test.ts',
  'test/cli/cli.test.ts',
  'test/demo.test.ts',
];

/**
 * Files that measure the school under a load of their own (outages, a rolling upgrade, a blackholed collector) and
 * bound how long a request may hang: they run first, one at a time, on an otherwise idle machine. Beside three other
 * files on two cores a fresh instance could miss its proxy's health check, or a request wait 7 s, for no fault of the
 * school's (seen in CI, 2026-11-27).
 */
const ALONE = [
  'test/cluster/rolling-upgrade.test.ts',
  'test/health/postgres-restart.test.ts',
  'test/health/redis-restart.test.ts',
  'test/health/traces.test.ts',
];

/** Files at a time: more than the cores, since many files spend their time waiting on a server, a browser or a restart. */
const CONCURRENCY = Number(process.env.TEST_CONCURRENCY) || 4;

const named = process.argv.slice(2);
const stale = [...LONGEST_FIRST, ...ALONE].filter((file) => !existsSync(file));
if (stale.length) {
  console.error(`scripts/test.ts names files that are gone: ${stale.join(', ')}`);
  process.exit(1);
}
const all = globSync('test/**/*.test.ts').sort();
const files = named.length ? named : [...LONGEST_FIRST, ...all.filter((file) => !LONGEST_FIRST.includes(file))];

function recordTime(
  into: Map<string, number>,
  data: { nesting: number; file?: string; details: { duration_ms: number } },
) {
  if (data.nesting !== 0 || !data.file) return;
  const file = relative(process.cwd(), data.file);
  into.set(file, (into.get(file) ?? 0) + data.details.duration_ms);
}

await globalSetup();
try {
  // The time each file's tests took, so that LONGEST_FIRST can be kept true and a slow file is seen at once.
  const fileMs = new Map<string, number>();
  const alone = files.filter((file) => ALONE.includes(file));
  const shared = files.filter((file) => !ALONE.includes(file));
  for (const [group, concurrency] of [
    [alone, 1],
    [shared, CONCURRENCY],
  ] as const) {
    if (!group.length) continue;
    const stream = run({ files: group, concurrency, forceExit: true });
    stream.on('test:fail', (data) => {
      process.exitCode = 1;
      recordTime(fileMs, data);
    });
    stream.on('test:pass', (data) => recordTime(fileMs, data));
    for await (const text of stream.compose(spec())) process.stdout.write(text);
  }
  if (!named.length) {
    const slowest = [...fileMs].sort((a, b) => b[1] - a[1]).slice(0, 15);
    console.log(
      `\nThe slowest files (their top-level tests' time):\n${slowest.map(([file, ms]) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}`).join('\n')}`,
    );
  }
} finally {
  await globalTeardown();
}
// Handles a test file's process left are its own; this one is done once the report is written.
process.exit();
