import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { securityHeaders } from '../../src/http/security-headers.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

describe('security headers, worked out once by helmet', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite');
  });
  after(() => server.close());

  test('every response carries them, API, page and error alike', async () => {
    for (const path of ['/healthz', '/api/v1/courses', '/signin', '/no-such-page']) {
      const response = await fetch(`${server.url}${path}`);
      assert.equal(
        response.headers.get('content-security-policy'),
        "default-src 'self';base-uri 'none';form-action 'self';frame-ancestors 'none';img-src 'self' data: https:;media-src 'self' https:;frame-src 'self' https:;object-src 'none';script-src 'self';style-src 'self'",
        path,
      );
      assert.equal(response.headers.get('x-frame-options'), 'DENY', path);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff', path);
      assert.equal(response.headers.get('referrer-policy'), 'no-referrer', path);
      assert.equal(response.headers.get('cross-origin-resource-policy'), 'same-origin', path);
      assert.equal(response.headers.get('strict-transport-security'), null, 'no HSTS over http');
    }
  });

  test("helmet's own options decide them: https adds HSTS and upgrade-insecure-requests", () => {
    const headers = securityHeaders({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: { defaultSrc: ["'self'"], upgradeInsecureRequests: [] },
      },
      strictTransportSecurity: { maxAge: 31536000, includeSubDomains: false },
    });
    assert.equal(headers['strict-transport-security'], 'max-age=31536000');
    assert.equal(headers['content-security-policy'], "default-src 'self';upgrade-insecure-requests");
    assert.equal(securityHeaders({ xFrameOptions: false })['x-frame-options'], undefined);
  });
});
