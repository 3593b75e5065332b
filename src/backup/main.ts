import { ConfigError, loadConfig } from '../config.ts';
import { systemClock } from '../time/clock.ts';
import { LYCEUM_VERSION } from '../version.ts';
import { BackupError, makeBackup } from './backup.ts';
import { restoreBackup } from './restore.ts';

/**
 * `npm run backup -- <folder>` and `npm run restore -- <folder>`, with the school's own settings (DATABASE_URL,
 * STORAGE_DIR…). Exit 2 when it cannot be done as asked (a folder not empty, a school not empty, a damaged backup),
 * saying why; 1 on any other failure.
 */
const [command, folder] = process.argv.slice(2);
if ((command !== 'backup' && command !== 'restore') || !folder) {
  process.stderr.write('usage: npm run backup -- <folder> | npm run restore -- <folder>\n');
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
  } else {
    const restored = await restoreBackup(config, folder);
    process.stdout.write(`restored the backup made ${restored.made_at} by Lyceum ${restored.lyceum}\n`);
  }
} catch (error) {
  const told = error instanceof BackupError || error instanceof ConfigError;
  process.stderr.write(`lyceum: ${told ? (error as Error).message : String((error as Error).stack ?? error)}\n`);
  process.exitCode = told ? 2 : 1;
}
