import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliUser } from '../test/cli/run-cli.ts';
import { apiClient } from '../test/support/api.ts';
import { completeSetup, OWNER } from '../test/support/web-client.ts';
import type { SpawnedServer } from './support.ts';

/**
 * A school with 20 draft courses and its owner signed in with `lyceum login` (Chromium through the test opener);
 * returns the owner's home folder and the environment the CLI runs with.
 */
export async function schoolWithPeopleOver(server: SpawnedServer) {
  await completeSetup(server.url, server.setupUrl ?? '');
  const owner = cliUser(OWNER);
  const login = await owner.run(['login', server.url, '--scope', 'courses:write']);
  if (login.code !== 0) throw new Error(`login failed: ${login.stderr}`);
  const stored = JSON.parse(readFileSync(join(owner.home, '.config/lyceum/credentials.json'), 'utf8'));
  const api = apiClient(server.url, stored[new URL(server.url).host].access_token);
  for (let i = 0; i < 20; i++) await api.post('/api/v1/courses', { title: `Bench course ${i + 1}` });
  return { home: owner.home, env: owner.env as NodeJS.ProcessEnv };
}
