import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_TOOLS } from '../../src/mcp/server.ts';
import { apiClient, createUser, type Person, schoolWithPeople, tokenFor } from '../support/api.ts';
import { publishWithALesson } from '../support/course-content.ts';
import { engines } from '../support/databases.ts';
import { legacyClient, mcpPost, modernClient, resultJson, toolCall } from '../support/mcp.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/** The tools written by hand: composites of public reads, and the operation index. */
const HAND_WRITTEN = ['getCourseOutline', 'getPricing', 'findOperations', 'describeOperation', 'callOperation'];

type Listed = {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { type: string; properties?: Record<string, unknown> };
  outputSchema?: { type?: string };
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
};
type Described = {
  name: string;
  scope: string;
  anonymous: boolean;
  annotations: Record<string, boolean>;
  inputSchema: { properties?: Record<string, unknown> };
  outputSchema: { type?: string };
};

/** Every tool, following tools/list's cursor (one page today). */
async function allTools(client: {
  listTools(params?: { cursor?: string }): Promise<{ tools: unknown[]; nextCursor?: string }>;
}): Promise<Listed[]> {
  const tools: Listed[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    tools.push(...(page.tools as Listed[]));
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

/** Every operation findOperations knows, and what describeOperation says of each. */
async function allOperations(client: Awaited<ReturnType<typeof legacyClient>>) {
  const found = resultJson(await client.callTool({ name: 'findOperations', arguments: { limit: 200 } })) as {
    operations: { name: string; scope: string }[];
    total: number;
  };
  assert.equal(found.operations.length, found.total, 'one call lists them all');
  const described = new Map<string, Described>();
  for (const op of found.operations)
    described.set(
      op.name,
      resultJson(
        await client.callTool({ name: 'describeOperation', arguments: { operation: op.name } }),
      ) as unknown as Described,
    );
  return described;
}

type Course = { id: string; slug: string; title: string; status: string };

for (const engine of engines) {
  describe(`MCP server at /mcp (${engine})`, () => {
    let server: TestServer;
    let owner: Person;
    let staff: Person;
    let student: Person;
    let staffApi: ReturnType<typeof apiClient>;
    let published: Course;
    let draft: Course;
    let previewId: string;
    let lockedId: string;

    before(async () => {
      server = await startTestServer(engine);
      ({ owner, staff, student } = await schoolWithPeople(server));
      staffApi = apiClient(
        server.url,
        await tokenFor(server, staff, 'courses:read courses:write curriculum:read curriculum:write'),
      );
      const create = async (title: string) => (await staffApi.post<Course>('/api/v1/courses', { title })).body;
      published = await create('Astronomy for Beginners');
      draft = await create('Astronomy Secrets (draft)');
      const section = (
        await staffApi.post<{ id: string }>(`/api/v1/courses/${published.id}/sections`, { title: 'Sky' })
      ).body;
      await staffApi.post(`/api/v1/sections/${section.id}/publish`);
      const lesson = async (title: string, is_preview: boolean) => {
        const created = await staffApi.post<{ id: string }>(`/api/v1/sections/${section.id}/lessons`, {
          title,
          type: 'text',
          body: `${title} body`,
          duration_s: 600,
          is_preview,
        });
        await staffApi.post(`/api/v1/lessons/${created.body.id}/publish`);
        return created.body.id;
      };
      previewId = await lesson('The Moon', true);
      lockedId = await lesson('Jupiter', false);
      await staffApi.post(`/api/v1/courses/${published.id}/publish`);
    });
    after(() => server.close());

    test('every API route is an operation findOperations lists, with its operationId, scope and input fields', async () => {
      const client = await legacyClient(server.url);
      const operations = await allOperations(client);
      await client.close();
      // Raw-byte uploads (config.binary) have no JSON input to give a tool.
      const apiRoutes = server.routes.filter(
        (r) => r.url.startsWith('/api/v1') && r.method !== 'HEAD' && r.config.binary !== true,
      );
      assert.ok(operations.has('createAsset') && !operations.has('uploadAssetContent'));
      for (const route of apiRoutes) {
        const name = String(route.schema?.operationId);
        const op = operations.get(name);
        assert.ok(op, `${route.method} ${route.url} (${name}) is an operation`);
        assert.equal(op.scope, route.config.scope, `${name} scope`);
        assert.equal(op.anonymous, route.config.anonymous === true, `${name} anonymous`);
        const fields = ['params', 'querystring', 'body'].flatMap((part) =>
          Object.keys((route.schema?.[part] as { properties?: object } | undefined)?.properties ?? {}),
        );
        if (route.config.idempotent) fields.push('idempotency_key');
        assert.deepEqual(Object.keys(op.inputSchema.properties ?? {}).sort(), fields.sort(), `${name} input`);
        assert.equal(op.outputSchema.type, 'object', `${name} outputSchema`);
      }
      const routeNames = new Set(apiRoutes.map((r) => String(r.schema?.operationId)));
      for (const name of operations.keys()) assert.ok(routeNames.has(name), `operation ${name} has a route`);
    });

    test('the default tools/list fits in a context: at most 25 tools and 40 KB, every one described', async () => {
      const listed = await mcpPost(server.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
      const result = listed.json().result as { tools: Listed[]; nextCursor?: string };
      const bytes = Buffer.byteLength(JSON.stringify(result));
      assert.ok(result.tools.length <= 25, `${result.tools.length} tools`);
      assert.ok(bytes <= 40 * 1024, `${bytes} bytes`);
      assert.equal(result.nextCursor, undefined);
      assert.deepEqual(
        result.tools.map((t) => t.name),
        DEFAULT_TOOLS.filter((name) => name !== 'getPricing' || result.tools.some((t) => t.name === name)),
      );
      for (const tool of result.tools) {
        assert.ok(tool.title && tool.description && tool.description.length > 10, `${tool.name} texts`);
        assert.ok(tool.description.length <= 600, `${tool.name}: a short description`);
        assert.equal(tool.inputSchema.type, 'object', `${tool.name} inputSchema`);
        assert.equal(tool.annotations?.title, undefined, `${tool.name}: the title is said once`);
        for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const)
          assert.equal(typeof tool.annotations?.[hint], 'boolean', `${tool.name} ${hint}`);
        assert.equal(typeof tool._meta?.['lyceum/scope'], 'string', `${tool.name}: its scope, in _meta`);
        if (HAND_WRITTEN.includes(tool.name)) assert.equal(tool.outputSchema?.type, 'object', tool.name);
      }
      const names = result.tools.map((t) => t.name);
      for (const essential of ['listStudentEnrollments', 'completeMyLesson', 'enrollMyself', 'startCheckout'])
        assert.ok(names.includes(essential), essential);
    });

    test("the README's Agents section names the default list as it is, and its size", async () => {
      const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
      const section = /\n## Agents\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
      const named = [...section.matchAll(/`([a-z][A-Za-z]+)`/g)].map((m) => m[1]);
      assert.deepEqual(new Set(named), new Set(DEFAULT_TOOLS));
      const listed = await mcpPost(server.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
      const result = listed.json().result as { tools: Listed[] };
      const kb = Math.round(Buffer.byteLength(JSON.stringify(result)) / 1024);
      const said = /is (\d+) tools, about (\d+) KB/.exec(section);
      assert.equal(Number(said?.[1]), result.tools.length, 'the number of tools the README says');
      assert.ok(Math.abs(Number(said?.[2]) - kb) <= 2, `the README says ${said?.[2]} KB; the list is ${kb} KB`);
    });

    test('idempotentHint says whether a repeated call does it again, from what the operation does', async () => {
      const client = await legacyClient(server.url);
      const operations = await allOperations(client);
      await client.close();
      const hints = (names: string[]) => names.map((n) => operations.get(n)?.annotations.idempotentHint);
      const creates = ['createCourse', 'startCheckout', 'bulkCreateCoupons', 'bulkEnrollStudents', 'refundOrder'];
      const sends = ['inviteStaff', 'submitMyQuizAttempt', 'createPlanPrice', 'sendVerificationEmail'];
      assert.deepEqual(
        hints([...creates, ...sends]),
        [...creates, ...sends].map(() => false),
      );
      const sets = ['updateCourse', 'deleteCourse', 'publishCourse', 'completeMyLesson', 'enrollMyself', 'listCourses'];
      assert.deepEqual(
        hints(sets),
        sets.map(() => true),
        'updates, deletes, state changes and upserts',
      );
      for (const [name, op] of operations)
        if (!op.annotations.idempotentHint && op.annotations.readOnlyHint === false && name !== 'sendVerificationEmail')
          assert.ok(op.inputSchema.properties?.idempotency_key, `${name} creates, so it takes an idempotency key`);
      const ann = (name: string) => operations.get(name)?.annotations;
      assert.deepEqual([ann('listCourses')?.readOnlyHint, ann('deleteCourse')?.destructiveHint], [true, true]);
    });

    test('the students operations: a student reads their own record, staff enroll in bulk', async () => {
      const asStudent = await modernClient(
        server.url,
        await tokenFor(server, student, 'students:read', `${server.url}/mcp`),
      );
      const me = resultJson(await asStudent.callTool({ name: 'getStudent', arguments: { id: 'me' } }));
      assert.equal(me.id, student.id);
      const mine = resultJson(await asStudent.callTool({ name: 'listStudentEnrollments', arguments: { id: 'me' } }));
      assert.ok(Array.isArray(mine.data), 'their courses, from the default list');
      await asStudent.close();
      const asStaff = await modernClient(
        server.url,
        await tokenFor(server, staff, 'students:write', `${server.url}/mcp`),
      );
      const job = resultJson(
        await asStaff.callTool({
          name: 'callOperation',
          arguments: {
            operation: 'bulkEnrollStudents',
            arguments: { rows: [{ email: 'mcp.learner@school.test', course_id: published.id }] },
          },
        }),
      );
      assert.match(String(job.id), /^job_/);
      assert.deepEqual(job.progress, { done: 0, total: 1 });
      await asStaff.close();
    });

    test('anonymous catalog with the 2025-11-25 client: search, outline with previews, drafts are not found', async () => {
      const client = await legacyClient(server.url);
      const found = resultJson(await client.callTool({ name: 'listCourses', arguments: { q: 'astronomy' } }));
      assert.deepEqual(
        (found.data as Course[]).map((c) => c.title),
        ['Astronomy for Beginners'],
      );
      const outline = resultJson(
        await client.callTool({ name: 'getCourseOutline', arguments: { id: published.slug } }),
      );
      const lessons = (outline.sections as { lessons: { id: string; body: string | null; locked: boolean }[] }[])[0]
        .lessons;
      assert.deepEqual(
        lessons.map((l) => [l.id, l.body, l.locked]),
        [
          [previewId, 'The Moon body', false],
          [lockedId, null, true],
        ],
      );
      assert.equal(outline.total_duration_s, 1200);
      const hidden = await client.callTool({ name: 'getCourse', arguments: { id: draft.id } });
      assert.equal(hidden.isError, true);
      assert.deepEqual(resultJson(hidden), { error: 'not_found', error_description: 'No such course.' });
      const invalid = await client.callTool({ name: 'listCourses', arguments: { limit: 1000 } });
      assert.equal(invalid.isError, true);
      assert.equal(resultJson(invalid).error, 'invalid_request');
      const unknownArg = await client.callTool({ name: 'getSchool', arguments: { nope: 1 } });
      assert.equal(resultJson(unknownArg).error, 'invalid_request');
      await client.close();
    });

    test('the 2026-07-28 client negotiates the modern revision and reads the same catalog', async () => {
      const client = await modernClient(server.url);
      assert.equal(client.getProtocolEra(), 'modern');
      const found = resultJson(await client.callTool({ name: 'listCourses', arguments: { q: 'astronomy' } }));
      assert.equal((found.data as Course[])[0]?.id, published.id);
      const tools = await allTools(client);
      assert.ok(
        tools.some((t) => t.name === 'startCheckout') && tools.some((t) => t.name === 'callOperation'),
        'protected tools are listed to anonymous callers',
      );
      await client.close();
    });

    test('a protected tool without a token is HTTP 401 pointing at the MCP resource metadata, with the scope', async () => {
      const response = await mcpPost(server.url, toolCall('createCourse', { title: 'Nope' }));
      assert.equal(response.status, 401);
      assert.match(String(response.json().error_description), /needs the courses:write scope/);
      assert.equal(
        response.headers.get('www-authenticate'),
        `Bearer scope="courses:read courses:write", resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp"`,
      );
      const listed = await mcpPost(server.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
      assert.equal(listed.status, 200, 'listing needs no token');
    });

    test('a token bound to /mcp (or to the API) runs a staff write; the REST API refuses the /mcp token', async () => {
      const mcpToken = await tokenFor(server, staff, 'courses:read courses:write', `${server.url}/mcp`);
      const client = await legacyClient(server.url, mcpToken);
      const created = resultJson(
        await client.callTool({ name: 'createCourse', arguments: { title: 'Made by an agent' } }),
      );
      assert.equal(created.status, 'draft');
      const drafts = resultJson(await client.callTool({ name: 'listCourses', arguments: { status: 'draft' } }));
      assert.ok(
        (drafts.data as Course[]).some((c) => c.id === created.id),
        'staff see drafts through MCP too',
      );
      await client.close();
      assert.equal((await staffApi.get<Course>(`/api/v1/courses/${created.id}`)).body.title, 'Made by an agent');
      assert.equal((await apiClient(server.url, mcpToken).get('/api/v1/courses')).status, 401);

      const apiToken = await tokenFor(server, staff, 'courses:write');
      const modern = await modernClient(server.url, apiToken);
      const renamed = resultJson(
        await modern.callTool({ name: 'updateCourse', arguments: { id: created.id, subtitle: 'From MCP' } }),
      );
      assert.equal(renamed.subtitle, 'From MCP');
      const gone = await modern.callTool({ name: 'deleteCourse', arguments: { id: created.id } });
      assert.deepEqual(gone.structuredContent, { done: true });
      const rule = await modern.callTool({ name: 'deleteCourse', arguments: { id: published.id } });
      assert.equal(rule.isError, true);
      assert.equal(resultJson(rule).error, 'conflict');
      await modern.close();
    });

    test('a token lacking the scope is 403 insufficient_scope with a step-up; a student is told what they may grant', async () => {
      const readOnly = await tokenFor(server, staff, 'courses:read', `${server.url}/mcp`);
      const refused = await mcpPost(server.url, toolCall('createCourse', { title: 'x' }), {
        authorization: `Bearer ${readOnly}`,
      });
      assert.equal(refused.status, 403);
      assert.match(
        refused.headers.get('www-authenticate') ?? '',
        /^Bearer error="insufficient_scope", error_description="[^"]+", scope="courses:read courses:write", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"$/,
      );
      const studentToken = await tokenFor(server, student, 'courses:read courses:write', `${server.url}/mcp`);
      const asStudent = await mcpPost(server.url, toolCall('createCourse', { title: 'x' }), {
        authorization: `Bearer ${studentToken}`,
      });
      assert.equal(asStudent.status, 403);
      assert.equal(asStudent.json().error, 'insufficient_scope');
      assert.match(
        String(asStudent.json().error_description),
        /which a student cannot grant\. A student may grant: openid .*courses:read/,
      );
      assert.equal(
        asStudent.headers.get('www-authenticate'),
        `Bearer resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp"`,
        'no step-up is offered for a scope the role can never hold',
      );
      const read = await mcpPost(server.url, toolCall('listCourses'), { authorization: `Bearer ${studentToken}` });
      assert.equal(read.status, 200);
    });

    test("callOperation answers exactly as the operation's own tool: 401, 403, results and rule failures", async () => {
      const via = (operation: string, args: Record<string, unknown> = {}, id = 1) =>
        toolCall('callOperation', { operation, arguments: args }, id);
      const strip = (r: { status: number; headers: Headers; json: () => Record<string, unknown> }) => ({
        status: r.status,
        challenge: r.headers.get('www-authenticate'),
        body: r.json(),
      });
      const pairs: [Record<string, unknown>, Record<string, unknown>, Record<string, string>][] = [
        [toolCall('createCourse', { title: 'x' }), via('createCourse', { title: 'x' }), {}],
        [
          toolCall('createCourse', { title: 'x' }),
          via('createCourse', { title: 'x' }),
          { authorization: `Bearer ${await tokenFor(server, staff, 'courses:read', `${server.url}/mcp`)}` },
        ],
        [toolCall('getCourse', { id: published.id }), via('getCourse', { id: published.id }), {}],
        [toolCall('getCourse', { id: draft.id }), via('getCourse', { id: draft.id }), {}],
        [toolCall('getCourse', {}), via('getCourse', {}), {}],
        [toolCall('listCourses', { limit: 1000 }), via('listCourses', { limit: 1000 }), {}],
      ];
      for (const [direct, generic, headers] of pairs) {
        const a = strip(await mcpPost(server.url, direct, { ...headers, 'x-pad': 'direct' }));
        const b = strip(await mcpPost(server.url, generic, { ...headers, 'x-pad': 'generic' }));
        assert.deepEqual(b, a, JSON.stringify(direct));
      }
      const unknown = await mcpPost(server.url, via('noSuchOperation'));
      const unknownResult = unknown.json().result as Record<string, unknown>;
      assert.equal(unknownResult.isError, true);
      assert.match(String(resultJson(unknownResult).error_description), /no operation "noSuchOperation"/);
      const noName = (await mcpPost(server.url, toolCall('callOperation', {}))).json().result as Record<
        string,
        unknown
      >;
      assert.equal(resultJson(noName).error, 'invalid_request');
    });

    test('hand-written tools validate like generated ones: getCourseOutline takes id, and a bad one is invalid_request', async () => {
      const client = await legacyClient(server.url);
      for (const args of [{}, { course: published.slug }, { id: 7 }, { id: '' }]) {
        const outline = await client.callTool({ name: 'getCourseOutline', arguments: args });
        assert.equal(outline.isError, true, JSON.stringify(args));
        assert.equal(resultJson(outline).error, 'invalid_request', JSON.stringify(args));
      }
      const missing = resultJson(await client.callTool({ name: 'getCourseOutline', arguments: {} }));
      const generated = resultJson(await client.callTool({ name: 'getCourse', arguments: {} }));
      assert.match(String(missing.error_description), /"id" is required/);
      assert.match(String(generated.error_description), /"id" is required/);
      const found = resultJson(await client.callTool({ name: 'findOperations', arguments: { limit: 'all' } }));
      assert.equal(found.error, 'invalid_request');
      await client.close();
    });

    test('findOperations finds by words and area; describeOperation gives the schemas', async () => {
      const client = await legacyClient(server.url);
      const found = resultJson(
        await client.callTool({ name: 'findOperations', arguments: { query: 'create coupons' } }),
      ) as { operations: { name: string; scope: string }[] };
      assert.deepEqual(
        found.operations.map((o) => [o.name, o.scope]),
        [
          ['createCoupon', 'coupons:write'],
          ['bulkCreateCoupons', 'coupons:write'],
        ],
      );
      const refunds = resultJson(
        await client.callTool({ name: 'findOperations', arguments: { query: 'refund', area: 'orders' } }),
      ) as { operations: { name: string }[] };
      assert.ok(refunds.operations.map((o) => o.name).includes('refundOrder'));
      const described = resultJson(
        await client.callTool({ name: 'describeOperation', arguments: { operation: 'bulkCreateCoupons' } }),
      ) as unknown as Described & { http: string };
      assert.equal(described.http, 'POST /api/v1/coupons/bulk');
      assert.ok(described.inputSchema.properties?.idempotency_key);
      assert.equal(described.annotations.idempotentHint, false);
      await client.close();
    });

    test('an idempotency key makes a repeated create happen once: bulkCreateCoupons twice is one batch', async () => {
      const token = await tokenFor(server, staff, 'coupons:read coupons:write', `${server.url}/mcp`);
      const client = await modernClient(server.url, token);
      const args = {
        prefix: 'AGENTKEY',
        count: 3,
        percent_off: 10,
        idempotency_key: 'bulk-agentkey-1',
      };
      const first = await client.callTool({
        name: 'callOperation',
        arguments: { operation: 'bulkCreateCoupons', arguments: args },
      });
      assert.equal(first.isError, undefined, JSON.stringify(first));
      const again = await client.callTool({ name: 'bulkCreateCoupons', arguments: args });
      assert.deepEqual(resultJson(again), resultJson(first), 'the first answer, replayed');
      const listed = resultJson(
        await client.callTool({ name: 'listCoupons', arguments: { batch: 'AGENTKEY', limit: 100 } }),
      ) as { data: unknown[] };
      assert.equal(listed.data.length, 3, 'one batch of three, not two');
      const reused = await client.callTool({
        name: 'bulkCreateCoupons',
        arguments: { ...args, count: 4 },
      });
      assert.equal(reused.isError, true);
      assert.equal(resultJson(reused).error, 'conflict', 'the same key with another request');
      const unkeyed = await client.callTool({
        name: 'disableCoupon',
        arguments: { id: 'cpn_x', idempotency_key: 'k' },
      });
      assert.equal(resultJson(unkeyed).error, 'invalid_request', 'only operations that create take a key');
      await client.close();
    });

    test('inviteStaff takes a key too: a retried invitation answers the first, over REST and MCP alike', async () => {
      const token = await tokenFor(server, owner, 'school:read school:write');
      const invite = { email: 'keyed.invite@school.test', name: 'Kay Keyed' };
      const api = apiClient(server.url, token);
      const first = await api.post('/api/v1/staff', invite, { 'idempotency-key': 'invite-1' });
      assert.equal(first.status, 201);
      const retried = await api.post('/api/v1/staff', invite, { 'idempotency-key': 'invite-1' });
      assert.equal(retried.status, 201);
      assert.equal(retried.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(retried.body, first.body);
      const client = await modernClient(server.url, token);
      const viaMcp = await client.callTool({
        name: 'inviteStaff',
        arguments: { ...invite, idempotency_key: 'invite-1' },
      });
      assert.deepEqual(resultJson(viaMcp), first.body, 'the same key, the same answer');
      const unkeyed = await client.callTool({ name: 'inviteStaff', arguments: invite });
      assert.equal(resultJson(unkeyed).error, 'conflict', 'without the key it is a second invitation');
      await client.close();
    });

    test('read-only answers of the shared views are micro-cached (any id), cleared by a write; students never', async () => {
      const search = (id: number | string, headers: Record<string, string> = {}) =>
        mcpPost(server.url, toolCall('listCourses', { q: 'micro' }, id as number), headers);
      await search(1);
      const hit = await search('second');
      assert.equal(hit.headers.get('x-cache'), 'hit');
      assert.equal(hit.headers.get('cache-control'), 'no-cache, no-transform', 'as the answer it repeats');
      assert.equal(hit.json().id, 'second');
      assert.deepEqual((hit.json().result as { structuredContent: { data: unknown[] } }).structuredContent.data, []);
      const course = (await staffApi.post<Course>('/api/v1/courses', { title: 'Micro Course' })).body;
      await publishWithALesson(staffApi, course.id);
      const fresh = await search(3);
      assert.equal(fresh.headers.get('x-cache'), null, 'the write cleared it');
      const found = (fresh.json().result as { structuredContent: { data: Course[] } }).structuredContent.data;
      assert.deepEqual(
        found.map((c) => c.title),
        ['Micro Course'],
      );
      const studentToken = await tokenFor(server, student, 'courses:read', `${server.url}/mcp`);
      await search(4, { authorization: `Bearer ${studentToken}` });
      const again = await search(5, { authorization: `Bearer ${studentToken}` });
      assert.equal(again.headers.get('x-cache'), null, 'a personal view is never cached');
      const write = await mcpPost(server.url, toolCall('createCourse', { title: 'x' }), {
        authorization: `Bearer ${await tokenFor(server, staff, 'courses:write', `${server.url}/mcp`)}`,
      });
      assert.equal(write.headers.get('x-cache'), null);
    });

    test('nothing personal is cached: two staff members each get their own account; errors and big requests are not kept', async () => {
      const other = await createUser(server, 'staff', 'Otto Other');
      const asFirst = { authorization: `Bearer ${await tokenFor(server, staff, 'account:read', `${server.url}/mcp`)}` };
      const asOther = { authorization: `Bearer ${await tokenFor(server, other, 'account:read', `${server.url}/mcp`)}` };
      const mine = (await mcpPost(server.url, toolCall('getAccount', {}, 1), asFirst)).json();
      const theirs = await mcpPost(server.url, toolCall('getAccount', {}, 2), asOther);
      assert.equal(theirs.headers.get('x-cache'), null);
      const email = (r: Record<string, unknown>) =>
        (r.result as { structuredContent: { email: string } }).structuredContent.email;
      assert.notEqual(email(theirs.json()), email(mine));
      assert.equal(email(theirs.json()), other.email);
      const failing = () => mcpPost(server.url, toolCall('getCourse', { id: 'no-such-course' }));
      await failing();
      assert.equal((await failing()).headers.get('x-cache'), null, 'tool errors are answered again');
      const big = () => mcpPost(server.url, toolCall('listCourses', { q: 'x'.repeat(90) }, 7), { 'x-pad': 'y' });
      await big();
      assert.equal((await big()).headers.get('x-cache'), 'hit', 'ordinary requests are kept');
      const huge = () => mcpPost(server.url, toolCall('listCourses', { [`${'k'.repeat(3000)}`]: 1 }));
      await huge();
      assert.equal((await huge()).headers.get('x-cache'), null, 'large requests are not kept');
    });

    test('the outline follows the curriculum scope: without curriculum:read a token gets the public view', async () => {
      const coursesOnly = await tokenFor(server, staff, 'courses:read', `${server.url}/mcp`);
      const client = await legacyClient(server.url, coursesOnly);
      const seen = resultJson(await client.callTool({ name: 'getCourseOutline', arguments: { id: published.slug } }));
      const lessons = (seen.sections as { lessons: { id: string; body: string | null }[] }[])[0].lessons;
      assert.deepEqual(
        lessons.map((l) => [l.id, l.body]),
        [
          [previewId, 'The Moon body'],
          [lockedId, null],
        ],
        'staff without curriculum:read see what anonymous callers see',
      );
      await client.close();
    });

    test('an outside request cannot borrow the in-process call header: it is served as any other', async () => {
      const forged = await apiClient(server.url).post(
        '/api/v1/courses',
        { title: 'Forged' },
        { 'x-lyceum-internal-call': 'AAAAAAAAAAAAAAAAAAAAAA' },
      );
      assert.equal(forged.status, 403);
      assert.equal(forged.body.error, 'insufficient_scope');
    });

    test('a token in the query is refused, as at the REST API', async () => {
      const response = await fetch(`${server.url}/mcp?access_token=abc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(toolCall('listCourses')),
      });
      assert.equal(response.status, 400);
      assert.equal(((await response.json()) as { error: string }).error, 'invalid_request');
    });

    test('an invalid token is 401 invalid_token, whatever the method', async () => {
      const response = await mcpPost(server.url, toolCall('listCourses'), {
        authorization: 'Bearer not-a-real-token-at-all',
      });
      assert.equal(response.status, 401);
      assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer error="invalid_token"/);
      assert.equal(response.json().error, 'invalid_token');
    });

    test('transport hygiene: foreign Origin and Host 403, GET 405, bad JSON is a JSON-RPC parse error, limits', async () => {
      const foreign = await mcpPost(server.url, toolCall('listCourses'), { origin: 'http://evil.example.com' });
      assert.equal(foreign.status, 403);
      assert.equal((foreign.json().error as { code: number }).code, -32000);
      const own = await mcpPost(server.url, toolCall('listCourses'), { origin: server.url });
      assert.equal(own.status, 200);
      // fetch() will not send another Host; node:http will, as a rebinding attacker's browser does.
      const rebound = await new Promise<number>((resolve, reject) => {
        const request = http.request(`${server.url}/mcp`, {
          method: 'POST',
          headers: { host: 'evil.example.com:80', 'content-type': 'application/json' },
        });
        request.on('response', (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        request.on('error', reject);
        request.end(JSON.stringify(toolCall('listCourses')));
      });
      assert.equal(rebound, 403);
      const get = await fetch(`${server.url}/mcp`, { headers: { accept: 'text/event-stream' } });
      assert.equal(get.status, 405);
      assert.equal(get.headers.get('allow'), 'POST');
      const garbled = await mcpPost(server.url, '{"jsonrpc": "2.0", "id": 1, "method":');
      assert.equal(garbled.status, 400);
      assert.equal((garbled.json().error as { code: number }).code, -32700);
      const notJsonRpc = await mcpPost(server.url, { hello: 'world' });
      assert.ok(notJsonRpc.status >= 400 && notJsonRpc.status < 500, `status ${notJsonRpc.status}`);
      assert.ok(notJsonRpc.json().jsonrpc === '2.0' && notJsonRpc.json().error, notJsonRpc.text);
      const wrongType = await mcpPost(server.url, 'x', { 'content-type': 'text/plain' });
      assert.equal(wrongType.status, 415);
      const huge = await mcpPost(
        server.url,
        toolCall('createCourse', { title: 'x'.repeat(server.config.BODY_LIMIT_BYTES) }),
      );
      assert.equal(huge.status, 413);
      const unsupported = await mcpPost(server.url, toolCall('listCourses'), { 'mcp-protocol-version': '1999-01-01' });
      assert.equal(unsupported.status, 400);
      const unknownTool = await mcpPost(server.url, toolCall('noSuchTool'));
      assert.ok(unknownTool.json().error, unknownTool.text);
    });

    test('tools/list pages by cursor: one page today, a later page on request, a bad cursor refused', async () => {
      const first = (await mcpPost(server.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).json().result as {
        tools: { name: string }[];
        nextCursor?: string;
      };
      assert.ok(first.tools.length > 10 && first.tools.length <= 25, `${first.tools.length} tools`);
      assert.equal(first.nextCursor, undefined);
      const later = (
        await mcpPost(server.url, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: '10' } })
      ).json().result as { tools: { name: string }[] };
      assert.deepEqual(
        later.tools.map((t) => t.name),
        first.tools.slice(10).map((t) => t.name),
      );
      const again = await mcpPost(server.url, { jsonrpc: '2.0', id: 'again', method: 'tools/list' });
      assert.equal(again.headers.get('x-cache'), 'hit', 'the list is the same for everyone: micro-cached');
      assert.equal(again.json().id, 'again');
      const bad = await mcpPost(server.url, { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { cursor: 'x' } });
      assert.equal((bad.json().error as { code: number }).code, -32602);
    });

    test('resources: the agent documents and each public course; prompts', async () => {
      const client = await legacyClient(server.url);
      const { resources } = await client.listResources();
      const uris = resources.map((r) => r.uri);
      for (const document of ['auth.md', 'llms.txt', 'pricing.md'])
        assert.ok(uris.includes(`${server.url}/${document}`), uris.join(' '));
      const llms = await client.readResource({ uri: `${server.url}/llms.txt` });
      assert.equal(
        (llms.contents[0] as { text: string }).text,
        await (await fetch(`${server.url}/llms.txt`)).text(),
        'the same document as over HTTP',
      );
      const pricing = resultJson(await client.callTool({ name: 'getPricing', arguments: {} }));
      assert.equal(pricing.url, `${server.url}/pricing.md`);
      assert.match(String(pricing.markdown), /\| Astronomy for Beginners \| free \|/);
      assert.ok(uris.includes(`${server.url}/courses/${published.slug}`));
      assert.ok(!uris.includes(`${server.url}/courses/${draft.slug}`), 'drafts are not resources');
      const auth = await client.readResource({ uri: `${server.url}/auth.md` });
      assert.match(String((auth.contents[0] as { text: string }).text), /^# Authenticating with/);
      const course = await client.readResource({ uri: `${server.url}/courses/${published.slug}` });
      const text = String((course.contents[0] as { text: string }).text);
      assert.match(text, /^# Astronomy for Beginners/);
      assert.match(text, /- The Moon \(text, 10 min, free preview\)/);
      assert.ok(text.includes(`- Web page: ${server.url}/courses/${published.slug}`), 'the course page of the website');
      const web = await fetch(`${server.url}/courses/${published.slug}`);
      assert.equal(web.status, 200);
      assert.match(await web.text(), /<h1>Astronomy for Beginners<\/h1>/);
      await assert.rejects(client.readResource({ uri: `${server.url}/courses/${draft.slug}` }));
      const { resourceTemplates } = await client.listResourceTemplates();
      assert.equal(resourceTemplates[0]?.uriTemplate, `${server.url}/courses/{slug}`);
      const { prompts } = await client.listPrompts();
      assert.deepEqual(
        prompts.map((p) => p.name),
        ['find_a_course'],
      );
      const prompt = await client.getPrompt({ name: 'find_a_course', arguments: { topic: 'stars' } });
      assert.match(JSON.stringify(prompt.messages), /listCourses/);
      assert.equal((await client.ping()).constructor, Object);
      await client.close();
    });
  });
}
