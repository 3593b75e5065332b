import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiClient, schoolWithPeople, tokenFor } from '../support/api.ts';
import { mcpPost, toolCall } from '../support/mcp.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

type Json = Record<string, unknown>;

/** The endpoints the RFC 8414 document names, which every other document must name alike. */
const ENDPOINTS = [
  'authorization_endpoint',
  'token_endpoint',
  'registration_endpoint',
  'revocation_endpoint',
  'introspection_endpoint',
  'jwks_uri',
];

/**
 * Every discovery document agrees with the others, and the RFC 8414 document is the source of truth (spec,
 * Discovery table): endpoints, scopes and resources named anywhere are the ones it names.
 */
describe('the discovery documents agree with the authorization server metadata', () => {
  let server: TestServer;
  let as: Json;
  const docs: Record<string, string> = {};
  const json: Record<string, Json> = {};

  const get = async (path: string) => {
    const response = await fetch(`${server.url}${path}`);
    assert.equal(response.status, 200, path);
    return response.text();
  };

  before(async () => {
    server = await startTestServer('sqlite');
    await schoolWithPeople(server);
    for (const path of [
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
      '/openapi.json',
    ])
      json[path] = JSON.parse(await get(path)) as Json;
    for (const path of ['/auth.md', '/llms.txt', '/pricing.md']) docs[path] = await get(path);
    as = json['/.well-known/oauth-authorization-server'];
  });
  after(() => server.close());

  const scopes = () => as.scopes_supported as string[];

  test('the OpenID configuration repeats the RFC 8414 document', () => {
    const oidc = json['/.well-known/openid-configuration'];
    for (const key of [
      'issuer',
      ...ENDPOINTS,
      'scopes_supported',
      'grant_types_supported',
      'response_types_supported',
      'code_challenge_methods_supported',
      'token_endpoint_auth_methods_supported',
      'authorization_response_iss_parameter_supported',
    ])
      assert.deepEqual(oidc[key], as[key], key);
    assert.equal(as.issuer, server.config.BASE_URL);
  });

  test('both protected resources name this authorization server and only its scopes', () => {
    const resources = [
      [json['/.well-known/oauth-protected-resource'], server.config.BASE_URL],
      [json['/.well-known/oauth-protected-resource/mcp'], `${server.config.BASE_URL}/mcp`],
    ] as const;
    for (const [document, resource] of resources) {
      assert.equal(document.resource, resource);
      assert.deepEqual(document.authorization_servers, [as.issuer]);
      for (const scope of document.scopes_supported as string[]) assert.ok(scopes().includes(scope), scope);
    }
  });

  test("OpenAPI's oauth2 flow uses the metadata's endpoints, and every operation a scope it lists", () => {
    const openapi = json['/openapi.json'] as {
      servers: { url: string }[];
      components: { securitySchemes: { oauth2: { flows: { authorizationCode: Json } } } };
      paths: Record<string, Record<string, Json>>;
    };
    assert.equal(openapi.servers[0]?.url, as.issuer);
    const flow = openapi.components.securitySchemes.oauth2.flows.authorizationCode;
    assert.equal(flow.authorizationUrl, as.authorization_endpoint);
    assert.equal(flow.tokenUrl, as.token_endpoint);
    assert.deepEqual(Object.keys(flow.scopes as Json).sort(), [...scopes()].sort());
    for (const [path, operations] of Object.entries(openapi.paths))
      for (const [method, operation] of Object.entries(operations))
        assert.ok(scopes().includes(String(operation['x-required-scope'])), `${method} ${path}`);
  });

  test('auth.md names every endpoint, scope and resource of the metadata, and links the other documents', () => {
    const text = docs['/auth.md'];
    for (const key of ENDPOINTS) assert.ok(text.includes(String(as[key])), `${key} ${as[key]}`);
    assert.ok(text.includes(String(json['/.well-known/openid-configuration'].userinfo_endpoint)), 'userinfo');
    for (const scope of scopes()) assert.ok(text.includes(`| \`${scope}\` |`), scope);
    for (const document of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp'])
      assert.ok(text.includes(String(json[document].resource)), `resource of ${document}`);
    for (const path of ['/openapi.json', '/llms.txt', '/pricing.md', '/mcp'])
      assert.ok(text.includes(`${server.config.BASE_URL}${path}`), path);
  });

  test('llms.txt starts agents at auth.md, openapi.json, the MCP resource and pricing.md', () => {
    const start = docs['/llms.txt'].split(/^## /m).find((s) => s.startsWith('Start here')) ?? '';
    for (const url of [
      `${server.config.BASE_URL}/auth.md`,
      `${server.config.BASE_URL}/openapi.json`,
      String(json['/.well-known/oauth-protected-resource/mcp'].resource),
      `${server.config.BASE_URL}/pricing.md`,
    ])
      assert.ok(start.includes(`](${url})`), url);
  });

  test("the challenges point at the resource metadata documents, and MCP tools' scopes are the metadata's", async () => {
    const api = await fetch(`${server.url}/api/v1/account`);
    assert.match(
      api.headers.get('www-authenticate') ?? '',
      new RegExp(`resource_metadata="${server.url}/\\.well-known/oauth-protected-resource"$`),
    );
    const mcp = await mcpPost(server.url, toolCall('createCourse', { title: 'x' }));
    assert.match(
      mcp.headers.get('www-authenticate') ?? '',
      new RegExp(`resource_metadata="${server.url}/\\.well-known/oauth-protected-resource/mcp"$`),
    );
    const listed = (await mcpPost(server.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).json().result as {
      tools: { name: string; _meta: Json }[];
    };
    for (const tool of listed.tools)
      assert.ok(scopes().includes(String(tool._meta['lyceum/scope'])), `${tool.name} ${tool._meta['lyceum/scope']}`);
  });
});

/** Facts more than one document states come from one place, so the documents cannot contradict each other. */
describe('the discovery documents state the same school facts', () => {
  let server: TestServer;
  const text = async (path: string) => (await fetch(`${server.url}${path}`)).text();
  before(async () => {
    server = await startTestServer('sqlite', { DOCS_CACHE_SECONDS: '0' });
    const { owner } = await schoolWithPeople(server);
    const staff = apiClient(server.url, await tokenFor(server, owner, 'school:write pages:write'));
    assert.equal((await staff.patch('/api/v1/school', { support_email: 'owner.private@example.test' })).status, 200);
    const page = await staff.post<{ id: string }>('/api/v1/pages', {
      title: 'Terms of use',
      slug: 'terms',
      draft_body: 'These terms apply.',
    });
    assert.equal(page.status, 201, JSON.stringify(page.body));
    assert.equal((await staff.post(`/api/v1/pages/${page.body.id}/publish`)).status, 200);
  });
  after(() => server.close());

  test('the terms: with no terms URL set, pricing.md and llms.txt both link the published Terms page', async () => {
    const terms = `${server.url}/p/terms`;
    const pricing = await text('/pricing.md');
    assert.ok(pricing.includes(`- [Terms, including refunds](${terms})`), pricing.split('## Terms')[1]);
    assert.ok(!pricing.includes('has not published its terms'));
    assert.ok((await text('/llms.txt')).includes(`- [Terms, including refunds](${terms})`));
  });

  test('the support address: hidden from anonymous callers by getSchool, and so by auth.md', async () => {
    const school = await apiClient(server.url).get<{ support_email: string | null }>('/api/v1/school');
    assert.equal(school.body.support_email, null);
    for (const path of ['/auth.md', '/llms.txt', '/pricing.md', '/llms-full.txt'])
      assert.ok(!(await text(path)).includes('owner.private@example.test'), path);
  });

  test('llms.txt links an index of every operation, one line each, matching /openapi.json', async () => {
    assert.ok((await text('/llms.txt')).includes(`](${server.url}/operations.txt)`));
    const index = (await text('/operations.txt')).split('\n');
    const openapi = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string; summary: string; 'x-required-scope': string }>>;
    };
    for (const [path, item] of Object.entries(openapi.paths))
      for (const [method, operation] of Object.entries(item)) {
        const line = index.find((l) => l.startsWith(`${operation.operationId} `));
        assert.ok(line, operation.operationId);
        assert.ok(
          line.startsWith(`${operation.operationId} ${method.toUpperCase()} ${path} ${operation['x-required-scope']}`),
          line,
        );
        assert.ok(line.endsWith(` — ${operation.summary}`), line);
      }
  });
});
