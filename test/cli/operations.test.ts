import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Command, type CommanderError } from 'commander';
import { browserOpener } from '../../src/cli/browser.ts';
import { completionScript } from '../../src/cli/completion.ts';
import type { Io } from '../../src/cli/io.ts';
import { flagOf } from '../../src/cli/operation-command.ts';
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
        const help = written.join('');
        assert.match(help, new RegExp(`Operation ${op.operationId}\\s\\(${op.method}\\s`));
        // EXAMPLES from the operation: its path arguments and required flags, each flag one the command has.
        const examples = /\nExamples:\n((?: {2}\$ .*\n)+)/.exec(help)?.[1] ?? '';
        assert.match(examples, new RegExp(`^  \\$ lyceum ${op.group} ${op.verb}`), `${argv.join(' ')}: ${help}`);
        for (const flag of examples.match(/ --[a-z-]+/g) ?? [])
          if (flag !== ' --json') assert.ok(help.includes(`${flag.trim()} `), `${op.operationId}: ${flag}`);
        for (const arg of op.args.filter((a) => a.in !== 'path' && a.required))
          assert.ok(examples.includes(`--${flagOf(arg)} `), `${op.operationId}: --${flagOf(arg)} in its example`);
      }
    }
  });
});

describe('the request follows the operation’s method and media types, whatever the document says of a body', () => {
  const csv = { 200: { description: 'CSV', content: { 'text/csv': { schema: { type: 'string' } } } } };
  const raw = { content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } };
  const json = {
    content: { 'application/json': { schema: { type: 'object', properties: { a: { type: 'string' } } } } },
  };
  const op = (operationId: string, more: Record<string, unknown>) => ({
    operationId,
    tags: ['things'],
    'x-required-scope': 'forms:read',
    parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^thg_[0-9a-z]{26}$' } }],
    ...more,
  });
  const operations = operationsOf({
    paths: {
      // A GET whose document declares a (required) body, as exportFormSubmissions once did: no body is sent.
      '/things/{id}/old-export': { get: op('oldExport', { requestBody: { required: true, ...raw }, responses: csv }) },
      '/things/{id}/export': {
        get: op('exportThing', {
          parameters: [{ name: 'q', in: 'query', schema: { type: 'string' } }],
          responses: csv,
        }),
      },
      '/things/{id}/odd': { delete: op('oddDelete', { requestBody: json }) },
      '/things/{id}/content': { post: op('sendThing', { requestBody: raw }) },
    },
  });
  const named = (id: string) => operations.find((o) => o.operationId === id);

  test('a GET or DELETE never takes a body (RFC 9110 §9.3.1), so no --file or body flags', () => {
    assert.deepEqual([named('oldExport')?.method, named('oldExport')?.rawBody], ['GET', false]);
    assert.deepEqual(
      named('oddDelete')?.args.map((a) => a.in),
      ['path'],
    );
  });

  test('an answer that is not JSON is a download: its type, and --output in the example', () => {
    for (const id of ['oldExport', 'exportThing']) assert.deepEqual(named(id)?.download, { type: 'text/csv' });
    assert.deepEqual(
      named('exportThing')?.args.map((a) => [a.name, a.in]),
      [['q', 'query']],
    );
    assert.equal(named('sendThing')?.download, undefined);
  });

  test('raw bytes go with the operation’s own method, not always PUT', () => {
    assert.deepEqual([named('sendThing')?.method, named('sendThing')?.rawBody], ['POST', true]);
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
