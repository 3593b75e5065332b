import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Command, type CommanderError } from 'commander';
import { browserOpener } from '../../src/cli/browser.ts';
import { completionScript } from '../../src/cli/completion.ts';
import type { Io } from '../../src/cli/io.ts';
import { type Operation, operationsOf, verbOf } from '../../src/cli/operations.ts';
import { buildProgram } from '../../src/cli/program.ts';
import { operationTools } from '../../src/operations/operation-tools.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/** The command tree derived from the live /openapi.json, checked against the live route table (no drift). */
describe('CLI commands derived from /openapi.json', () => {
  let server: TestServer;
  let operations: Operation[];
  before(async () => {
    server = await startTestServer('sqlite');
    operations = operationsOf(await (await fetch(`${server.url}/openapi.json`)).json());
  });
  after(() => server.close());

  test('the naming rule: the tag is the group, the verb is the operationId without the group’s noun', () => {
    const examples: [string, string, string][] = [
      ['listCourses', 'courses', 'list'],
      ['createCourse', 'courses', 'create'],
      ['publishCourse', 'courses', 'publish'],
      ['listStudentEnrollments', 'students', 'list-enrollments'],
      ['bulkEnrollStudents', 'students', 'bulk-enroll'],
      ['listSections', 'curriculum', 'list-sections'],
      ['listMembershipPlans', 'membership-plans', 'list'],
      ['listDigitalProductGrants', 'digital-products', 'list-grants'],
      ['getAnalyticsSeries', 'analytics', 'get-series'],
    ];
    for (const [operationId, group, verb] of examples) {
      assert.equal(verbOf(operationId, group), verb, operationId);
      const derived = operations.find((op) => op.operationId === operationId);
      assert.deepEqual([derived?.group, derived?.verb], [group, verb], operationId);
    }
    assert.equal(verbOf('courses', 'courses'), 'courses', 'nothing left: the whole operationId');
  });

  test('every API operation (each MCP tool, and those sending or answering raw bytes) is a command, by the same operationId, once', () => {
    const tools = operationTools(server.routes).map((tool) => tool.name);
    const commands = operations.map((op) => op.operationId);
    for (const tool of tools) assert.ok(commands.includes(tool), `no command for ${tool}`);
    // Routes of raw bytes (an upload's content, a CSV export) are no MCP tool, but they are commands.
    const binary = server.routes
      .filter((route) => route.url.startsWith('/api/v1') && route.config.binary === true && route.method !== 'HEAD')
      .map((route) => String(route.schema?.operationId))
      .sort();
    assert.ok(binary.includes('uploadAssetContent') && binary.includes('exportFormSubmissions'));
    assert.deepEqual(
      commands.filter((name) => !tools.includes(name)).sort(),
      binary,
      'only the raw-bytes operations are commands without an MCP tool',
    );
    const names = operations.map((op) => `${op.group} ${op.verb}`);
    assert.equal(new Set(names).size, names.length, 'group and verb name one operation');
    assert.equal(new Set(commands).size, commands.length);
  });

  test('the whole tree builds (no flag clashes) and every command parses its own --help', async () => {
    const written: string[] = [];
    const io: Io = {
      env: {},
      stdout: { write: (text: string) => written.push(text) } as unknown as Io['stdout'],
      stderr: { write: (text: string) => written.push(text) } as unknown as Io['stderr'],
      stdin: process.stdin,
      now: () => 0,
      openBrowser: browserOpener({}),
    };
    const ctx = { io, profileName: undefined, profile: undefined };
    for (const op of operations) {
      for (const argv of [
        [op.group, op.verb, '--help'],
        [op.operationId, '--help'],
      ]) {
        written.length = 0;
        const program = buildProgram(ctx, operations, {
          writeOut: (text) => written.push(text),
          writeErr: (text) => written.push(text),
        });
        await assert.rejects(program.parseAsync(argv, { from: 'user' }), (error: CommanderError) => {
          assert.equal(error.code, 'commander.helpDisplayed', `${argv.join(' ')}: ${error.message}`);
          return true;
        });
        assert.match(written.join(''), new RegExp(`Operation ${op.operationId}\\s\\(${op.method}\\s`));
      }
    }
  });
});

describe('names a school cannot use to reach the shell', () => {
  const operation = (operationId: string, tag: string, field = 'title') => ({
    operationId,
    tags: [tag],
    'x-required-scope': 'courses:write',
    requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { [field]: {} } } } } },
  });
  const document = {
    paths: {
      '/a': { post: operation('createCourse', 'courses') },
      '/b': { post: operation("x$(touch /tmp/pwned)'", 'courses') },
      '/c': { post: operation('listThings', "things'; rm -rf ~; '") },
      '/d': { post: operation('createThing', 'things', 'title`id`') },
      '/e': { get: operation('get_thing-2', 'Things_2') },
    },
  };

  test('operations with a hostile operationId, tag or field name are left out, with one warning', () => {
    const warnings: string[] = [];
    const operations = operationsOf(document, (line) => warnings.push(line));
    assert.deepEqual(
      operations.map((op) => op.operationId),
      ['createCourse', 'get_thing-2'],
    );
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /^Warning: 3 operation\(s\) of the school left out/);
    assert.match(
      warnings[0] ?? '',
      /"POST \/b" \(its operationId\), "POST \/c" \(its tag\), "POST \/d" \(its field "title`id`"\)/,
    );
    assert.equal(operationsOf({ paths: { '/a': document.paths['/a'] } }, (line) => warnings.push(line)).length, 1);
    assert.equal(warnings.length, 1, 'no warning when nothing is left out');
  });

  test('a completion script refuses a command tree with a name that is not plain', () => {
    const program = new Command('lyceum').option('--json');
    program.command('courses').command('list').option('--status <s>');
    for (const shell of ['bash', 'zsh', 'fish'] as const) assert.match(completionScript(shell, program), /courses/);
    program.command('$(reboot)');
    for (const shell of ['bash', 'zsh', 'fish'] as const)
      assert.throws(() => completionScript(shell, program), /Not a plain command name: "\$\(reboot\)"/);
    const flags = new Command('lyceum');
    flags.command('courses').option("--x'y");
    assert.throws(() => completionScript('bash', flags), /Not a plain flag/);
  });
});
