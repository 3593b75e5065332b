import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobStore } from './blob-store.ts';

/**
 * Asset bytes as files under one folder. A file is written under a temporary name and renamed into place when
 * complete, so a reader never sees half a file and a failed upload leaves nothing behind.
 */
export function localBlobStore(root: string): BlobStore {
  const pathOf = (key: string) => join(root, ...key.split('/'));
  return {
    kind: 'local',
    async put(key, body) {
      const target = pathOf(key);
      const partial = join(root, '.partial', randomUUID());
      await mkdir(dirname(partial), { recursive: true });
      await mkdir(dirname(target), { recursive: true });
      try {
        await pipeline(Readable.from(body), createWriteStream(partial, { flags: 'wx' }));
        await rename(partial, target);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },
    async get(key, range) {
      const stream = createReadStream(pathOf(key), range ? { start: range.start, end: range.end } : {});
      // Opening errors (a missing file) surface here rather than mid-response.
      await new Promise<void>((resolve, reject) => {
        stream.once('open', () => resolve());
        stream.once('error', reject);
      });
      return stream;
    },
    async head(key) {
      try {
        return { byteSize: (await stat(pathOf(key))).size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async close() {},
  };
}
