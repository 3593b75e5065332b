import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { authMarkdown } from '../../src/discovery/auth-md.ts';
import { ALL_SCOPES } from '../../src/security/scopes.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const DOCS_URL = 'https://docs.lyceum.example/integrations';

/** The text of one `## ` section, up to the next. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  assert.notEqual(start, -1, `has a "${heading}" section`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end === -1 ? undefined : end);
}

describe('/auth.md', () => {
  let server: TestServer;
  let text: string;
  before(async () => {
    server = await startTestServer('sqlite', { DOCS_URL });
    const response = await fetch(`${server.url}/auth.md`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/markdown/);
    text = await response.text();
  });
  after(() => server.close());

  test('is written for this origin and names every endpoint of the live discovery document and every scope', async () => {
    const discovery = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    for (const key of [
      'authorization_endpoint',
      'token_endpoint',
      'registration_endpoint',
      'revocation_endpoint',
      'introspection_endpoint',
      'userinfo_endpoint',
      'jwks_uri',
    ]) {
      assert.ok(text.includes(String(discovery[key])), `${key} ${discovery[key]}`);
    }
    for (const scope of ALL_SCOPES) assert.ok(text.includes(`| \`${scope}\` |`), scope);
    assert.ok(text.includes(`expires_in\` (3600 s)`));
  });

  test('links the machine-readable documents, the MCP endpoint and DOCS_URL before the flow', () => {
    const base = server.config.BASE_URL;
    const next = section(text, 'Where to go next');
    assert.ok(text.indexOf(next) < text.indexOf('\n## The flow'), 'near the top');
    for (const link of [`${base}/openapi.json`, `${base}/llms.txt`, `${base}/pricing.md`, `${base}/mcp`, DOCS_URL]) {
      assert.match(next, new RegExp(`\\| ${link.replaceAll('.', '\\.')} \\|`), link);
    }
  });

  test('has an MCP section: transport, anonymous tools, the 401 challenge, step-up, resources, tool names', () => {
    const base = server.config.BASE_URL;
    const mcp = section(text, 'MCP');
    assert.match(mcp, new RegExp(`Streamable HTTP at \`${base}/mcp\``));
    assert.match(mcp, /Anonymous callers \(no token\) can list the tools and call the catalog tools/);
    assert.match(mcp, /callOperation/);
    assert.ok(
      mcp.includes(
        `HTTP 401 with\n  \`WWW-Authenticate: Bearer scope="<scopes>", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"\``,
      ),
      mcp,
    );
    assert.match(mcp, /MCP clients follow it to this authorization server by themselves/);
    assert.match(mcp, /403 `insufficient_scope` with `error="insufficient_scope"`/);
    assert.match(mcp, /\(step-up\)/);
    assert.match(mcp, /carries no step-up challenge/);
    assert.match(mcp, /tool results with `isError: true`/);
    assert.ok(mcp.includes(`\`resource=${base}/mcp\` (or \`${base}\`) are accepted there`));
    assert.match(mcp, /by its OpenAPI `operationId`/);
  });

  test('says where to ask for a registered integration, and what other grants get', () => {
    assert.ok(text.includes(`needs a registered integration; ask for one at ${DOCS_URL}.`));
    const errors = section(text, 'Errors');
    assert.match(
      errors,
      /Any other `grant_type` \(`client_credentials`,\n`password`, token exchange, JWT bearer \/ ID-JAG\) is 400 `unsupported_grant_type`/,
    );
    assert.ok(errors.includes(`at the authorization endpoint, ${server.config.BASE_URL}/oauth/authorize.`));
  });

  test('with DOCS_URL unset it is this page, which names the school to ask instead (never its private address)', () => {
    const config = loadConfig({ BASE_URL: 'https://school.example' });
    const markdown = authMarkdown(config, { name: 'Harbour School' });
    assert.ok(markdown.includes('| https://school.example/auth.md (this page) |'));
    assert.ok(markdown.includes('needs a registered integration; ask the school for one (https://school.example/).'));
  });
});
