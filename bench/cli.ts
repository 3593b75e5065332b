/**
 * npm run bench:cli — start-up time of `lyceum courses list` (20 courses, a table), signed in, against a school
 * running as its own process: with a warm cache (the command tree on disk, revalidated with If-None-Match: 304) and
 * with a cold one (commands.json removed before each run: /openapi.json fetched and the tree derived), beside
 * `node -e 0` and `lyceum --help` without a school. Median and p90 wall ms per run, and the child's CPU ms
 * (user + system) from /proc: each run is started by a shell that reads its own cutime and cstime after waiting for it.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { commandCache } from '../src/cli/openapi-cache.ts';
import { schoolWithPeopleOver } from './cli-school.ts';
import { percentile, spawnServer, table } from './support.ts';

const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 20);
const TICK_MS = 10; // USER_HZ is 100 on Linux.
const BIN = resolve('bin/lyceum.js');

/** Runs `argv` once under `sh`, and returns its wall time and the CPU time the shell's waited-for child used. */
function timed(argv: string[], env: NodeJS.ProcessEnv): Promise<{ wallMs: number; cpuMs: number }> {
  const quoted = argv.map((a) => `'${a}'`).join(' ');
  const script = `${quoted} >/dev/null 2>&1 || exit 9; read -r stat < /proc/$$/stat; echo "$stat"`;
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn('sh', ['-c', script], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('error', fail);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      if (code !== 0) return fail(new Error(`${argv.join(' ')} failed (${code})`));
      // Fields after the command name: cutime and cstime are the 16th and 17th of /proc/<pid>/stat.
      const fields = out
        .slice(out.lastIndexOf(')') + 2)
        .trim()
        .split(' ');
      const ticks = Number(fields[13]) + Number(fields[14]);
      done({ wallMs, cpuMs: ticks * TICK_MS });
    });
  });
}

async function row(name: string, argv: string[], env: NodeJS.ProcessEnv, before: () => void = () => undefined) {
  await timed(argv, env); // one unmeasured run: disk caches as in daily use
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    before();
    const { wallMs, cpuMs } = await timed(argv, env);
    wall.push(wallMs);
    cpu.push(cpuMs);
  }
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  return [
    name,
    percentile(sorted(wall), 50).toFixed(0),
    percentile(sorted(wall), 90).toFixed(0),
    percentile(sorted(cpu), 50).toFixed(0),
  ];
}

const server = await spawnServer('sqlite');
try {
  const { home, env } = await schoolWithPeopleOver(server);
  const cache = commandCache({ HOME: home }, server.url, () => undefined).path;
  const list = [process.execPath, BIN, 'courses', 'list'];
  const rows = [
    await row('node -e 0 (the floor)', [process.execPath, '-e', '0'], env),
    await row('lyceum --help, no school', [process.execPath, BIN, '--help'], { ...env, HOME: join(home, 'empty') }),
    await row('lyceum courses list, warm cache (304)', list, env),
    await row('lyceum courses list, cold cache', list, env, () => rmSync(cache, { force: true })),
  ];
  console.log(`\nbench:cli — ${RUNS} runs each, SQLite school as its own process, ${process.version}\n`);
  console.log(table(['command', 'median ms', 'p90 ms', 'CPU ms (median)'], rows));
} finally {
  await server.stop();
}
