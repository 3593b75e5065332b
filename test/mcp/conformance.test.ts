import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { apiClient, schoolWithPeople, tokenFor } from '../support/api.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const require = createRequire(import.meta.url);
const CLI = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist/index.js');
const EXPECTED_FAILURES = resolve('test/mcp/conformance-expected-failures.yml');

/** Runs the official MCP conformance suite's CLI (a client we did not write) against the server. */
function conformance(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((done, fail) => {
    // It writes a results/ folder where it runs: keep that out of the repository.
    const child = spawn(process.execPath, [CLI, ...args], { cwd: mkdtempSync(join(tmpdir(), 'mcp-conformance-')) });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => child.kill(), 120_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

describe('the MCP conformance suite (@modelcontextprotocol/conformance)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite');
    const { staff } = await schoolWithPeople(server);
    const api = apiClient(server.url, await tokenFor(server, staff, 'courses:write'));
    const course = (await api.post<{ id: string }>('/api/v1/courses', { title: 'Conformance course' })).body;
    await api.post(`/api/v1/courses/${course.id}/publish`);
  });
  after(() => server.close());

  test('every scenario that applies to any server passes; the rest fail only as the expected-failures file says', async () => {
    const { code, output } = await conformance([
      'server',
      '--url',
      `${server.url}/mcp`,
      '--expected-failures',
      EXPECTED_FAILURES,
    ]);
    assert.equal(code, 0, output);
    for (const scenario of [
      'server-initialize',
      'ping',
      'tools-list',
      'resources-list',
      'prompts-list',
      'dns-rebinding-protection',
    ])
      assert.match(output, new RegExp(`✓ ${scenario}: [1-9]\\d* passed, 0 failed`), scenario);
    assert.match(output, /Baseline check passed/);
  });
});
