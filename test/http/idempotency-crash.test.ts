import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiClient, listAll } from '../support/api.ts';
import { engines, freshDatabaseUrl } from '../support/databases.ts';
import { authorizeThroughForms, authorizeUrl, pkce, registerClient, tokenRequest } from '../support/oauth.ts';
import { type ServerProcess, startMain } from '../support/process.ts';
import { freePort } from '../support/server.ts';
import { completeSetup, OWNER, WebClient } from '../support/web-client.ts';

const ROUNDS = 8;
const REQUESTS = 6;

/** A staff token for the owner, obtained the way any app would: register, authorize through the forms, exchange. */
async function ownerToken(base: string): Promise<string> {
  const client = await registerClient(base, 47011);
  const { verifier, challenge } = pkce();
  const redirect = 'http://127.0.0.1:47011/callback';
  const url = authorizeUrl(base, {
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirect,
    scope: 'courses:read courses:write',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const { location } = await authorizeThroughForms(new WebClient(base), url, OWNER);
  const code = location.searchParams.get('code') ?? '';
  const response = await tokenRequest(base, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirect,
    client_id: client.client_id,
    code_verifier: verifier,
  });
  return String(response.body.access_token);
}

for (const engine of engines) {
  describe(`Idempotency-Key across a killed server (${engine})`, () => {
    test('kill -9 in the middle of creates: every retry replays the first result or creates exactly once', async (t) => {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const env = {
        PORT: String(port),
        BASE_URL: base,
        DATABASE_URL: await freshDatabaseUrl(engine),
        LOG_LEVEL: 'info',
      };
      const listening = (line: string) => line.includes('Server listening');
      let server: ServerProcess = await startMain(env, (line) => line.includes('setup_url'));
      t.after(() => server.child.kill('SIGKILL'));
      const setupUrl = /"setup_url":"([^"]+)"/.exec(server.lines.join('\n'))?.[1] ?? '';
      await completeSetup(base, setupUrl);
      const api = apiClient(base, await ownerToken(base));

      let interrupted = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const create = (i: number) =>
          api.post('/api/v1/courses', { title: `Crash ${round}-${i}` }, { 'idempotency-key': `crash-${round}-${i}` });
        const inFlight = Array.from({ length: REQUESTS }, (_, i) => create(i).catch(() => undefined));
        // Kill at a different moment each round, while the creates are being written.
        await new Promise((resolve) => setTimeout(resolve, 2 + round * 3));
        server.child.kill('SIGKILL');
        const answered = await Promise.all(inFlight);
        interrupted += answered.filter((r) => r === undefined).length;
        await server.exited;
        server = await startMain(env, listening);
        for (let i = 0; i < REQUESTS; i++) {
          const retry = await create(i);
          assert.equal(retry.status, 201, `round ${round}, request ${i}: ${JSON.stringify(retry.body)}`);
        }
      }
      assert.ok(interrupted > 0, 'some requests were cut off by the kill');
      const courses = await listAll<{ id: string; title: string }>(api, '/api/v1/courses?q=Crash');
      const titles = courses.map((c) => c.title).sort();
      const expected = Array.from({ length: ROUNDS }, (_, r) =>
        Array.from({ length: REQUESTS }, (_, i) => `Crash ${r}-${i}`),
      )
        .flat()
        .sort();
      assert.deepEqual(titles, expected, 'each key created its course exactly once');
    });
  });
}
