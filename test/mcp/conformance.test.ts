import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { apiClient, schoolWithPeople, tokenFor } from '../support/api.ts';
import { runNodeCli } from '../support/cli.ts';
import { publishWithALesson } from '../support/course-content.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const require = createRequire(import.meta.url);
const CLI = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist/index.js');
const EXPECTED_FAILURES = resolve('test/mcp/conformance-expected-failures.yml');

/** The official MCP conformance suite's CLI (a client we did not write), against the server. */
async function conformance(args: string[]) {
  const { code, stdout, stderr } = await runNodeCli(CLI, args);
  return { code, output: stdout + stderr };
}

describe('the MCP conformance suite (@modelcontextprotocol/conformance)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite');
    const { staff } = await schoolWithPeople(server);
    const api = apiClient(server.url, await tokenFor(server, staff, 'courses:write curriculum:write'));
    const course = (await api.post<{ id: string }>('/api/v1/courses', { title: 'Conformance course' })).body;
    await publishWithALesson(api, course.id);
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
