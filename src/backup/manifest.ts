import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BackupError } from './backup-error.ts';

/** What a backup holds, written last into its folder as manifest.json: a folder without one is no backup. */
export type Manifest = {
  format: 1;
  /** The version of Lyceum that made it. */
  lyceum: string;
  made_at: string;
  engine: 'sqlite' | 'postgres';
  /** PostgreSQL: the schema it was dumped from, which a restore recreates. */
  schema: string | null;
  /** PostgreSQL: the extensions the schema uses (pg_trgm for search), made first by a restore. */
  extensions: { name: string; schema: string }[];
  /** The migrations the database had: a version that does not know them all cannot serve the restored school. */
  migrations: string[];
  /** The secrets kept in the database (cookie keys, ID-token signing keys…), restored with it: sessions go on. */
  secrets: string[];
  /**
   * Where the uploaded files were kept. Either way they are copied into files/ (backups made before Lyceum copied a
   * bucket's files have none there for `s3`: those stayed in the bucket).
   */
  storage: ({ kind: 'local' } | { kind: 's3'; bucket: string }) & {
    /** Files the database names that the storage did not hold when the backup was made (a school already damaged). */
    missing?: string[];
  };
  /**
   * Every file of the backup but this one, by path inside it; an uploaded file's content type, when its asset names
   * it, so that a restore into a bucket stores it as the upload was.
   */
  files: { path: string; bytes: number; sha256: string; content_type?: string }[];
};

export const MANIFEST = 'manifest.json';

/** A file's SHA-256 (hex) and size, read as a stream. */
export async function fileSum(path: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return { bytes: (await stat(path)).size, sha256: hash.digest('hex') };
}

/**
 * Sums bytes as they stream past on their way somewhere: `tap()` gives a pass-through for one stretch of them (a
 * file, or each part of one sent in parts, in order), `sum()` the SHA-256 and size of all that passed.
 */
export function summing() {
  const hash: Hash = createHash('sha256');
  let bytes = 0;
  return {
    tap: () =>
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          bytes += chunk.length;
          done(null, chunk);
        },
      }),
    sum: () => ({ bytes, sha256: hash.digest('hex') }),
  };
}

/** A manifest's text, read as one `where` holds it: refused when it is of an unknown format or names odd paths. */
export function parseManifest(text: string, where: string): Manifest {
  const manifest = JSON.parse(text) as Manifest;
  if (manifest.format !== 1) throw new BackupError(`${where} is a backup of an unknown format (${manifest.format}).`);
  for (const file of manifest.files) {
    // Only the backup's own files, inside its folder: a manifest naming ../anything is not one makeBackup wrote.
    if (!/^(database\.(sqlite|pgdump)|files\/.+)$/.test(file.path) || file.path.split('/').includes('..'))
      throw new BackupError(`The backup is damaged: its manifest names ${JSON.stringify(file.path)}.`);
  }
  return manifest;
}

export const noManifest = (where: string) =>
  new BackupError(`${where} has no ${MANIFEST}: it is not a backup, or one that was cut off.`);
