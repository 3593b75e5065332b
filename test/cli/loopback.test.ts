import assert from 'node:assert/strict';
import { request } from 'node:http';
import { test } from 'node:test';
import { loopbackRedirect } from '../../src/cli/loopback.ts';

/** One GET on its own keep-alive socket (the agent keeps it open for the next request). */
const get = (url: string, agent: import('node:http').Agent) =>
  new Promise<number>((resolve, reject) => {
    const req = request(url, { agent }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });

test('the loopback listener takes one answer: a second request is refused, whether on a new connection or not', async () => {
  const { Agent } = await import('node:http');
  const loopback = await loopbackRedirect();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    assert.equal(await get(`${loopback.redirectUri.replace('/callback', '/favicon.ico')}`, agent), 404);
    assert.equal(await get(`${loopback.redirectUri}?code=first&state=s`, agent), 200);
    assert.equal((await loopback.received).searchParams.get('code'), 'first');
    await assert.rejects(
      get(`${loopback.redirectUri}?code=second&state=s`, agent),
      /ECONNREFUSED|ECONNRESET|socket hang up/,
    );
    await assert.rejects(
      fetch(`${loopback.redirectUri}?code=third&state=s`),
      (error: Error & { cause?: { code?: string } }) => error.cause?.code === 'ECONNREFUSED',
    );
  } finally {
    agent.destroy();
    loopback.close();
  }
});
