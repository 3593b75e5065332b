import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { sendWithSession, type Target } from '../../src/cli/api-request.ts';
import { fileStore } from '../../src/cli/credentials.ts';
import type { Profile } from '../../src/cli/profiles.ts';
import { openSession } from '../../src/cli/session.ts';

/** An HTTP server on its own port (so its own origin) that answers 200 and keeps the headers it was sent. */
async function recorder() {
  const seen: IncomingHttpHeaders[] = [];
  const server: Server = createServer((request, response) => {
    seen.push(request.headers);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, seen, close: () => server.close() };
}

let school: Awaited<ReturnType<typeof recorder>>;
let elsewhere: Awaited<ReturnType<typeof recorder>>;
before(async () => {
  school = await recorder();
  elsewhere = await recorder();
});
after(() => {
  school.close();
  elsewhere.close();
});

test('the bearer token goes to the school’s origin only, not to a URL it names elsewhere', async () => {
  const env = { HOME: mkdtempSync(join(tmpdir(), 'lyceum-cli-origin-')) };
  await fileStore(env).set('p', { access_token: 'the-secret', expires_at: Date.now() + 3_600_000, scope: '' });
  const profile: Profile = {
    base_url: school.url,
    client_id: 'cli',
    scope: '',
    user: { sub: 'u' },
    endpoints: { token: `${school.url}/token` },
    token_store: 'file',
  };
  const session = await openSession(env, 'p', profile, () => Date.now());
  const target: Target = { baseUrl: school.url, profileName: 'p', session };
  await sendWithSession(target, `${school.url}/api/v1/jobs/1`, () => ({}));
  await sendWithSession(target, `${elsewhere.url}/api/v1/jobs/1`, () => ({}));
  await sendWithSession(target, `${school.url.replace('127.0.0.1', 'localhost')}/upload`, () => ({}));
  assert.equal(school.seen[0]?.authorization, 'Bearer the-secret');
  assert.equal(elsewhere.seen[0]?.authorization, undefined);
  assert.equal(school.seen[1]?.authorization, undefined, 'another host name is another origin');
});
