import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { connectApp } from './api.ts';
import { startMain } from './process.ts';
import { freePort } from './server.ts';
import { completeSetup, OWNER } from './web-client.ts';

/**
 * Load on a running school while one of its parts fails and returns: a few kinds of request in loops against every
 * instance, each answer kept with its time, so a test can say what was answered during and after the outage, how
 * long recovery took, and whether every acknowledged write is still there.
 */

/** One answer (status 0: none — the connection failed or the request took longer than the client waits). */
export type Sample = {
  kind: string;
  instance: number;
  start: number;
  ms: number;
  status: number;
  error?: string;
  /** The `error` of a JSON error body. */
  code?: string;
  /** The id a write answered with. */
  id?: string;
};

export type Request = (base: string) => Promise<{ status: number; body?: unknown; id?: string }>;

/** A client never waits longer than this: a longer request counts as a hang (status 0). */
export const HANG_MS = 15_000;

export function loadLoop(bases: string[], kinds: Record<string, { request: Request; pauseMs?: number }>) {
  const samples: Sample[] = [];
  let stopped = false;
  const loops = Object.entries(kinds).flatMap(([kind, { request, pauseMs = 25 }]) =>
    bases.map(async (base, instance) => {
      while (!stopped) {
        const start = Date.now();
        let sample: Sample;
        try {
          const answer = await Promise.race([
            request(base),
            sleep(HANG_MS).then(() => Promise.reject(new Error('no answer within 15 s'))),
          ]);
          const body = answer.body as { error?: unknown } | undefined;
          sample = {
            kind,
            instance,
            start,
            ms: Date.now() - start,
            status: answer.status,
            ...(typeof body?.error === 'string' ? { code: body.error } : {}),
            ...(answer.id ? { id: answer.id } : {}),
          };
        } catch (error) {
          sample = { kind, instance, start, ms: Date.now() - start, status: 0, error: (error as Error).message };
        }
        samples.push(sample);
        await sleep(pauseMs);
      }
    }),
  );
  return {
    samples,
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

/** Answers by kind and status (`write 201: 80`), and the slowest answer. */
export function summary(samples: Sample[]) {
  const answers: Record<string, number> = {};
  for (const s of samples) answers[`${s.kind} ${s.status}`] = (answers[`${s.kind} ${s.status}`] ?? 0) + 1;
  return { requests: samples.length, answers, maxMs: samples.reduce((max, s) => Math.max(max, s.ms), 0) };
}

/**
 * Runs `load` for a few seconds, stops a part for `outageMs`, starts it again and waits (at most 30 s) until
 * `recovered` holds, then a little longer; returns when the part was stopped and when it was started again.
 */
export async function withOutage(
  load: ReturnType<typeof loadLoop>,
  part: { stop(): Promise<void>; start(): Promise<void> },
  outageMs: number,
  recovered: (backAt: number) => boolean,
) {
  await sleep(3_000);
  const stoppedAt = Date.now();
  await part.stop();
  await sleep(outageMs);
  const backAt = Date.now();
  await part.start();
  await waitUntil(() => recovered(backAt), 30_000);
  await sleep(2_000);
  await load.stop();
  return { stoppedAt, backAt };
}

/**
 * When `kind` was answered well again on `instance` for good: the start of its last run of successes (the test
 * checks that run is long enough), in ms after `since`; undefined when its last answer was not a success.
 */
export function recoveredAfter(
  samples: Sample[],
  kind: string,
  instance: number,
  since: number,
  ok: (s: Sample) => boolean,
) {
  const mine = samples.filter((s) => s.kind === kind && s.instance === instance && s.start >= since);
  let first: Sample | undefined;
  for (const s of mine) {
    if (!ok(s)) first = undefined;
    else first ??= s;
  }
  return first
    ? { ms: first.start + first.ms - since, after: mine.filter((s) => s.start >= first.start).length }
    : undefined;
}

/** Two instances (`node src/main.ts`) of one school on the given database and Redis, set up, with an owner's token. */
export async function twoInstances(env: Record<string, string>, scope: string) {
  const base: Record<string, string> = {
    LOG_LEVEL: 'warn',
    // The load signs in and registers far more often than a person would.
    OAUTH_REGISTRATIONS_PER_HOUR: '100000',
    OAUTH_AUTHORIZATIONS_PER_MINUTE: '1000000',
    ...env,
  };
  const portA = await freePort();
  const urlA = `http://127.0.0.1:${portA}`;
  // One school at one origin, as behind a load balancer: tokens are for that origin, whichever instance answers.
  base.BASE_URL = urlA;
  const a = await startMain({ ...base, PORT: String(portA) });
  const setupUrl = JSON.parse(a.lines.find((l) => l.includes('setup_url')) ?? '{}').setup_url as string;
  await completeSetup(urlA, setupUrl);
  // Once the school is set up there is no setup link to wait for; at LOG_LEVEL=warn the line about mail (no SMTP
  // here) is the first one written after listening.
  const portB = await freePort();
  const b = await startMain({ ...base, PORT: String(portB) }, (line) => line.includes('Mail is not being delivered'));
  const urlB = `http://127.0.0.1:${portB}`;
  const app = await connectApp({ url: urlA }, OWNER, scope);
  return {
    processes: [a, b],
    urls: [urlA, urlB],
    token: app.token,
    clientId: app.clientId,
    kill: () => {
      for (const p of [a, b]) p.child.kill('SIGKILL');
    },
  };
}

/** Which of `ids` are missing from `table` in the database at `url` (the acknowledged writes lost). */
export async function missingRows(url: string, table: string, ids: string[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const found = await client.query<{ id: string }>(`select id from ${table} where id = any($1)`, [ids]);
    const present = new Set(found.rows.map((r) => r.id));
    return ids.filter((id) => !present.has(id));
  } finally {
    await client.end();
  }
}

/** Polls `check` every 100 ms until it holds, for at most `timeoutMs`; returns the ms it took, or undefined. */
export async function waitUntil(check: () => boolean, timeoutMs: number): Promise<number | undefined> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (check()) return Date.now() - start;
    await sleep(100);
  }
  return undefined;
}

/** What the instances logged at warn (40) and above, counted by level and message. */
export function loggedAbove(lines: string[], level = 40): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of lines) {
    let entry: { level?: number; msg?: string };
    try {
      entry = JSON.parse(line) as { level?: number; msg?: string };
    } catch {
      counts[`(not JSON) ${line.slice(0, 80)}`] = (counts[`(not JSON) ${line.slice(0, 80)}`] ?? 0) + 1;
      continue;
    }
    if ((entry.level ?? 0) < level) continue;
    const key = `${entry.level} ${entry.msg}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** What every outage test holds of its two instances: both still run, and the outage was logged as warnings only. */
export function assertSurvived(figures: { exits: (number | null)[]; logged: Record<string, unknown> }) {
  assert.deepEqual(figures.exits, [null, null], 'both instances still run');
  assert.deepEqual(
    Object.keys(figures.logged).filter((line) => !line.startsWith('40 ')),
    [],
    'the outage is logged as warnings, never as errors',
  );
}
