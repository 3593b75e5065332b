import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, test } from 'node:test';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import { engines, freshDatabaseUrl } from './support/databases.ts';

for (const engine of engines) {
  describe(`starting the server (${engine})`, () => {
    test('a port already taken is refused with EADDRINUSE (what it opened is closed before it says so)', async () => {
      const blocker = createServer();
      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
      const address = blocker.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      try {
        const config = loadConfig({
          HOST: '127.0.0.1',
          PORT: String(port),
          DATABASE_URL: await freshDatabaseUrl(engine),
        });
        await assert.rejects(startServer(config), {
          code: 'EADDRINUSE',
        });
      } finally {
        blocker.close();
      }
    });
  });
}
