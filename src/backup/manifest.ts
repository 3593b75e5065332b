import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';

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
  /** Where uploaded files were: `local` ones are in files/; an S3 bucket's stay in the bucket. */
  storage: { kind: 'local' } | { kind: 's3'; bucket: string };
  /** Every file of the backup but this one, by path inside it. */
  files: { path: string; bytes: number; sha256: string }[];
};

export const MANIFEST = 'manifest.json';

/** A file's SHA-256 (hex) and size, read as a stream. */
export async function fileSum(path: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return { bytes: (await stat(path)).size, sha256: hash.digest('hex') };
}
