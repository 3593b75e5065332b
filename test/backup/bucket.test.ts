import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { makeBackup } from '../../src/backup/backup.ts';
import type { Manifest } from '../../src/backup/manifest.ts';
import { openBackupPlace } from '../../src/backup/open-place.ts';
import { restoreBackup } from '../../src/backup/restore.ts';
import { loadConfig } from '../../src/config.ts';
import { systemClock } from '../../src/time/clock.ts';
import { apiClient, tokenFor } from '../support/api.ts';
import { engines, freshDatabaseUrl } from '../support/databases.ts';
import { png } from '../support/files.ts';
import { runScript } from '../support/process.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { uploadAsset } from '../support/storage.ts';
import { completeSetup, OWNER } from '../support/web-client.ts';
import { startBuckets } from './buckets.ts';
import { elsewhere } from './elsewhere.ts';

/** `npm run backup` or `npm run restore` as a process: its exit code and what it printed. */
const command = (name: 'backup' | 'restore', where: string, env: Record<string, string>) =>
  runScript('src/backup/main.ts', [name, where], env);

for (const engine of engines) {
  describe(`backups in an S3 bucket (${engine})`, () => {
    const closing: (() => Promise<void>)[] = [];
    after(async () => {
      for (const close of closing.reverse()) await close();
    });

    test('a school whose files are in a bucket is backed up to s3://… with its files, and restored from there into an empty school', async () => {
      const buckets = await startBuckets('media', 'backups', 'restored');
      closing.push(buckets.close);
      const source: TestServer = await startTestServer(engine, buckets.env);
      closing.push(source.close);
      await completeSetup(source.url, source.setupUrl ?? '');
      const token = await tokenFor(source, OWNER, 'courses:read courses:write storage:write');
      const picture = png(48);
      const asset = await uploadAsset(
        source,
        token,
        { purpose: 'image', filename: 'cover.png', content_type: 'image/png' },
        picture,
      );
      const course = await apiClient(source.url, token).post<{ id: string }>('/api/v1/courses', { title: 'Kept' });
      assert.equal(course.status, 201);

      const where = 's3://backups/nightly/first';
      const made = await command('backup', where, { DATABASE_URL: source.databaseUrl, ...buckets.env });
      assert.equal(made.code, 0, made.out);
      assert.match(made.out, /and \d+ files into s3:\/\/backups\/nightly\/first/);
      const keys = await buckets.keys('backups', 'nightly/first/');
      const database = `nightly/first/database.${engine === 'sqlite' ? 'sqlite' : 'pgdump'}`;
      assert.ok(keys.includes(database), keys.join(' '));
      assert.ok(keys.includes('nightly/first/manifest.json'));
      // The upload itself (image variants the storage may have made of it by then are copied along).
      const copied = keys.filter(
        (key) => key.startsWith(`nightly/first/files/assets/${asset.id}/`) && !key.includes('/variants/'),
      );
      assert.equal(copied.length, 1, "the bucket's file is copied under the backup's prefix");
      assert.deepEqual((await buckets.get('backups', copied[0] ?? '')).bytes, picture);
      const manifest = JSON.parse(
        (await buckets.get('backups', 'nightly/first/manifest.json')).bytes.toString(),
      ) as Manifest;
      assert.deepEqual(manifest.storage, { kind: 's3', bucket: 'media' });
      assert.equal(manifest.files.find((f) => `nightly/first/${f.path}` === copied[0])?.content_type, 'image/png');

      const again = await command('backup', where, { DATABASE_URL: source.databaseUrl, ...buckets.env });
      assert.equal(again.code, 2, again.out);
      assert.match(again.out, /lyceum: s3:\/\/backups\/nightly\/first already holds a backup: give a new prefix\./);

      // Restored into another database, its files into another bucket.
      const target = await elsewhere(engine, source.databaseUrl);
      closing.push(target.drop);
      const restoredEnv = { DATABASE_URL: target.url, ...buckets.env, S3_BUCKET: 'restored' };
      const restored = await command('restore', where, restoredEnv);
      assert.equal(restored.code, 0, restored.out);
      const file = await buckets.get('restored', copied[0]?.slice('nightly/first/files/'.length) ?? '');
      assert.deepEqual(file.bytes, picture, 'the file is byte-identical in the restored school');
      assert.equal(file.contentType, 'image/png');
      const twice = await command('restore', where, restoredEnv);
      assert.equal(twice.code, 2, twice.out);
      assert.match(
        twice.out,
        /lyceum: The bucket restored already holds assets\/.+: a backup is restored into an empty school only\./,
      );

      const school = await startTestServer(
        engine,
        { ...restoredEnv, BASE_URL: source.url },
        { databaseUrl: target.url },
      );
      closing.push(school.close);
      const there = apiClient(`http://127.0.0.1:${school.config.PORT}`, token);
      assert.equal((await there.get(`/api/v1/courses/${course.body.id}`)).status, 200, 'the restored school serves');
      const served = await there.get<{ url: string }>(`/api/v1/storage/assets/${asset.id}`);
      const bytes = await fetch(served.body.url.replace(source.url, `http://127.0.0.1:${school.config.PORT}`));
      assert.deepEqual(Buffer.from(await bytes.arrayBuffer()), picture, 'and serves the file from its bucket');
    });
  });
}

