import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NotFound,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { BlobStore } from './blob-store.ts';

export type S3Settings = {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  /** Where the SDK's warnings and errors go (its per-request info lines are dropped). */
  log: { warn(details: object, message: string): void; error(details: object, message: string): void };
};

/** A client of the S3-compatible service the settings name, for any of its buckets (the backups use it too). */
export function s3Client(settings: Omit<S3Settings, 'bucket'>): S3Client {
  return new S3Client({
    region: settings.region,
    endpoint: settings.endpoint || undefined,
    forcePathStyle: settings.forcePathStyle,
    credentials:
      settings.accessKeyId && settings.secretAccessKey
        ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
        : undefined,
    // The SDK's default checksums send streamed bodies aws-chunked with a trailer, which many S3-compatible services
    // store as they arrive (framing included). Checksums only where the API requires them keeps every service working;
    // the storage area computes the SHA-256 of every upload itself.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    logger: {
      trace() {},
      debug() {},
      info() {},
      warn: (message: unknown) => settings.log.warn({ s3: message }, 'S3 client warning'),
      error: (message: unknown) => settings.log.error({ s3: message }, 'S3 client error'),
    },
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** Asset bytes as objects of one S3-compatible bucket (AWS S3, MinIO, R2, …). */
export function s3BlobStore(settings: S3Settings): BlobStore {
  const client = s3Client(settings);
  const Bucket = settings.bucket;
  return {
    kind: 's3',
    async put(Key, body, meta) {
      // A body that fails part-way (a refused upload) would leave the request waiting for the bytes it announced:
      // abort it, and report the body's own error rather than the abort.
      const abort = new AbortController();
      let failure: unknown;
      const stream = Readable.from(body);
      stream.once('error', (error) => {
        failure = error;
        abort.abort();
      });
      try {
        await client.send(
          new PutObjectCommand({
            Bucket,
            Key,
            Body: stream,
            ContentLength: meta.byteSize,
            ContentType: meta.contentType,
          }),
          { abortSignal: abort.signal },
        );
      } catch (error) {
        throw failure ?? error;
      }
    },
    async get(Key, range) {
      const object = await client.send(
        new GetObjectCommand({ Bucket, Key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
      return object.Body as Readable;
    },
    async head(Key) {
      try {
        const object = await client.send(new HeadObjectCommand({ Bucket, Key }));
        return { byteSize: Number(object.ContentLength) };
      } catch (error) {
        if (error instanceof NotFound) return undefined;
        throw error;
      }
    },
    async delete(Key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key }));
    },
    async close() {
      client.destroy();
    },
  };
}
