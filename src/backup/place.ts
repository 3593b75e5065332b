import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { ByteRange } from '../storage/blob-store.ts';
import type { Manifest } from './manifest.ts';

/** Bytes a backup takes in: their size, and a stream of them (or of one range, for a file sent in parts). */
export type Source = {
  bytes: number;
  open(range?: ByteRange): Promise<Readable>;
  /** The local file the bytes are in, when they are in one. */
  file?: string;
  /** Their media type, when where they are kept says it (a bucket's object does). */
  contentType?: string;
};

export const fileSource = async (file: string): Promise<Source> => ({
  bytes: (await stat(file)).size,
  open: async (range) => createReadStream(file, range ? { start: range.start, end: range.end } : {}),
  file,
});

/** One backup being written into a place: the database snapshot is made in `scratch`, files go in, the manifest last. */
export type BackupWrite = {
  /** An empty local folder for the database snapshot, removed once the backup is finished or abandoned. */
  scratch: string;
  /** Puts a file into the backup at `path`, summing the bytes as they pass. */
  put(path: string, source: Source): Promise<{ bytes: number; sha256: string }>;
  /** Writes the manifest, last: until then the place holds no backup. */
  finish(manifest: string): Promise<void>;
  /** Drops the scratch folder of a backup that failed; what was put stays, without a manifest, and is never restored. */
  abandon(): Promise<void>;
};

/**
 * Where backups are kept: a folder, or a prefix of an S3 bucket (treated as a folder). The school's own storage is
 * read as one too (its `assets/` folder or prefix), so its files are copied the same way from disk or bucket.
 */
export type BackupPlace = {
  /** As people name it: the folder's path, or `s3://bucket/prefix`. */
  readonly name: string;
  hasManifest(): Promise<boolean>;
  /** Refuses (BackupError) unless nothing at all is there, then begins writing a backup there. */
  write(): Promise<BackupWrite>;
  /**
   * The backup as a local folder to restore from, with its manifest: a folder as it is; a bucket's copied down,
   * `done` deleting the copy. The manifest is read first (none: refused), and `beforeFiles` runs on it before any
   * file is read, so a restore is refused before a large backup is downloaded.
   */
  local(
    beforeFiles: (manifest: Manifest) => Promise<void>,
  ): Promise<{ folder: string; manifest: Manifest; done(): Promise<void> }>;
  /** Every file in it and in the folders inside, as paths relative to it (files being written left out). */
  files(): Promise<string[]>;
  /** The file at `path` inside it, or undefined when there is none. */
  source(path: string): Promise<Source | undefined>;
  /** Deletes everything there. */
  clear(): Promise<void>;
  /** The names of the folders directly inside it. */
  children(): Promise<string[]>;
  child(name: string): BackupPlace;
  /** Ends its connection, which the places `child` gave share: close the one opened. */
  close(): Promise<void>;
};

/** How a bucket place sends large files: one request up to `singleMax` bytes, else in parts of `partBytes`. */
export type PartSizes = { singleMax: number; partBytes: number };
