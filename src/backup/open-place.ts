import { join } from 'node:path';
import { type Config, s3BackupUrl } from '../config.ts';
import { BackupError } from './backup-error.ts';
import { folderPlace } from './folder-place.ts';
import type { BackupPlace, PartSizes } from './place.ts';

/** The folder, or key prefix, under which the storage area keeps every file (`assets/<id>/…`). */
export const STORED = 'assets';

/**
 * The place `where` names: `s3://bucket/prefix`, reached with the school's S3 settings (endpoint, region, keys, path
 * style), or a folder. The AWS SDK is loaded only for a bucket.
 */
export async function openBackupPlace(config: Config, where: string, parts?: PartSizes): Promise<BackupPlace> {
  let s3: ReturnType<typeof s3BackupUrl>;
  try {
    s3 = s3BackupUrl(where);
  } catch (error) {
    throw new BackupError(`${where} is not an S3 address Lyceum can use: ${(error as Error).message}`);
  }
  if (!s3) return folderPlace(where);
  return (await import('./bucket-place.ts')).bucketPlace(config, s3, parts);
}

/** Runs `use` on the place `where` names (or on a place already open), closing what it opened. */
export async function withBackupPlace<T>(
  config: Config,
  where: string | BackupPlace,
  use: (place: BackupPlace) => Promise<T>,
): Promise<T> {
  if (typeof where !== 'string') return use(where);
  const place = await openBackupPlace(config, where);
  try {
    return await use(place);
  } finally {
    await place.close();
  }
}

/**
 * The school's uploaded files as a place to read: the `assets/` folder of STORAGE_DIR, or the `assets/` prefix of
 * S3_BUCKET, where the storage area keeps every file it writes (uploads and what is made of them, such as image
 * variants). Only that prefix: a bucket shared with other things, or holding these backups, is not copied whole.
 */
export async function storagePlace(config: Config): Promise<BackupPlace> {
  if (!config.S3_BUCKET) return folderPlace(join(config.STORAGE_DIR, STORED));
  return (await import('./bucket-place.ts')).bucketPlace(config, { bucket: config.S3_BUCKET, prefix: STORED });
}
