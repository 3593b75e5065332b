import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { type Config, loadConfig } from '../../src/config.ts';
import type { Clock } from '../../src/db/clock.ts';
import { type RunningServer, startServer } from '../../src/server.ts';
import { type Engine, freshDatabaseUrl } from './databases.ts';

export type TestServer = RunningServer & {
  config: Config;
  databaseUrl: string;
  /** Every JSON log line the server wrote. */
  logs: string[];
  /** The setup link the server logged at start, if any. */
  setupUrl: string | undefined;
};

/** Starts the real server on a free port with its own fresh database (or `databaseUrl` to reuse one). */
export async function startTestServer(
  engine: Engine,
  env: Record<string, string> = {},
  options: { databaseUrl?: string; clock?: Clock } = {},
): Promise<TestServer> {
  const databaseUrl = options.databaseUrl ?? (await freshDatabaseUrl(engine));
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, done) {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const port = env.PORT ?? String(await freePort());
  const config = loadConfig({ LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: port, DATABASE_URL: databaseUrl, ...env });
  const server = await startServer(config, { logStream, clock: options.clock });
  const setupLine = logs.map((l) => JSON.parse(l)).find((l) => l.setup_url);
  return { ...server, config, databaseUrl, logs, setupUrl: setupLine?.setup_url };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
