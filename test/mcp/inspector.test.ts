import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { apiClient, schoolWithPeople, tokenFor } from '../support/api.ts';
import { runNodeCli } from '../support/cli.ts';
import { publishWithALesson } from '../support/course-content.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const require = createRequire(import.meta.url);
const LAUNCHER = join(
  dirname(require.resolve('@modelcontextprotocol/inspector/package.json')),
  'clients/launcher/build/index.js',
);

/** The MCP Inspector's CLI, as a person would run it (its catalog and stored auth in a scratch folder). */
const inspector = (args: string[]) => runNodeCli(LAUNCHER, ['--cli', ...args], { timeoutMs: 60_000 });

describe('the MCP Inspector CLI against /mcp', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite');
    const { staff } = await schoolWithPeople(server);
    const api = apiClient(server.url, await tokenFor(server, staff, 'courses:write curriculum:write'));
    const course = (await api.post<{ id: string }>('/api/v1/courses', { title: 'Inspected course' })).body;
    await publishWithALesson(api, course.id);
  });
  after(() => server.close());

  test('tools/list with --strict finds no portability problem in any listed tool schema', async () => {
    const { code, stdout, stderr } = await inspector([`${server.url}/mcp`, '--method', 'tools/list', '--strict']);
    assert.equal(code, 0, stderr);
    assert.equal(stderr.trim(), '', 'no warning');
    const { tools } = JSON.parse(stdout) as { tools: { name: string }[] };
    assert.ok(tools.some((t) => t.name === 'callOperation'));
  });

  test('tools/call and resources/list work, with no warning', async () => {
    const call = await inspector([
      `${server.url}/mcp`,
      '--method',
      'tools/call',
      '--tool-name',
      'listCourses',
      '--tool-arg',
      'q=inspected',
    ]);
    assert.equal(call.code, 0, call.stderr);
    assert.equal(call.stderr.trim(), '');
    const result = JSON.parse(call.stdout) as { structuredContent: { data: { title: string }[] } };
    assert.deepEqual(
      result.structuredContent.data.map((c) => c.title),
      ['Inspected course'],
    );
    const resources = await inspector([`${server.url}/mcp`, '--method', 'resources/list']);
    assert.equal(resources.code, 0, resources.stderr);
    assert.match(resources.stdout, /"uri": "http:\/\/127\.0\.0\.1:\d+\/courses\/inspected-course"/);
  });
});
