import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { Db } from '../db/tables.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { Clock } from '../time/clock.ts';
import { BackupError, makeBackup } from './backup.ts';
import { MANIFEST } from './manifest.ts';

const KIND = 'backup.scheduled';
/** A scheduled backup's folder: the time it was due, as a name every file system takes (2026-11-27T03-00-00Z). */
const FOLDER = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z$/;
const folderOf = (due: Date) =>
  due
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');

/**
 * Scheduled backups (BACKUP_DIR, BACKUP_EVERY_HOURS, BACKUP_KEEP) as a durable job: each run makes the backup due at
 * its time into a folder named by that time, deletes the oldest beyond BACKUP_KEEP, and queues the next. Instances
 * that both queued one (starting at the same moment) collapse to one chain: a run whose folder another run already
 * made stops there, without queueing a next.
 */
export function scheduleBackups(deps: { config: Config; db: Db; clock: Clock; jobs: JobQueue; version: string }) {
  const { config, db, clock, jobs } = deps;
  const every = config.BACKUP_EVERY_HOURS * 3_600_000;
  jobs.handle(KIND, async (payload: { due: string }) => {
    const due = new Date(payload.due);
    const folder = join(config.BACKUP_DIR, folderOf(due));
    // A run cut off before its manifest left a folder that is no backup: it is made again.
    if (!(await stat(join(folder, MANIFEST)).catch(() => undefined)))
      await rm(folder, { recursive: true, force: true });
    try {
      await makeBackup(config, folder, { clock, version: deps.version });
    } catch (error) {
      if (error instanceof BackupError && (await stat(join(folder, MANIFEST)).catch(() => undefined)))
        return { skipped: 'made by another run' };
      throw error;
    }
    const kept = (await readdir(config.BACKUP_DIR)).filter((name) => FOLDER.test(name)).sort();
    const dropped = kept.slice(0, Math.max(0, kept.length - config.BACKUP_KEEP));
    for (const name of dropped) await rm(join(config.BACKUP_DIR, name), { recursive: true, force: true });
    await jobs.enqueue(
      db,
      KIND,
      { due: new Date(due.getTime() + every).toISOString() },
      { runAt: new Date(due.getTime() + every) },
    );
    return { folder, dropped };
  });
  return {
    /** Queues the first backup, one interval from now, unless one is queued or under way. */
    async start() {
      const queued = await db
        .selectFrom('jobs')
        .select('id')
        .where('kind', '=', KIND)
        .where('status', 'in', ['queued', 'running'])
        .executeTakeFirst();
      if (queued) return;
      const due = new Date(clock.now().getTime() + every);
      await jobs.enqueue(db, KIND, { due: due.toISOString() }, { runAt: due });
    },
  };
}
