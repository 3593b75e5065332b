import {
  CopyObjectCommand,
  CreateBucketCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { s3Client } from '../../src/storage/s3-blob-store.ts';
import { startS3Server } from '../support/s3-server.ts';

/**
 * A real S3-protocol server with the buckets named (the first is the one its `env` gives as S3_BUCKET), and a client
 * of it to look into them as an owner would with the provider's tools.
 */
export async function startBuckets(...names: [string, ...string[]]) {
  const s3 = await startS3Server(names[0]);
  const client: S3Client = s3Client({
    endpoint: s3.env.S3_ENDPOINT,
    region: s3.env.S3_REGION,
    accessKeyId: s3.env.S3_ACCESS_KEY_ID,
    secretAccessKey: s3.env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: true,
    log: { warn() {}, error() {} },
  });
  for (const Bucket of names.slice(1)) await client.send(new CreateBucketCommand({ Bucket }));
  const { S3_BUCKET: _, ...connection } = s3.env;
  return {
    /** The school's S3 settings with `names[0]` as the bucket of its files. */
    env: s3.env,
    /** The S3 settings without a bucket for files: a school whose files are on disk, backed up to a bucket. */
    connection,
    async keys(Bucket: string, Prefix: string) {
      const listed = await client.send(new ListObjectsV2Command({ Bucket, Prefix }));
      return (listed.Contents ?? []).map((object) => object.Key ?? '').sort();
    },
    async get(Bucket: string, Key: string) {
      const object = await client.send(new GetObjectCommand({ Bucket, Key }));
      return {
        bytes: Buffer.from(await (object.Body?.transformToByteArray() ?? new Uint8Array())),
        contentType: object.ContentType,
      };
    },
    put: (Bucket: string, Key: string, Body: Buffer | string) =>
      client.send(new PutObjectCommand({ Bucket, Key, Body })),
    copy: (Bucket: string, from: string, Key: string) =>
      client.send(new CopyObjectCommand({ Bucket, Key, CopySource: `${Bucket}/${from}` })),
    async close() {
      client.destroy();
      await s3.close();
    },
  };
}
