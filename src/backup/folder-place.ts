import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { BackupError } from './backup-error.ts';
import { fileSum, MANIFEST, noManifest, parseManifest, summing } from './manifest.ts';
import { type BackupPlace, fileSource } from './place.ts';

/** A folder of backups, or one backup's folder. */
export function folderPlace(folder: string): BackupPlace {
  return {
    name: folder,
    hasManifest: async () => Boolean(await stat(join(folder, MANIFEST)).catch(() => undefined)),
    async write() {
      await mkdir(folder, { recursive: true });
      if ((await readdir(folder)).length) throw new BackupError(`${folder} is not empty: give a new or empty folder.`);
      // Inside the folder, so the snapshot moves into place instead of being copied (a temporary folder may be on
      // another file system, or too small).
      const scratch = join(folder, '.partial');
      await mkdir(scratch);
      return {
        scratch,
        async put(path, source) {
          const target = join(folder, path);
          await mkdir(dirname(target), { recursive: true });
          if (source.file?.startsWith(`${scratch}${sep}`)) {
            await rename(source.file, target);
            return fileSum(target);
          }
          const sums = summing();
          await pipeline(await source.open(), sums.tap(), createWriteStream(target, { flags: 'wx' }));
          return sums.sum();
        },
        async finish(manifest) {
          // Written whole, then named: a backup cut off before this point has no manifest and is never restored.
          await writeFile(join(folder, `${MANIFEST}.partial`), manifest);
          await rename(join(folder, `${MANIFEST}.partial`), join(folder, MANIFEST));
          await rm(scratch, { recursive: true, force: true });
        },
        abandon: () => rm(scratch, { recursive: true, force: true }),
      };
    },
    async local(beforeFiles) {
      const text = await readFile(join(folder, MANIFEST), 'utf8').catch(() => undefined);
      if (text === undefined) throw noManifest(folder);
      const manifest = parseManifest(text, folder);
      await beforeFiles(manifest);
      return { folder, manifest, done: async () => {} };
    },
    async files() {
      const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
      return entries
        .filter((e) => e.isFile())
        .map((e) => relative(folder, join(e.parentPath, e.name)))
        .filter((path) => !path.startsWith('.partial'));
    },
    async source(path) {
      try {
        return await fileSource(join(folder, path));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    clear: () => rm(folder, { recursive: true, force: true }),
    async children() {
      const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
      return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    },
    child: (name) => folderPlace(join(folder, name)),
    close: async () => {},
  };
}
