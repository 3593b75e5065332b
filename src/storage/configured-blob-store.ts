import type { Config } from '../config.ts';
import type { BlobStore } from './blob-store.ts';
import { localBlobStore } from './local-blob-store.ts';
import type { S3Settings } from './s3-blob-store.ts';

/**
 * Where asset bytes are kept by the settings: the configured S3-compatible bucket, else files under STORAGE_DIR. The
 * AWS SDK is loaded only by a school that uses a bucket (≈ 30 MB of memory once loaded).
 */
export async function configuredBlobStore(config: Config, log: S3Settings['log']): Promise<BlobStore> {
  if (!config.S3_BUCKET) return localBlobStore(config.STORAGE_DIR);
  return (await import('./s3-blob-store.ts')).s3BlobStore({
    bucket: config.S3_BUCKET,
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    log,
  });
}
