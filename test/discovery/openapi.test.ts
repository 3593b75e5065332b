import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { SCOPES } from '../../src/security/scopes.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

type Operation = { operationId: string; security: Record<string, string[]>[] };
type OpenApi = {
  openapi: string;
  servers: { url: string }[];
  components: {
    securitySchemes: {
      oauth2: {
        flows: { authorizationCode: { authorizationUrl: string; tokenUrl: string; scopes: Record<string, string> } };
      };
    };
  };
  paths: Record<string, Record<string, Operation>>;
};

describe('/openapi.json', () => {
  let server: TestServer;
  let doc: OpenApi;
  before(async () => {
    server = await startTestServer('sqlite');
    doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as OpenApi;
  });
  after(() => server.close());

  test('is a valid OpenAPI 3.0 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2)?.slice(0, 2000));
    assert.match(String(doc.openapi), /^3\.0\./);
    assert.equal(doc.servers[0].url, server.config.BASE_URL);
  });

  test('has the oauth2 authorization-code scheme of this origin, with every scope described', () => {
    const flow = doc.components.securitySchemes.oauth2.flows.authorizationCode;
    assert.equal(flow.authorizationUrl, `${server.config.BASE_URL}/oauth/authorize`);
    assert.equal(flow.tokenUrl, `${server.config.BASE_URL}/api/oauth/token`);
    assert.deepEqual(Object.keys(flow.scopes).sort(), Object.keys(SCOPES).sort());
    for (const [scope, description] of Object.entries(flow.scopes))
      assert.equal(description, SCOPES[scope as keyof typeof SCOPES].description);
  });

  test('lists every API route the app registered, with its operationId and required scope — and nothing else', () => {
    const documented = new Map<string, Operation>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item))
        documented.set(`${method.toUpperCase()} ${path}`, operation);
    }
    const live = server.routes.filter((r) => r.url.startsWith('/api/v1') && r.method !== 'HEAD');
    for (const route of live) {
      const key = `${route.method} ${route.url.replace(/:(\w+)/g, '{$1}')}`;
      const operation = documented.get(key);
      assert.ok(operation, `${key} is documented`);
      assert.equal(operation.operationId, route.schema?.operationId, key);
      assert.deepEqual(operation.security[0], { oauth2: [route.config.scope] }, key);
      assert.equal(operation.security.length, route.config.anonymous ? 2 : 1, `${key}: anonymous alternative`);
    }
    assert.equal(documented.size, live.length, 'no other paths are documented');
  });
});

describe('/openapi.json caching and raw uploads', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite');
  });
  after(() => server.close());

  test('carries a strong ETag and answers 304 to If-None-Match with it (clients revalidate their copy)', async () => {
    const first = await fetch(`${server.url}/openapi.json`);
    const etag = first.headers.get('etag') ?? '';
    assert.match(etag, /^"[\w-]{32}"$/);
    await first.arrayBuffer();
    const again = await fetch(`${server.url}/openapi.json`, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    const other = await fetch(`${server.url}/openapi.json`, { headers: { 'if-none-match': '"something-else"' } });
    assert.equal(other.status, 200);
    assert.equal(other.headers.get('etag'), etag);
  });

  test('says that the upload route takes the raw bytes (application/octet-stream)', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>>;
    };
    const put = doc.paths['/api/v1/storage/assets/{id}/content']?.put;
    assert.deepEqual(Object.keys(put?.requestBody?.content ?? {}), ['application/octet-stream']);
  });
});
