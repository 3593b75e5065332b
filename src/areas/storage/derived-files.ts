import type { Readable } from 'node:stream';
import type { BlobStore } from '../../storage/blob-store.ts';

/** A derived file's name: letters, digits, dots and dashes, chosen by the code that makes it. */
const NAME = /^[a-z0-9][a-z0-9._-]{0,120}$/;

async function* once(bytes: Buffer) {
  yield bytes;
}

/**
 * Files made from the school's own data (the share images of courses and posts), kept in the blob store beside the
 * uploads under a name that says everything they were made from: made the first time they are asked for, read from
 * the store ever after. Two instances making one at once both write the same bytes under the same key.
 */
export function derivedFiles(blobs: BlobStore) {
  return {
    async keep(
      name: string,
      contentType: string,
      make: () => Promise<Buffer>,
    ): Promise<{ body: Readable | Buffer; byteSize: number }> {
      if (!NAME.test(name)) throw new Error(`Not a derived file's name: ${name}`);
      const key = `derived/${name}`;
      const kept = await blobs.head(key);
      if (kept) return { body: await blobs.get(key), byteSize: kept.byteSize };
      const bytes = await make();
      await blobs.put(key, once(bytes), { byteSize: bytes.length, contentType });
      return { body: bytes, byteSize: bytes.length };
    },
  };
}
