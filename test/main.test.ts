import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, test } from 'node:test';
import { engines, freshDatabaseUrl } from './support/databases.ts';
import { startMain } from './support/process.ts';
import { freePort } from './support/server.ts';

for (const engine of engines) {
  describe(`the lyceum process (${engine})`, () => {
    test('starts, logs the setup link, and on SIGTERM finishes an in-flight request before exiting 0', async (t) => {
      const port = await freePort();
      const { child, lines, exited, waitForLine } = await startMain({
        PORT: String(port),
        DATABASE_URL: await freshDatabaseUrl(engine),
        LOG_LEVEL: 'debug',
      });
      t.after(() => child.kill('SIGKILL'));
      assert.ok(lines.some((l) => l.includes(`"setup_url":"http://127.0.0.1:${port}/setup?token=`)));
      assert.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200);

      // Half a request is on the wire when the signal arrives; the rest follows after it.
      const socket = connect(port, '127.0.0.1');
      await new Promise((r) => socket.once('connect', r));
      const body = 'email=a%40b.test&password=x';
      socket.write(
        `POST /signin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 5)}`,
      );
      // The server has read the request's head (at debug level it logs a request as it arrives) before the signal is
      // sent, and has begun stopping before the body's rest is sent.
      await waitForLine((l) => l.includes('"request received"') && l.includes('"url":"/signin"'));
      child.kill('SIGTERM');
      await waitForLine((l) => l.includes('stopping: finishing in-flight requests'));
      let response = '';
      socket.on('data', (chunk) => {
        response += String(chunk);
      });
      const closed = new Promise((r) => socket.once('close', r));
      socket.write(body.slice(5));
      await closed;
      assert.match(response, /^HTTP\/1\.1 403 /, 'the in-flight request got its answer (403: no CSRF token)');
      assert.equal(await exited, 0);
      assert.ok(lines.some((l) => l.includes('stopping')));
      // New connections are refused once it has stopped.
      await assert.rejects(fetch(`http://127.0.0.1:${port}/healthz`));
    });
  });
}
