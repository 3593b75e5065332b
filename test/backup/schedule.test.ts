import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../support/server.ts';

describe('scheduled backups, as a durable job', () => {
  let server: TestServer | undefined;
  after(() => server?.close());

  test('one every BACKUP_EVERY_HOURS on the clock, the newest BACKUP_KEEP kept; a second chain collapses into one', async () => {
    const base = Date.now();
    let skew = 0;
    const clock = { now: () => new Date(base + skew) };
    const dir = mkdtempSync(join(tmpdir(), 'lyceum-backups-'));
    server = await startTestServer(
      'sqlite',
      { BACKUP_DIR: dir, BACKUP_EVERY_HOURS: '24', BACKUP_KEEP: '2' },
      { clock },
    );
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
});
