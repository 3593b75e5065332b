import { createReadStream, existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import type { Config } from '../config.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { configuredBlobStore } from '../storage/configured-blob-store.ts';
import { bareUrl, pgTool } from './backup.ts';
import { BackupError } from './backup-error.ts';
import { fileSum, type Manifest } from './manifest.ts';
import { withBackupPlace } from './open-place.ts';
import type { BackupPlace } from './place.ts';

/** The schema a PostgreSQL URL works in: its `search_path` option, else public. */
const schemaOfUrl = (url: string) =>
  /search_path=([^\s,]+)/.exec(new URL(url).searchParams.get('options') ?? '')?.[1] ?? 'public';

/** Whether a SQLite file holds any table. */
function sqliteHasTables(path: string) {
  if (!existsSync(path)) return false;
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const row = db.prepare(`select count(*) as n from sqlite_master where type = 'table'`).get() as { n: number };
    return row.n > 0;
  } finally {
    db.close();
  }
}

/**
 * Restores a backup made by makeBackup (`where`: its folder, or `s3://bucket/prefix`) into an empty school. The
 * manifest is read first, and a school that already has tables or files is refused then, never overwritten (and
 * before a bucket's backup is downloaded); every file is checked against the manifest next, then the uploaded files
 * go into the school's storage (STORAGE_DIR, or its bucket when S3_BUCKET is set, wherever they were kept before) and
 * the database is put back. PostgreSQL restores into the schema the backup was made from, named by DATABASE_URL's
 * search_path.
 */
export async function restoreBackup(config: Config, where: string | BackupPlace): Promise<Manifest> {
  const blobs = await configuredBlobStore(config, { warn() {}, error() {} });
  try {
    return await withBackupPlace(config, where, async (place) => {
      const { folder, manifest, done } = await place.local((manifest) => refuseUnlessEmpty(config, manifest, blobs));
      try {
        for (const file of manifest.files) {
          const sum = await fileSum(join(folder, file.path)).catch(() => undefined);
          if (!sum || sum.sha256 !== file.sha256 || sum.bytes !== file.bytes)
            throw new BackupError(
              `The backup is damaged: ${file.path} is ${sum ? 'not what was backed up' : 'missing'}.`,
            );
        }
        await putBack(config, folder, manifest, blobs);
        return manifest;
      } finally {
        await done();
      }
    });
  } finally {
    await blobs.close();
  }
}

const uploadsOf = (manifest: Manifest) =>
  manifest.files
    .filter((f) => f.path.startsWith('files/'))
    .map((file) => ({ ...file, key: file.path.slice('files/'.length) }));

/** Refuses a backup of the other engine, and a school that is not empty: files in its storage, tables in its database. */
async function refuseUnlessEmpty(config: Config, manifest: Manifest, blobs: BlobStore) {
  if (manifest.engine !== config.database.engine)
    throw new BackupError(
      `This is a ${manifest.engine} backup and DATABASE_URL names ${config.database.engine}: restore it into ${manifest.engine}.`,
    );
  if (blobs.kind === 'local') {
    if (existsSync(config.STORAGE_DIR) && (await readdir(config.STORAGE_DIR)).length)
      throw new BackupError(`${config.STORAGE_DIR} is not empty: a backup is restored into an empty school only.`);
  } else {
    for (const file of uploadsOf(manifest))
      if (await blobs.head(file.key))
        throw new BackupError(
          `The bucket ${config.S3_BUCKET} already holds ${file.key}: a backup is restored into an empty school only.`,
        );
  }
  await refuseFullDatabase(config, manifest);
}

