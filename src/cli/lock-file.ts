import { closeSync, mkdirSync, openSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/** A lock older than this belongs to a run that died holding it (a refresh takes well under a second). */
const STALE_MS = 30_000;
const POLL_MS = 50;

/**
 * Runs `work` while holding an exclusive lock file (created with O_EXCL, removed afterwards), so runs of the CLI in
 * other processes take turns. A lock left behind by a run that died is taken over once it is STALE_MS old.
 */
export async function withLockFile<T>(path: string, work: () => Promise<T>): Promise<T> {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  for (;;) {
    try {
      closeSync(openSync(path, 'wx', 0o600));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    try {
      // The file's mtime is the file system's clock, so it is compared with the real one, not an injected clock.
      if (Date.now() - statSync(path).mtimeMs > STALE_MS) unlinkSync(path);
    } catch (error) {
      // Removed by its holder (or another waiter) in between: try again.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    await delay(POLL_MS);
  }
  try {
    return await work();
  } finally {
    rmSync(path, { force: true });
  }
}
