import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pipeline as pipe, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { Config } from '../config.ts';
import type { ByteRange } from '../storage/blob-store.ts';
import { s3Client } from '../storage/s3-blob-store.ts';
import { BackupError } from './backup-error.ts';
import { MANIFEST, noManifest, parseManifest, summing } from './manifest.ts';
import type { BackupPlace, PartSizes, Source } from './place.ts';

const MiB = 1024 * 1024;
/**
 * One request per file up to 512 MiB; a larger one (a big database) in parts of 64 MiB, so a failed request costs at
 * most a part and no file meets S3's 5 GiB limit on one request. S3 takes at most 10,000 parts: past 640 GiB the
 * parts grow.
 */
const PARTS: PartSizes = { singleMax: 512 * MiB, partBytes: 64 * MiB };
const MAX_PARTS = 10_000;

/**
 * Backups under a prefix of an S3 bucket, reached with the school's own S3 settings (its endpoint, region, keys and
 * path style; the bucket is the one the address names). The prefix is used as a folder: `s3://b/nightly` holds
 * `nightly/manifest.json`, `nightly/database.sqlite`, `nightly/files/…`. Every file streams, in parts when large, and
 * the manifest goes up last: an upload cut off before it is never restored.
 */
export function bucketPlace(
  config: Config,
  address: { bucket: string; prefix: string },
  parts: PartSizes = PARTS,
): BackupPlace {
  const client = s3Client({
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    // Its failures reach the command or the job as errors; its warnings are of no use to the owner.
    log: { warn() {}, error() {} },
  });
  const Bucket = address.bucket;

  /** Every key under `base`, or only the first page's (up to 1,000) when `some` is enough. */
  async function keysUnder(base: string, some = false) {
    const keys: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: base, ContinuationToken }));
      keys.push(...(page.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : [])));
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken && !some);
    return keys;
  }

  /**
   * Sends a source's bytes (or one range of them) as a request body, summing them on the way. A body that fails
   * part-way would leave the request waiting for bytes it announced: it is aborted, and its own error reported.
   */
  async function sendBody<T>(
    source: Source,
    range: ByteRange | undefined,
    sums: ReturnType<typeof summing>,
    send: (body: Readable, abortSignal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const abort = new AbortController();
    let failure: unknown;
    const body = pipe(await source.open(range), sums.tap(), (error) => {
      if (error) {
        failure = error;
        abort.abort();
      }
    });
    try {
      return await send(body, abort.signal);
    } catch (error) {
      throw failure ?? error;
    }
  }

  async function upload(Key: string, source: Source) {
    const sums = summing();
    if (source.bytes <= parts.singleMax) {
      await sendBody(source, undefined, sums, (Body, abortSignal) =>
        client.send(new PutObjectCommand({ Bucket, Key, Body, ContentLength: source.bytes }), { abortSignal }),
      );
      return sums.sum();
    }
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key }));
    try {
      const size = Math.max(parts.partBytes, Math.ceil(source.bytes / MAX_PARTS));
      const sent: { ETag: string | undefined; PartNumber: number }[] = [];
      // One part after another: the sum is of the bytes in order.
      for (let start = 0; start < source.bytes; start += size) {
        const end = Math.min(start + size, source.bytes) - 1;
        const PartNumber = sent.length + 1;
        const { ETag } = await sendBody(source, { start, end }, sums, (Body, abortSignal) =>
          client.send(
            new UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body, ContentLength: end - start + 1 }),
            { abortSignal },
          ),
        );
        sent.push({ ETag, PartNumber });
      }
      await client.send(
        new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: sent } }),
      );
    } catch (error) {
      // An unfinished upload's parts are kept (and billed) until it is aborted.
      await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId })).catch(() => undefined);
      throw error;
    }
    return sums.sum();
  }

  async function download(Key: string, file: string) {
    const object = await client.send(new GetObjectCommand({ Bucket, Key }));
    await mkdir(dirname(file), { recursive: true });
    await pipeline(object.Body as Readable, createWriteStream(file, { flags: 'wx' }));
  }

  const place = (prefix: string): BackupPlace => {
    const base = prefix ? `${prefix}/` : '';
    const name = `s3://${Bucket}${prefix ? `/${prefix}` : ''}`;
    const hasManifest = async () => {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: `${base}${MANIFEST}` }));
        return true;
      } catch (error) {
        if (error instanceof NotFound) return false;
        throw error;
      }
    };
    return {
      name,
      hasManifest,
      async write() {
        if (await hasManifest()) throw new BackupError(`${name} already holds a backup: give a new prefix.`);
        if ((await keysUnder(base, true)).length)
          throw new BackupError(
            `${name} is not empty (it holds no ${MANIFEST}: a backup cut off, or other objects): give a new or empty prefix.`,
          );
        const scratch = await mkdtemp(join(tmpdir(), 'lyceum-backup-'));
        return {
          scratch,
          put: (path, source) => upload(`${base}${path}`, source),
          async finish(manifest) {
            await client.send(
              new PutObjectCommand({
                Bucket,
                Key: `${base}${MANIFEST}`,
                Body: manifest,
                ContentType: 'application/json',
              }),
            );
            await rm(scratch, { recursive: true, force: true });
          },
          abandon: () => rm(scratch, { recursive: true, force: true }),
        };
      },
      async local(beforeFiles) {
        const folder = await mkdtemp(join(tmpdir(), 'lyceum-restore-'));
        const done = () => rm(folder, { recursive: true, force: true });
        try {
          let text: string;
          try {
            const object = await client.send(new GetObjectCommand({ Bucket, Key: `${base}${MANIFEST}` }));
            text = (await object.Body?.transformToString('utf8')) ?? '';
          } catch (error) {
            if (error instanceof NoSuchKey) throw noManifest(name);
            throw error;
          }
          // The paths are checked before any is written to: they come from the bucket.
          const manifest = parseManifest(text, name);
          await beforeFiles(manifest);
          for (const file of manifest.files)
            await download(`${base}${file.path}`, join(folder, file.path)).catch((error) => {
              throw error instanceof NoSuchKey
                ? new BackupError(`The backup is damaged: ${file.path} is missing.`)
                : error;
            });
          return { folder, manifest, done };
        } catch (error) {
          await done();
          throw error;
        }
      },
      files: async () => (await keysUnder(base)).map((key) => key.slice(base.length)),
      async source(path) {
        const Key = `${base}${path}`;
        try {
          const found = await client.send(new HeadObjectCommand({ Bucket, Key }));
          return {
            bytes: Number(found.ContentLength),
            contentType: found.ContentType,
            open: async (range) =>
              (
                await client.send(
                  new GetObjectCommand({ Bucket, Key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
                )
              ).Body as Readable,
          };
        } catch (error) {
          if (error instanceof NotFound) return undefined;
          throw error;
        }
      },
      async clear() {
        const keys = await keysUnder(base);
        for (let i = 0; i < keys.length; i += 1000) {
          const Objects = keys.slice(i, i + 1000).map((Key) => ({ Key }));
          const { Errors } = await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }));
          if (Errors?.length)
            throw new Error(`${Errors.length} objects of ${name} could not be deleted: ${Errors[0]?.Message}`);
        }
      },
      async children() {
        const names: string[] = [];
        let ContinuationToken: string | undefined;
        do {
          const page = await client.send(
            new ListObjectsV2Command({ Bucket, Prefix: base, Delimiter: '/', ContinuationToken }),
          );
          for (const common of page.CommonPrefixes ?? [])
            if (common.Prefix) names.push(common.Prefix.slice(base.length, -1));
          ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (ContinuationToken);
        return names;
      },
      child: (name) => place(prefix ? `${prefix}/${name}` : name),
      close: async () => client.destroy(),
    };
  };
  return place(address.prefix);
}