/** The files and the database of a checked backup, put into the school. */
async function putBack(config: Config, folder: string, manifest: Manifest, blobs: BlobStore) {
  // Everything is put beside its place first and moved in at the end, so a restore that fails leaves the school as
  // empty as it found it, and can be run again. A bucket has no moves: what was put into it is deleted instead.
  const staged = `${config.STORAGE_DIR}.restoring-${process.pid}`;
  const moves: (() => Promise<void>)[] = [];
  const put: string[] = [];
  try {
    if (blobs.kind === 'local') {
      for (const file of uploadsOf(manifest)) {
        await mkdir(dirname(join(staged, file.key)), { recursive: true });
        await cp(join(folder, file.path), join(staged, file.key));
      }
      moves.push(async () => {
        await rm(config.STORAGE_DIR, { recursive: true, force: true });
        await mkdir(staged, { recursive: true });
        await rename(staged, config.STORAGE_DIR);
      });
    } else {
      for (const file of uploadsOf(manifest)) {
        put.push(file.key);
        await blobs.put(file.key, createReadStream(join(folder, file.path)), {
          byteSize: file.bytes,
          contentType: file.content_type ?? 'application/octet-stream',
        });
      }
    }
    await restoreDatabase(config, folder, manifest, moves);
  } catch (error) {
    await rm(staged, { recursive: true, force: true });
    for (const key of put) await blobs.delete(key).catch(() => undefined);
    throw error;
  }
  for (const move of moves) await move();
}

/** Refuses a school whose database already has tables (SQLite) or whose schema has (PostgreSQL). */
async function refuseFullDatabase(config: Config, manifest: Manifest) {
  if (config.database.engine === 'sqlite') {
    const { path } = config.database;
    if (sqliteHasTables(path))
      throw new BackupError(`The database ${path} is not empty: a backup is restored into an empty school only.`);
    return;
  }
  const schema = schemaOfUrl(config.database.url);
  if (schema !== manifest.schema)
    throw new BackupError(
      `The backup is of schema ${manifest.schema}, and DATABASE_URL works in ${schema}: restore into a database whose search_path is ${manifest.schema}.`,
    );
  const client = new pg.Client({ connectionString: bareUrl(config.database.url) });
  await client.connect();
  try {
    const tables = await client.query<{ n: string }>(
      'select count(*) as n from information_schema.tables where table_schema = $1',
      [schema],
    );
    if (Number(tables.rows[0]?.n) > 0)
      throw new BackupError(`The schema ${schema} is not empty: a backup is restored into an empty school only.`);
  } finally {
    await client.end();
  }
}

/** The database of a backup, restored (PostgreSQL, in one transaction) or staged to be moved in (SQLite). */
async function restoreDatabase(config: Config, folder: string, manifest: Manifest, moves: (() => Promise<void>)[]) {
  if (config.database.engine === 'sqlite') {
    const { path } = config.database;
    await mkdir(dirname(path), { recursive: true });
    await cp(join(folder, 'database.sqlite'), `${path}.restoring`);
    // Last of all: until the database is in place, the school is still empty.
    moves.push(async () => {
      for (const leftover of [path, `${path}-wal`, `${path}-shm`]) await rm(leftover, { force: true });
      await rename(`${path}.restoring`, path);
    });
  } else {
    const schema = schemaOfUrl(config.database.url);
    const client = new pg.Client({ connectionString: bareUrl(config.database.url) });
    await client.connect();
    try {
      // The schema is made here (public exists already in a new database), and left out of the dump's items below.
      await client.query(`create schema if not exists ${pg.escapeIdentifier(schema)}`);
      for (const extension of manifest.extensions) {
        await client.query(`create schema if not exists ${pg.escapeIdentifier(extension.schema)}`);
        await client.query(
          `create extension if not exists ${pg.escapeIdentifier(extension.name)} with schema ${pg.escapeIdentifier(extension.schema)}`,
        );
      }
    } finally {
      await client.end();
    }
    const dump = join(folder, 'database.pgdump');
    const items = (await pgTool('pg_restore', config.database.url, ['--list', dump])).stdout
      .split('\n')
      .filter((line) => !/^\d+; \d+ \d+ SCHEMA - /.test(line));
    const listed = await mkdtemp(join(tmpdir(), 'lyceum-restore-'));
    try {
      await writeFile(join(listed, 'items'), items.join('\n'));
      await pgTool('pg_restore', config.database.url, [
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        '--single-transaction',
        `--use-list=${join(listed, 'items')}`,
        dump,
      ]);
    } finally {
      await rm(listed, { recursive: true, force: true });
    }
  }
}
