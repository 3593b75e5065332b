import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkEndpoints, type ServerMetadata } from '../../src/cli/oauth-client.ts';

const metadata = (endpoint: (name: string) => string): ServerMetadata => ({
  issuer: 'x',
  authorization_endpoint: endpoint('auth'),
  token_endpoint: endpoint('token'),
  registration_endpoint: endpoint('reg'),
  revocation_endpoint: endpoint('revoke'),
});

test('metadata endpoints must be https: (http: on a loopback host, or for a school that is itself http:)', () => {
  checkEndpoints(
    'https://school.example',
    metadata((n) => `https://school.example/oauth/${n}`),
  );
  checkEndpoints(
    'https://school.example',
    metadata((n) => `http://127.0.0.1:4000/${n}`),
  );
  checkEndpoints(
    'http://school.test',
    metadata((n) => `http://school.test/${n}`),
  );
  checkEndpoints('https://school.example', {
    ...metadata((n) => `https://school.example/${n}`),
    revocation_endpoint: undefined,
  });
  for (const [field, value] of [
    ['token_endpoint', 'http://evil.example/token'],
    ['revocation_endpoint', 'http://school.example/revoke'],
    ['registration_endpoint', 'javascript:alert(1)'],
    ['authorization_endpoint', 'not a url'],
  ] as const)
    assert.throws(
      () =>
        checkEndpoints('https://school.example', { ...metadata((n) => `https://school.example/${n}`), [field]: value }),
      (error: Error) => {
        assert.equal(
          error.message,
          `The authorization server of https://school.example names ${field} ${JSON.stringify(value)}, which is not an https: address; refusing to sign in there.`,
        );
        return true;
      },
    );
});
