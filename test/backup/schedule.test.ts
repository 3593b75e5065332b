import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { startTestServer } from '../support/server.ts';
import { startBuckets } from './buckets.ts';

describe('scheduled backups, as a durable job', () => {
  const closing: (() => Promise<void>)[] = [];
  after(async () => {
    for (const close of closing.reverse()) await close();
  });

  test('one every BACKUP_EVERY_HOURS on the clock, the newest BACKUP_KEEP kept; a second chain collapses into one', async () => {
    const base = Date.now();
    let skew = 0;
    const clock = { now: () => new Date(base + skew) };
    const dir = mkdtempSync(join(tmpdir(), 'lyceum-backups-'));
    const server = await startTestServer(
      'sqlite',
      { BACKUP_DIR: dir, BACKUP_EVERY_HOURS: '24', BACKUP_KEEP: '2' },
      { clock },
    );
    closing.push(server.close);
    const { db } = server.database;
    const queued = () =>
      db
        .selectFrom('jobs')
        .select(['payload', 'run_at'])
        .where('kind', '=', 'backup.scheduled')
        .where('status', '=', 'queued')
        .execute();
    assert.equal((await queued()).length, 1, 'the first is queued at the start');
    assert.equal(await server.services.jobs.runDue(), 0, 'and not due yet');

    const made: string[] = [];
    for (let day = 1; day <= 3; day++) {
      skew = day * 24 * 3_600_000 + 1_000;
      if (day === 2) {
        // Another instance queued the same backup: it finds the folder made and queues nothing.
        const [first] = await queued();
        await server.services.jobs.enqueue(db, 'backup.scheduled', JSON.parse(first?.payload ?? '{}'), {
          runAt: new Date(first?.run_at ?? 0),
        });
      }
      await server.services.jobs.runDue();
      made.push(...readdirSync(dir).filter((n) => !made.includes(n)));
      assert.equal((await queued()).length, 1, `day ${day}: exactly one next backup queued`);
    }
    assert.equal(made.length, 3);
    assert.match(made[0] ?? '', /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z$/);
    assert.deepEqual(readdirSync(dir).sort(), made.slice(1).sort(), 'the two newest are kept');
    for (const name of made.slice(1)) assert.ok(existsSync(join(dir, name, 'manifest.json')));
  });

  test('a backup that fails its last try still queues the next: one bad night does not end the schedule', async () => {
    const base = Date.now();
    let skew = 0;
    const clock = { now: () => new Date(base + skew) };
    // A folder that cannot be made: BACKUP_DIR lies under a file.
    const file = join(mkdtempSync(join(tmpdir(), 'lyceum-backups-')), 'a-file');
    writeFileSync(file, '');
    const server = await startTestServer('sqlite', { BACKUP_DIR: join(file, 'backups') }, { clock });
    closing.push(server.close);
    const { db } = server.database;
    const jobs = () =>
      db
        .selectFrom('jobs')
        .select(['status', 'attempts', 'payload'])
        .where('kind', '=', 'backup.scheduled')
        .orderBy('run_at')
        .execute();
    skew = 24 * 3_600_000 + 1_000;
    for (let attempt = 1; attempt <= 5; attempt++) {
      await server.services.jobs.runDue();
      const [first, next] = await jobs();
      assert.equal(first?.attempts, attempt);
      if (attempt < 5) {
        assert.equal(first?.status, 'queued', `try ${attempt} failed and will be retried`);
        assert.equal(next, undefined, 'no next backup while this one may still succeed');
      }
      skew += 3_600_000;
    }
    const [failed, next] = await jobs();
    assert.equal(failed?.status, 'failed');
    assert.equal(next?.status, 'queued', 'the next backup is queued all the same');
    const due = (payload: string | undefined) => Date.parse((JSON.parse(payload ?? '{}') as { due: string }).due);
    assert.equal(due(next?.payload) - due(failed?.payload), 24 * 3_600_000);
  });

  test('into a bucket prefix alike: the newest BACKUP_KEEP kept there, older ones deleted, a cut-off upload made again', async () => {
    const buckets = await startBuckets('backups');
    closing.push(buckets.close);
    const base = Date.now();
    let skew = 0;
    const clock = { now: () => new Date(base + skew) };
    const server = await startTestServer(
      'sqlite',
      { ...buckets.connection, BACKUP_DIR: 's3://backups/school', BACKUP_EVERY_HOURS: '24', BACKUP_KEEP: '2' },
      { clock },
    );
    closing.push(server.close);
    const { db } = server.database;
    const nextDue = async () => {
      const [job] = await db
        .selectFrom('jobs')
        .select('payload')
        .where('kind', '=', 'backup.scheduled')
        .where('status', '=', 'queued')
        .execute();
      return (JSON.parse(job?.payload ?? '{}') as { due: string }).due;
    };
    const folderOf = (due: string) => due.replace(/\.\d+Z$/, 'Z').replaceAll(':', '-');
    const folders = async () =>
      [...new Set((await buckets.keys('backups', 'school/')).map((key) => key.split('/')[1] ?? ''))].sort();

    const made: string[] = [];
    for (let day = 1; day <= 3; day++) {
      const folder = folderOf(await nextDue());
      made.push(folder);
      // The third run finds what a run cut off before its manifest left under its prefix.
      if (day === 3) await buckets.put('backups', `school/${folder}/database.sqlite`, 'half a database');
      skew = day * 24 * 3_600_000 + 1_000;
      await server.services.jobs.runDue();
    }
    assert.deepEqual(await folders(), made.slice(1), 'the two newest are kept, the oldest deleted');
    for (const folder of made.slice(1)) {
      const keys = await buckets.keys('backups', `school/${folder}/`);
      assert.ok(keys.includes(`school/${folder}/manifest.json`), keys.join(' '));
      const database = await buckets.get('backups', `school/${folder}/database.sqlite`);
      assert.notEqual(database.bytes.toString(), 'half a database', 'the cut-off upload was made again');
    }
  });

  test('BACKUP_DIR takes s3://bucket/prefix as given, a folder made absolute, and refuses a malformed address', () => {
    assert.equal(loadConfig({ BACKUP_DIR: 's3://lyceum-backups/school' }).BACKUP_DIR, 's3://lyceum-backups/school');
    assert.equal(loadConfig({ BACKUP_DIR: 'backups' }, '/srv/lyceum').BACKUP_DIR, '/srv/lyceum/backups');
    for (const bad of ['s3://Lyceum_Backups', 's3://lyceum-backups/a//b', 's3://lyceum-backups/../x', 's3:/x'])
      assert.throws(
        () => loadConfig({ BACKUP_DIR: bad }),
        new RegExp(
          `^ConfigError: Invalid BACKUP_DIR=${JSON.stringify(bad).replaceAll('.', '\\.')}: expected s3://bucket/prefix`,
        ),
      );
  });
});
