import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { createServer } from 'node:net';
import { describe, test } from 'node:test';
import { fetch } from 'undici';
import { publicOnlyAgent, publicOnlyLookup, type Resolve } from '../../src/oauth/outbound-fetch.ts';
import { isIpLiteral, isPublicAddress } from '../../src/security/public-address.ts';

describe('public addresses', () => {
  test('special-use IPv4 and IPv6 addresses are not public', () => {
    for (const address of [
      '0.0.0.0',
      '0.1.2.3',
      '10.0.0.1',
      '100.64.0.1',
      '100.127.255.254',
      '127.0.0.1',
      '127.255.255.255',
      '169.254.169.254',
      '172.16.0.1',
      '172.31.255.255',
      '192.0.0.8',
      '192.0.2.1',
      '192.88.99.1',
      '192.168.1.1',
      '198.18.0.1',
      '198.51.100.1',
      '203.0.113.1',
      '224.0.0.1',
      '239.255.255.250',
      '240.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '::7f00:1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::127.0.0.1',
      '64:ff9b::a00:1',
      '64:ff9b:1::1',
      '100::1',
      '2001::1',
      '2001:db8::1',
      '2002:7f00:1::',
      '3fff::1',
      '5f00::1',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'fe80::1%eth0',
      'fec0::1',
      'ff02::1',
      'not an address',
      '',
    ]) {
      assert.equal(isPublicAddress(address), false, address);
    }
  });

  test('globally routable unicast addresses are public', () => {
    for (const address of [
      '1.1.1.1',
      '8.8.8.8',
      '93.184.215.14',
      '100.63.255.255',
      '100.128.0.0',
      '172.32.0.1',
      '192.0.1.1',
      '2606:4700:4700::1111',
      '2a00:1450:4001::200e',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
    ]) {
      assert.equal(isPublicAddress(address), true, address);
    }
  });

  test('IP literals in every form the URL parser accepts are recognised', () => {
    for (const host of [
      '127.0.0.1',
      '2130706433',
      '127.1',
      '0x7f.1',
      '0177.0.0.1',
      '[::1]',
      '[::ffff:127.0.0.1]',
      '8.8.8.8',
    ]) {
      assert.equal(isIpLiteral(new URL(`https://${host}/x`).hostname), true, host);
    }
    assert.equal(isIpLiteral(new URL('https://agent.example/x').hostname), false);
    assert.equal(isIpLiteral(new URL('https://localhost/x').hostname), false);
  });
});

function lookupOnce(resolve: Resolve, options: { all?: boolean; family?: number } = {}) {
  return new Promise<{ error: Error | null; address: string | LookupAddress[] }>((done) => {
    publicOnlyLookup(resolve)('client.example', options as never, (error, address) => done({ error, address }));
  });
}

describe('outbound connections', () => {
  test('a name is resolved once and refused when any of its addresses is not public', async () => {
    let queries = 0;
    const resolve: Resolve = async () => {
      queries++;
      return [
        { address: '93.184.215.14', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ];
    };
    const { error } = await lookupOnce(resolve, { all: true });
    assert.match(String(error), /127\.0\.0\.1/);
    assert.equal(queries, 1);
  });

  test('the addresses checked are the ones handed to the socket', async () => {
    const resolve: Resolve = async () => [
      { address: '2606:4700:4700::1111', family: 6 },
      { address: '1.1.1.1', family: 4 },
    ];
    assert.deepEqual((await lookupOnce(resolve, { all: true })).address, await resolve(''));
    assert.equal((await lookupOnce(resolve, { family: 4 })).address, '1.1.1.1');
    assert.equal((await lookupOnce(resolve)).address, '2606:4700:4700::1111');
    assert.match(String((await lookupOnce(async () => [])).error), /not a public address/);
  });

  test('no socket is opened to a name that resolves to loopback, nor to an IP literal', async () => {
    let connections = 0;
    const listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address() as { port: number };
    let queries = 0;
    const agent = publicOnlyAgent(async () => {
      queries++;
      return [{ address: '127.0.0.1', family: 4 }];
    });
    try {
      for (const url of [`https://rebind.example:${port}/`, `https://127.0.0.1:${port}/`, `http://[::1]:${port}/`]) {
        await assert.rejects(fetch(url, { dispatcher: agent }), url);
      }
      assert.equal(connections, 0);
      assert.equal(queries, 1, 'the name is resolved once; the IP literals are refused before any lookup');
    } finally {
      await agent.close();
      await new Promise((resolve) => listener.close(resolve));
    }
  });
});
