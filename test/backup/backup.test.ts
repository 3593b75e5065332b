import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { makeBackup } from '../../src/backup/backup.ts';
import { restoreBackup } from '../../src/backup/restore.ts';
import { loadConfig } from '../../src/config.ts';
import { systemClock } from '../../src/time/clock.ts';
import { apiClient, tokenFor } from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { png } from '../support/files.ts';
import { runScript } from '../support/process.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { completeSetup, OWNER, WebClient } from '../support/web-client.ts';
import { elsewhere } from './elsewhere.ts';

/** `npm run restore` as a process: its exit code and what it printed. */
const restoreCommand = (folder: string, env: Record<string, string>) =>
  runScript('src/backup/main.ts', ['restore', folder], env);

for (const engine of engines) {
  describe(`backup and restore drill (${engine})`, () => {
    const servers: TestServer[] = [];
    const cleanups: (() => Promise<void>)[] = [];
    after(async () => {
      for (const server of servers) await server.close();
      for (const cleanup of cleanups) await cleanup();
    });

    test('a backup made under steady writes restores elsewhere: every acknowledged write, the files, the sessions and tokens', async () => {
      const storage = mkdtempSync(join(tmpdir(), 'lyceum-files-'));
      const source = await startTestServer(engine, { STORAGE_DIR: storage });
      servers.push(source);
      const owner = await completeSetup(source.url, source.setupUrl ?? '');
      const token = await tokenFor(source, OWNER, 'courses:read courses:write storage:write');
      const api = apiClient(source.url, token);

      const picture = png(24);
      const asset = (
        await api.post<{ id: string; upload_url: string }>('/api/v1/storage/assets', {
          purpose: 'image',
          filename: 'cover.png',
          content_type: 'image/png',
          byte_size: picture.length,
        })
      ).body;
      const put = await fetch(asset.upload_url, {
        method: 'PUT',
        body: picture,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'image/png' },
      });
      assert.equal(put.status, 200, await put.text());

      // Four writers keep creating courses through the API until told to stop; each acknowledged one is noted.
      const acknowledged: string[] = [];
      let writing = true;
      const writers = Array.from({ length: 4 }, async (_, w) => {
        for (let i = 0; writing; i++) {
          const made = await api.post<{ id: string }>('/api/v1/courses', { title: `Course ${w}-${i}` });
          if (made.status !== 201) throw new Error(`a write was refused: ${made.status} ${JSON.stringify(made.body)}`);
          acknowledged.push(made.body.id);
        }
      });
      const failed = Promise.race(writers).then(() => undefined);
      while (acknowledged.length < 20) await Promise.race([failed, new Promise((resolve) => setTimeout(resolve, 20))]);
      const beforeBackup = [...acknowledged];
      const folder = join(mkdtempSync(join(tmpdir(), 'lyceum-backup-')), 'backup');
      const started = performance.now();
      const manifest = await makeBackup(source.config, folder, { clock: systemClock, version: 'test' });
      const took = performance.now() - started;
      const duringBackup = acknowledged.length - beforeBackup.length;
      writing = false;
      await Promise.all(writers);
      console.log(
        `restore drill (${engine}): backup in ${took.toFixed(0)} ms under 4 writers; ${beforeBackup.length} writes acknowledged before it began, ${duringBackup} during it`,
      );
      assert.deepEqual(manifest.secrets.sort(), [
        'address_key',
        'cookie_key',
        'media_url_key',
        'oidc_cookie_key',
        'oidc_signing_keys',
      ]);
      assert.ok(manifest.files.some((f) => f.path === `database.${engine === 'sqlite' ? 'sqlite' : 'pgdump'}`));
      // The upload, and whatever the storage made of it (image variants) by then.
      assert.ok(
        manifest.files.some((f) => f.path.startsWith(`files/assets/${asset.id}/`) && !f.path.includes('/variants/')),
        'the uploaded file',
      );

      const target = await elsewhere(engine, source.databaseUrl);
      cleanups.push(target.drop);
      const restoredStorage = mkdtempSync(join(tmpdir(), 'lyceum-files-'));
      const env = { DATABASE_URL: target.url, STORAGE_DIR: restoredStorage };
      await restoreBackup(loadConfig(env), folder);

      const again = await restoreCommand(folder, env);
      assert.equal(again.code, 2, again.out);
      assert.match(again.out, /lyceum: .*files.* is not empty: a backup is restored into an empty school only\./);
      const intoFullDatabase = await restoreCommand(folder, {
        ...env,
        STORAGE_DIR: mkdtempSync(join(tmpdir(), 'lyceum-files-')),
      });
      assert.equal(intoFullDatabase.code, 2, intoFullDatabase.out);
      assert.match(
        intoFullDatabase.out,
        /lyceum: The (database|schema) .* is not empty: a backup is restored into an empty school only\./,
      );

      // The restored school keeps the first one's address (BASE_URL), to which its tokens are bound.
      const restored = await startTestServer(
        engine,
        { STORAGE_DIR: restoredStorage, BASE_URL: source.url },
        { databaseUrl: target.url },
      );
      const restoredUrl = `http://127.0.0.1:${restored.config.PORT}`;
      servers.push(restored);
      const there = apiClient(restoredUrl, token);
      const missing: string[] = [];
      for (const id of beforeBackup) if ((await there.get(`/api/v1/courses/${id}`)).status !== 200) missing.push(id);
      assert.deepEqual(missing, [], 'every write acknowledged before the backup began is there');
      const file = await there.get<{ url: string }>(`/api/v1/storage/assets/${asset.id}`);
      assert.equal(file.status, 200, 'the token made before the backup still verifies');
      const bytes = Buffer.from(await (await fetch(file.body.url.replace(source.url, restoredUrl))).arrayBuffer());
      assert.deepEqual(bytes, picture, 'the file is byte-identical');
      const moved = new WebClient(restoredUrl);
      for (const [name, value] of owner.cookies) moved.cookies.set(name, value);
      assert.equal((await moved.get('/admin')).status, 200, "the owner's session goes on");

      // A damaged backup is refused before anything is written.
      const damaged = manifest.files.find((f) => f.path.startsWith('files/'))?.path ?? '';
      writeFileSync(join(folder, damaged), Buffer.concat([readFileSync(join(folder, damaged)), Buffer.from('x')]));
      const emptySchool = await elsewhere(engine, source.databaseUrl);
      cleanups.push(emptySchool.drop);
      const refused = await restoreCommand(folder, {
        DATABASE_URL: emptySchool.url,
        STORAGE_DIR: mkdtempSync(join(tmpdir(), 'lyceum-files-')),
      });
      assert.equal(refused.code, 2, refused.out);
      assert.match(refused.out, new RegExp(`The backup is damaged: ${damaged} is not what was backed up\\.`));
    });
  });
}