describe('backups in an S3 bucket: what is refused', () => {
  const closing: (() => Promise<void>)[] = [];
  after(async () => {
    for (const close of closing.reverse()) await close();
  });

  test('files sent in parts come back whole; a tampered object, a cut-off upload and a used prefix are refused', async () => {
    const buckets = await startBuckets('backups');
    closing.push(buckets.close);
    // A school whose files are on disk, backed up to a bucket with its S3 settings (no S3_BUCKET of its own).
    const storage = mkdtempSync(join(tmpdir(), 'lyceum-files-'));
    const source = await startTestServer('sqlite', { STORAGE_DIR: storage, ...buckets.connection });
    closing.push(source.close);
    const large = Buffer.alloc(200_000);
    for (let i = 0; i < large.length; i++) large[i] = (i * 31 + (i >> 9)) & 0xff;
    mkdirSync(join(storage, 'assets', 'ast_large'), { recursive: true });
    writeFileSync(join(storage, 'assets', 'ast_large', 'bytes'), large);

    // Parts of 32 KiB above 64 KiB: the file and the database both go up in parts.
    const place = await openBackupPlace(source.config, 's3://backups/parts', { singleMax: 65_536, partBytes: 32_768 });
    const manifest = await makeBackup(source.config, place, { clock: systemClock, version: 'test' }).finally(() =>
      place.close(),
    );
    assert.ok(
      manifest.files.every((f) => f.bytes > 65_536),
      'every file is larger than one request takes',
    );
    const restoredFiles = mkdtempSync(join(tmpdir(), 'lyceum-files-'));
    const restoredEnv = {
      DATABASE_URL: await freshDatabaseUrl('sqlite'),
      STORAGE_DIR: restoredFiles,
      ...buckets.connection,
    };
    await restoreBackup(loadConfig(restoredEnv), 's3://backups/parts');
    assert.deepEqual(readFileSync(join(restoredFiles, 'assets', 'ast_large', 'bytes')), large);

    const school = { DATABASE_URL: source.databaseUrl, STORAGE_DIR: storage, ...buckets.connection };
    const used = await command('backup', 's3://backups/parts', school);
    assert.equal(used.code, 2, used.out);
    assert.match(used.out, /already holds a backup/);

    // Nothing is written into the empty school when a restore is refused.
    const empty = () => ({
      DATABASE_URL: join(mkdtempSync(join(tmpdir(), 'lyceum-test-')), 'lyceum.sqlite'),
      STORAGE_DIR: mkdtempSync(join(tmpdir(), 'lyceum-files-')),
      ...buckets.connection,
    });
    const untouched = (env: Record<string, string>) => {
      assert.equal(existsSync(env.DATABASE_URL ?? ''), false, 'no database was written');
      assert.deepEqual(readdirSync(env.STORAGE_DIR ?? ''), [], 'no file was written');
    };

    // An upload cut off before its manifest: every other object is there.
    const keys = await buckets.keys('backups', 'parts/');
    for (const key of keys.filter((k) => !k.endsWith('manifest.json')))
      await buckets.copy('backups', key, key.replace(/^parts\//, 'cut/'));
    const cutEnv = empty();
    const cut = await command('restore', 's3://backups/cut', cutEnv);
    assert.equal(cut.code, 2, cut.out);
    assert.match(
      cut.out,
      /lyceum: s3:\/\/backups\/cut has no manifest\.json: it is not a backup, or one that was cut off\./,
    );
    untouched(cutEnv);
    const intoCut = await command('backup', 's3://backups/cut', school);
    assert.equal(intoCut.code, 2, intoCut.out);
    assert.match(intoCut.out, /s3:\/\/backups\/cut is not empty/);

    // A tampered object: the same size, one byte changed.
    const tampered = Buffer.from(large);
    tampered[100_000] = (tampered[100_000] ?? 0) ^ 0xff;
    await buckets.put('backups', 'parts/files/assets/ast_large/bytes', tampered);
    const tamperedEnv = empty();
    const refused = await command('restore', 's3://backups/parts', tamperedEnv);
    assert.equal(refused.code, 2, refused.out);
    assert.match(
      refused.out,
      /lyceum: The backup is damaged: files\/assets\/ast_large\/bytes is not what was backed up\./,
    );
    untouched(tamperedEnv);

    const malformed = await command('backup', 's3://Not_A_Bucket/x', school);
    assert.equal(malformed.code, 2, malformed.out);
    assert.match(
      malformed.out,
      /s3:\/\/Not_A_Bucket\/x is not an S3 address Lyceum can use: expected s3:\/\/bucket\/prefix/,
    );
  });
});
