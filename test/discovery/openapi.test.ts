import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
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

type ShapedOperation = {
  parameters: { $ref?: string }[];
  responses: Record<string, unknown>;
  requestBody?: { content?: Record<string, { example?: unknown; schema?: unknown }> };
};
type ShapedDoc = {
  paths: Record<string, Record<string, ShapedOperation>>;
  components: { schemas: Record<string, unknown>; parameters: Record<string, { in: string }> };
};

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** The targets of issue 23, also written in docs/agents.md. */
const MAX_BYTES = 250_000;
const MAX_GZIP_BYTES = 40_000;

describe('/openapi.json fits an agent', () => {
  let server: TestServer;
  let text: string;
  let doc: ShapedDoc;
  before(async () => {
    server = await startTestServer('sqlite');
    text = await (await fetch(`${server.url}/openapi.json`)).text();
    doc = JSON.parse(text) as ShapedDoc;
  });
  after(() => server.close());

  test(`is at most ${MAX_BYTES} bytes, and ${MAX_GZIP_BYTES} gzipped`, () => {
    const bytes = Buffer.byteLength(text);
    const gzipped = gzipSync(text).length;
    assert.ok(bytes <= MAX_BYTES, `${bytes} bytes`);
    assert.ok(gzipped <= MAX_GZIP_BYTES, `${gzipped} bytes gzipped`);
  });

  test('shares the error object, money, list pages and each area object as components', () => {
    const schemas = doc.components.schemas;
    for (const name of ['Error', 'Money', 'ListPage', 'Course', 'Lesson', 'Order', 'Student', 'Event'])
      assert.ok(schemas[name], name);
    assert.ok(!text.includes('"def-'), 'no generated def-N names');
    assert.equal(text.split('"error_description":').length - 1, 1, 'the error object is written once');
    const create = doc.paths['/api/v1/courses']?.post;
    assert.deepEqual(create?.responses['201'], { $ref: '#/components/responses/CourseCreated' });
    assert.deepEqual(create?.responses['404'], { $ref: '#/components/responses/NotFound' });
  });

  test('no operation without body semantics takes a body (RFC 9110 §9.3.1)', () => {
    for (const [path, item] of Object.entries(doc.paths) as [string, Record<string, ShapedOperation | undefined>][])
      for (const method of ['get', 'delete', 'head'])
        assert.equal(item[method]?.requestBody, undefined, `${method} ${path}`);
    const exported = doc.paths['/api/v1/forms/{id}/submissions/export']?.get;
    assert.ok((exported?.parameters.length ?? 0) > 1, 'the export filters are query parameters');
  });

  test('every operation that creates or updates has an example body its schema accepts', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    // OpenAPI 3.0's `nullable` beside a reference, as JSON Schema says it.
    const nullable = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(nullable);
      if (typeof value !== 'object' || value === null) return value;
      const node = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, nullable(v)]));
      if (node.nullable !== true || 'type' in node) return node;
      const { nullable: _, ...rest } = node;
      return { anyOf: [rest, { type: 'null' }] };
    };
    ajv.addSchema(nullable({ components: doc.components }) as object, 'doc');
    const local = (schema: unknown) =>
      nullable(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')));
    const wrong: string[] = [];
    for (const [path, item] of Object.entries(doc.paths) as [string, Record<string, ShapedOperation | undefined>][])
      for (const method of ['post', 'put', 'patch']) {
        const media = item[method]?.requestBody?.content?.['application/json'];
        if (!media) continue;
        assert.notEqual(media.example, undefined, `${method} ${path} has an example`);
        const validate = ajv.compile(local(media.schema) as object);
        if (!validate(media.example)) wrong.push(`${method} ${path}: ${JSON.stringify(validate.errors)}`);
      }
    assert.deepEqual(wrong, []);
  });

  test('creating operations that take an Idempotency-Key say so', () => {
    const keyed = server.routes.filter((r) => r.config.idempotent);
    assert.ok(keyed.length > 0);
    for (const route of keyed) {
      const operation = doc.paths[route.url.replace(/:(\w+)/g, '{$1}')]?.[String(route.method).toLowerCase()];
      assert.ok(
        operation?.parameters.some((p: { $ref?: string }) => p.$ref === '#/components/parameters/IdempotencyKey'),
        route.url,
      );
    }
    assert.equal(doc.components.parameters.IdempotencyKey?.in, 'header');
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
