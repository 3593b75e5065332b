import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { schoolWithPeople, tokenFor } from '../support/api.ts';
import type { TestServer } from '../support/server.ts';
import { startStorageServer, uploadAsset } from '../support/storage.ts';

type Raw = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

/** One request whose answer is read as the bytes on the wire (fetch would decode them). */
function raw(url: string, headers: Record<string, string> = {}, method = 'GET', body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('response compression', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startStorageServer('sqlite', 'local');
    const { owner } = await schoolWithPeople(server);
    token = await tokenFor(server, owner, 'storage:write');
  });
  after(() => server.close());

  test('a JSON document is sent as gzip or br when the client accepts it, and as is otherwise', async () => {
    const plain = await raw(`${server.url}/openapi.json`);
    assert.equal(plain.headers['content-encoding'], undefined);
    const gzip = await raw(`${server.url}/openapi.json`, { 'accept-encoding': 'gzip' });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.match(String(gzip.headers.vary), /accept-encoding/i);
    assert.deepEqual(gunzipSync(gzip.body), plain.body);
    const br = await raw(`${server.url}/openapi.json`, { 'accept-encoding': 'gzip, br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.deepEqual(brotliDecompressSync(br.body), plain.body);
    assert.ok(br.body.length < plain.body.length / 5, `${br.body.length} of ${plain.body.length}`);
  });

  test('text documents and API answers are compressed too; small answers are not', async () => {
    for (const path of ['/llms.txt', '/auth.md', '/api/v1/courses?limit=100']) {
      const answer = await raw(`${server.url}${path}`, { 'accept-encoding': 'gzip' });
      assert.equal(answer.status, 200, path);
      if (answer.body.length > 1024 || answer.headers['content-encoding'])
        assert.equal(answer.headers['content-encoding'], 'gzip', path);
    }
    const small = await raw(`${server.url}/healthz`, { 'accept-encoding': 'gzip, br' });
    assert.ok(small.body.length < 1024);
    assert.equal(small.headers['content-encoding'], undefined);
    assert.ok(JSON.parse(small.body.toString()));
  });

  test('stored bytes go as stored: Content-Length and ranges stay those of the file', async () => {
    const bytes = Buffer.from('plain text that would compress well '.repeat(200));
    const asset = await uploadAsset(
      server,
      token,
      { purpose: 'download', filename: 'notes.bin', content_type: 'application/octet-stream' },
      bytes,
    );
    const headers = { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, br' };
    const whole = await raw(asset.url ?? '', headers);
    assert.equal(whole.status, 200);
    assert.equal(whole.headers['content-encoding'], undefined);
    assert.equal(Number(whole.headers['content-length']), bytes.length);
    assert.deepEqual(whole.body, bytes);
    const part = await raw(asset.url ?? '', { ...headers, range: 'bytes=0-9' });
    assert.equal(part.status, 206);
    assert.equal(part.headers['content-encoding'], undefined);
    assert.deepEqual(part.body, bytes.subarray(0, 10));
  });

  test('MCP answers framed as server-sent events are not compressed', async () => {
    const listed = await raw(
      `${server.url}/mcp`,
      {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        'accept-encoding': 'gzip, br',
      },
      'POST',
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    );
    assert.equal(listed.status, 200);
    assert.match(String(listed.headers['content-type']), /^text\/event-stream/);
    assert.equal(listed.headers['content-encoding'], undefined);
    assert.match(listed.body.toString(), /^event: message\ndata: /);
  });
});
