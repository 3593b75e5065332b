import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, test } from 'node:test';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import { engines, freshDatabaseUrl } from './support/databases.ts';

for (const engine of engines) {
  describe(`starting the server (${engine})`, () => {
    const closes = engine === 'postgres' ? ', and the database connections it opened are closed' : '';
    test(`a port already taken is refused with EADDRINUSE${closes}`, async () => {
      const blocker = createServer();
      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
      const address = blocker.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      // The server's PostgreSQL connections carry a name of their own, so this test can count them.
      const name = `lyceum-port-taken-${process.pid}-${Date.now()}`;
      const url = new URL(await freshDatabaseUrl(engine), 'file:');
      if (engine === 'postgres') url.searchParams.set('application_name', name);
      const databaseUrl = engine === 'postgres' ? url.toString() : url.pathname;
      try {
        const config = loadConfig({ HOST: '127.0.0.1', PORT: String(port), DATABASE_URL: databaseUrl });
        await assert.rejects(startServer(config), { code: 'EADDRINUSE' });
      } finally {
        blocker.close();
      }
      if (engine !== 'postgres') return;
      const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      try {
        // A closed connection's backend leaves pg_stat_activity a moment after the client hangs up.
        let open = -1;
        for (let i = 0; i < 200 && open !== 0; i++) {
          const rows = await client.query(
            'select count(*)::int as n from pg_stat_activity where application_name = $1',
            [name],
          );
          open = rows.rows[0].n;
        }
        assert.equal(open, 0, 'no connection of the failed start is left open');
      } finally {
        await client.end();
      }
    });
  });
}
