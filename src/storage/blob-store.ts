import type { Readable } from 'node:stream';

/** A byte range, both ends inclusive (as HTTP's Range header counts them). */
export type ByteRange = { start: number; end: number };

/**
 * Where asset bytes live: a folder on local disk, or an S3-compatible bucket. Keys are chosen by the storage area
 * (never by a caller) and written once; what is written under a key never changes.
 */
export type BlobStore = {
  readonly kind: 'local' | 's3';
  /** Writes `body` (exactly `byteSize` bytes) under `key`; nothing is left under it if the body fails. */
  put(key: string, body: AsyncIterable<Uint8Array>, meta: { byteSize: number; contentType: string }): Promise<void>;
  /** The bytes under `key`, or only `range` of them. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** The size of what is under `key`, or undefined when nothing is. */
  head(key: string): Promise<{ byteSize: number } | undefined>;
  delete(key: string): Promise<void>;
  close(): Promise<void>;
};
