import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { engines } from '../support/databases.ts';
import { authorizeUrl, pkce } from '../support/oauth.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * A raw TCP listener on 127.0.0.1 and one on ::1, on the same port, that count every connection and close it at once.
 * A TLS client's handshake reaches such a listener where an HTTP listener would see nothing it understands.
 */
async function countingListeners(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let count = 0;
  const listen = (server: Server, host: string, port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve((server.address() as { port: number }).port));
    });
  for (;;) {
    const v4 = createServer((socket) => {
      count++;
      socket.destroy();
    });
    const v6 = createServer((socket) => {
      count++;
      socket.destroy();
    });
    const port = await listen(v4, '127.0.0.1', 0);
    try {
      await listen(v6, '::1', port);
    } catch {
      // The port is free on 127.0.0.1 but taken on ::1: try another pair.
      await new Promise((resolve) => v4.close(resolve));
      continue;
    }
    return {
      port,
      connections: () => count,
      close: async () => {
        await Promise.all([v4, v6].map((s) => new Promise((resolve) => s.close(resolve))));
      },
    };
  }
}

for (const engine of engines) {
  describe(`client_id metadata documents never reach a private address (${engine})`, () => {
    let server: TestServer;
    let listeners: Awaited<ReturnType<typeof countingListeners>>;
    before(async () => {
      listeners = await countingListeners();
      server = await startTestServer(engine);
    });
    after(async () => {
      await server.close();
      await listeners.close();
    });

    // Every way of writing a loopback or unspecified address the WHATWG URL parser turns into one, and a name that
    // resolves to one.
    const hosts = [
      '127.0.0.1',
      '[::1]',
      'localhost',
      'localhost.',
      '0.0.0.0',
      '[::]',
      '2130706433',
      '127.1',
      '0x7f.1',
      '0177.0.0.1',
      '0x7f000001',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '[0:0:0:0:0:ffff:127.0.0.1]',
    ];
    for (const host of hosts) {
      test(`https://${host}:<port>/… is refused without a connection`, async () => {
        const clientId = `https://${host}:${listeners.port}/client.json`;
        const before = listeners.connections();
        const response = await fetch(
          authorizeUrl(server.url, {
            response_type: 'code',
            client_id: clientId,
            redirect_uri: 'http://127.0.0.1:43000/callback',
            scope: 'openid',
            code_challenge: pkce().challenge,
            code_challenge_method: 'S256',
          }),
          { headers: { accept: 'application/json' }, redirect: 'manual' },
        );
        assert.equal(listeners.connections() - before, 0, `the server connected to ${clientId}`);
        assert.equal(response.status, 400);
        const body = (await response.json()) as { error: string; error_description: string };
        assert.equal(body.error, 'invalid_client');
        assert.match(body.error_description, /client_id/);
      });
    }
  });
}
