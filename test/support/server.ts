import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { type Config, loadConfig } from '../../src/config.ts';
import { type RunningServer, startServer } from '../../src/server.ts';
import type { Clock } from '../../src/time/clock.ts';
import { preparedDatabaseUrl } from './database-templates.ts';
import type { Engine } from './databases.ts';

export type TestServer = RunningServer & {
  config: Config;
  databaseUrl: string;
  /** Every JSON log line the server wrote. */
  logs: string[];
  /** The setup link the server logged at start, if any. */
  setupUrl: string | undefined;
};

/**
 * Starts the real server on a free port with its own new database — a copy of the run's prepared one (migrated, its
 * secrets made) — or `databaseUrl` to reuse one.
 */
export async function startTestServer(
  engine: Engine,
  env: Record<string, string> = {},
  options: { databaseUrl?: string; clock?: Clock } = {},
): Promise<TestServer> {
  const databaseUrl = options.databaseUrl ?? (await preparedDatabaseUrl(engine));
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, done) {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const start = async () => {
    const port = env.PORT ?? String(await freePort());
    const config = loadConfig({ LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: port, DATABASE_URL: databaseUrl, ...env });
    return { config, server: await startServer(config, { logStream, clock: options.clock }) };
  };
  let started: Awaited<ReturnType<typeof start>> | undefined;
  // A port found free can be taken by another test file's server before this one listens; then try another.
  for (let attempt = 1; !started; attempt++) {
    try {
      started = await start();
    } catch (error) {
      if (env.PORT || attempt === 5 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
  const { config, server } = started;
  const setupLine = logs.map((l) => JSON.parse(l)).find((l) => l.setup_url);
  return { ...server, close: () => closeSoon(server), config, databaseUrl, logs, setupUrl: setupLine?.setup_url };
}

/** How long a test server's close waits for connections still open before ending them. */
const CLOSE_GRACE_MS = 2_000;

/**
 * Closes as the server does (in-flight requests finish), but ends the connections still open after a grace: a
 * connection the test's HTTP client left in the middle of a request otherwise holds the close until Node's headers
 * timeout, about 70 s (seen after the storage tests on PostgreSQL). A test's requests are over when it closes.
 */
async function closeSoon(server: RunningServer): Promise<void> {
  const stragglers = setTimeout(() => server.app.server.closeAllConnections(), CLOSE_GRACE_MS);
  try {
    await server.close();
  } finally {
    clearTimeout(stragglers);
  }
}

/**
 * A port nothing listens on, picked at random below Linux's ephemeral range (32768–60999), where the kernel never
 * hands out ports to outgoing connections or `listen(0)`: only another test file's server can take it meanwhile.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await bindable(port)) return port;
  }
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}
