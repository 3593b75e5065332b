import { ConfigError, loadConfig } from '../config.ts';
import { systemClock } from '../time/clock.ts';
import { LYCEUM_VERSION } from '../version.ts';
import { makeBackup } from './backup.ts';
import { BackupError } from './backup-error.ts';
import { restoreBackup } from './restore.ts';

/**
 * `npm run backup -- <folder or s3://bucket/prefix>` and `npm run restore -- <the same>`, with the school's own
 * settings (DATABASE_URL, STORAGE_DIR, the S3_ ones…). Exit 2 when it cannot be done as asked (a folder or prefix not
 * empty, a school not empty, a damaged backup), saying why; 1 on any other failure.
 */
const [command, folder] = process.argv.slice(2);
if ((command !== 'backup' && command !== 'restore') || !folder) {
  process.stderr.write(
    'usage: npm run backup -- <folder or s3://bucket/prefix> | npm run restore -- <folder or s3://bucket/prefix>\n',
  );
  process.exit(2);
}
try {
  const config = loadConfig(process.env);
  if (command === 'backup') {
    const made = await makeBackup(config, folder, { clock: systemClock, version: LYCEUM_VERSION });
    process.stdout.write(
      `backed up the ${made.engine} database (${made.migrations.length} migrations, secrets ${made.secrets.join(', ')}) and ${
        made.files.filter((f) => f.path.startsWith('files/')).length
      } files into ${folder}\n`,
    );
    if (made.storage.missing?.length)
      process.stderr.write(
        `lyceum: ${made.storage.missing.length} files the database names were not in the school's storage, so not backed up: ${made.storage.missing.join(', ')}\n`,
      );
  } else {
    const restored = await restoreBackup(config, folder);
    process.stdout.write(`restored the backup made ${restored.made_at} by Lyceum ${restored.lyceum}\n`);
  }
} catch (error) {
  const told = error instanceof BackupError || error instanceof ConfigError;
  process.stderr.write(`lyceum: ${told ? (error as Error).message : String((error as Error).stack ?? error)}\n`);
  process.exitCode = told ? 2 : 1;
}
