import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { startMain } from '../support/process.ts';
import { freePort, startTestServer } from '../support/server.ts';

/** A GET over a kept-alive connection: its status, its Connection header and its body. */
const get = (url: string) =>
  new Promise<{ status: number; connection: string | undefined; text: string }>((resolve, reject) => {
    const req = request(url, { headers: { connection: 'keep-alive' } }, (res) => {
      let text = '';
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, text }));
    });
    req.on('error', reject);
    req.end();
  });

describe('a graceful stop drains before it closes', () => {
  test('while draining, /readyz answers 503 and every response closes its connection; the rest still serves', async () => {
    const server = await startTestServer('sqlite');
    try {
      const before = await get(`${server.url}/readyz`);
      assert.equal(before.status, 200);
      assert.equal(before.connection, 'keep-alive');

      await server.drain(0);
      const ready = await get(`${server.url}/readyz`);
      assert.equal(ready.status, 503);
      assert.deepEqual(JSON.parse(ready.text), {
        error: 'service_unavailable',
        error_description: 'Not ready: this instance is stopping.',
      });
      const page = await get(`${server.url}/api/v1/courses`);
      assert.equal(page.status, 200, 'requests are still served while the load balancer notices');
      assert.equal(page.connection, 'close');
      assert.equal((await get(`${server.url}/healthz`)).status, 200, 'the process is alive: no restart is wanted');
    } finally {
      await server.close();
    }
  });

  test('SIGTERM with STOP_DRAIN_SECONDS: it drains, then stops accepting and exits 0', async () => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'lyceum-drain-'));
    const main = await startMain({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: join(dir, 'school.sqlite'),
      STORAGE_DIR: join(dir, 'files'),
      LOG_LEVEL: 'info',
      STOP_DRAIN_SECONDS: '3',
    });
    main.child.kill('SIGTERM');
    await main.waitForLine((line) => line.includes('stopping: draining'));
    const ready = await get(`http://127.0.0.1:${port}/readyz`);
    assert.equal(ready.status, 503);
    assert.equal((await get(`http://127.0.0.1:${port}/healthz`)).status, 200);
    assert.equal(await main.exited, 0);
    assert.ok(
      main.lines.findIndex((l) => l.includes('stopping: draining')) <
        main.lines.findIndex((l) => l.includes('finishing in-flight requests')),
    );
    await assert.rejects(get(`http://127.0.0.1:${port}/healthz`), /ECONNREFUSED/);
  });
});
