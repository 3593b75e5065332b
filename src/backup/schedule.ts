import type { Config } from '../config.ts';
import type { Db } from '../db/tables.ts';
import { type JobQueue, PermanentJobError } from '../jobs/queue.ts';
import type { Clock } from '../time/clock.ts';
import { makeBackup } from './backup.ts';
import { BackupError } from './backup-error.ts';
import { withBackupPlace } from './open-place.ts';

const KIND = 'backup.scheduled';
/** Tries of one scheduled backup before it counts as failed (and the next is queued all the same). */
const ATTEMPTS = 5;
/** A scheduled backup's folder: the time it was due, as a name every file system takes (2026-11-27T03-00-00Z). */
const FOLDER = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z$/;
const folderOf = (due: Date) =>
  due
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');

/**
 * Scheduled backups (BACKUP_DIR, BACKUP_EVERY_HOURS, BACKUP_KEEP) as a durable job: each run makes the backup due at
 * its time into a folder named by that time (in BACKUP_DIR's folder or under its bucket prefix alike), deletes the
 * oldest beyond BACKUP_KEEP, and queues the next. Instances that both queued one (starting at the same moment)
 * collapse to one chain: a run whose folder another run already made stops there, without queueing a next. A backup
 * that fails its last try still queues the next, so one bad night does not end the schedule.
 */
export function scheduleBackups(deps: { config: Config; db: Db; clock: Clock; jobs: JobQueue; version: string }) {
  const { config, db, clock, jobs } = deps;
  const every = config.BACKUP_EVERY_HOURS * 3_600_000;
  const queueAfter = (due: Date) =>
    jobs.enqueue(
      db,
      KIND,
      { due: new Date(due.getTime() + every).toISOString() },
      { runAt: new Date(due.getTime() + every), maxAttempts: ATTEMPTS },
    );
  const backUp = (due: Date) =>
    withBackupPlace(config, config.BACKUP_DIR, async (root) => {
      const place = root.child(folderOf(due));
      // A run cut off before its manifest left a folder (or objects under a prefix) that is no backup: made again.
      if (!(await place.hasManifest())) await place.clear();
      try {
        await makeBackup(config, place, { clock, version: deps.version });
      } catch (error) {
        if (error instanceof BackupError && (await place.hasManifest())) return { skipped: 'made by another run' };
        throw error;
      }
      const kept = (await root.children()).filter((name) => FOLDER.test(name)).sort();
      const dropped = kept.slice(0, Math.max(0, kept.length - config.BACKUP_KEEP));
      for (const name of dropped) await root.child(name).clear();
      await queueAfter(due);
      return { place: place.name, dropped };
    });
  jobs.handle(KIND, async (payload: { due: string }, context) => {
    const due = new Date(payload.due);
    try {
      return await backUp(due);
    } catch (error) {
      if (error instanceof PermanentJobError || context.attempt >= ATTEMPTS) await queueAfter(due);
      throw error;
    }
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
      await jobs.enqueue(db, KIND, { due: due.toISOString() }, { runAt: due, maxAttempts: ATTEMPTS });
    },
  };
}
